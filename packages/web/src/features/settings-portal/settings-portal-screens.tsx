import { SettingsScreen } from './components/settings-form';
import { ANALYTICS_SECTIONS, API_LOGGING_SECTIONS, PORTAL_SECTIONS } from './settings-fields';

/**
 * The portal-wide settings screens of the settings area (loaded together on first use):
 * `/settings/portal`, `/settings/analytics` and `/settings/api_logging`.
 */
export const PortalSettingsPage = () => <SettingsScreen title="portal" sections={PORTAL_SECTIONS} />;
export const AnalyticsSettingsPage = () => <SettingsScreen title="analytics" sections={ANALYTICS_SECTIONS} />;
export const ApiLoggingSettingsPage = () => (
  <SettingsScreen title="apiLogging" sections={API_LOGGING_SECTIONS} />
);

/** The health screens of an API (console-apis.md 2.5), loaded together on demand. */
export { ConfigurePage, EndpointHealthPage } from './configure-pages';
export { HealthDashboardPage } from './dashboard-page';
export { HealthLogPage } from './log-page';

import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/focus.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { toMantineTheme } from './shared/config/theme';
import { initI18n } from './shared/i18n/i18n';
import { App } from './app/app';
import { StartupError } from './app/startup-error';
import { applyTheme, loadConfiguration } from './app/start-up';
import { wireHttp } from './app/wiring';

const root = createRoot(document.getElementById('root')!);

/**
 * Start-up: translations and configuration load together (constants.json, build.json, then the portal
 * settings); the theme applies; then both faces start. When the management API cannot give its
 * configuration, the page says so.
 */
async function start() {
  const i18nReady = initI18n();
  let config;
  try {
    config = await loadConfiguration();
  } catch {
    await i18nReady;
    root.render(<StartupError />);
    return;
  }
  const [themeFile] = await Promise.all([applyTheme(config), i18nReady]);
  wireHttp(config);
  document.title = config.company.name;
  root.render(
    <StrictMode>
      <App config={config} theme={toMantineTheme(themeFile)} />
    </StrictMode>,
  );
}

void start();

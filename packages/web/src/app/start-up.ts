import { appUrl, mergeConfig } from '../shared/config/config';
import type { AppConfig } from '../shared/config/config';
import type { ThemeFile } from '../shared/config/theme';
import { http } from '../shared/http';

type Json = Record<string, unknown>;

/**
 * Start-up, portal-and-platform.md section 1: constants.json and build.json, then `GET {base}portal`,
 * merged into one configuration. Throws when the management API is unreachable or answers an error.
 */
export async function loadConfiguration(): Promise<AppConfig> {
  const [constants, build] = await Promise.all([
    http.get<Json>('constants.json', { target: 'app', silent: true }),
    http.get<Json>('build.json', { target: 'app', silent: true }).catch(() => ({}) as Json),
  ]);
  const baseURL = typeof constants.baseURL === 'string' ? constants.baseURL : '';
  http.configure({ baseURL: baseURL.endsWith('/') ? baseURL : `${baseURL}/` });
  const portal = await http.get<Json>('portal', { silent: true });
  if (!portal || typeof portal !== 'object') throw new Error('GET portal answered no configuration');
  return mergeConfig(constants, build, portal);
}

/**
 * The configured theme: its stylesheet and loader image are added to the page, and its theme file
 * (`themes/{name}-theme.json`) is loaded; without one the default look is kept.
 */
export async function applyTheme(config: AppConfig): Promise<ThemeFile | undefined> {
  const head = document.head;
  if (config.theme.css) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = appUrl(config.theme.css);
    link.dataset.theme = config.theme.name;
    head.appendChild(link);
  }
  if (config.theme.loader) {
    const preload = document.createElement('link');
    preload.rel = 'preload';
    preload.as = 'image';
    preload.href = appUrl(config.theme.loader);
    head.appendChild(preload);
  }
  try {
    return await http.get<ThemeFile>(`themes/${encodeURIComponent(config.theme.name)}-theme.json`, {
      target: 'app',
      silent: true,
    });
  } catch {
    return undefined; // no theme file for this name: Mantine's defaults apply
  }
}

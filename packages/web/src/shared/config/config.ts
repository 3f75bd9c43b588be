/**
 * The configuration of both faces: `constants.json` (where the management API is), `build.json`
 * (version, date) and `GET {baseURL}portal` (the portal settings), merged into one object at start-up.
 */
export interface Toggle {
  enabled: boolean;
}

export interface ThemeSettings {
  name: string;
  logo: string;
  loader: string;
  css: string;
}

export interface AppConfig {
  baseURL: string;
  build: { version: string; date?: string };
  company: { name: string };
  portal: {
    title?: string;
    entrypoint: string;
    apikeyHeader: string;
    devMode: Toggle;
    userCreation: Toggle;
    support: Toggle;
    rating: Toggle & { comment: { mandatory: boolean } };
    apis: {
      tilesMode: Toggle;
      viewMode: Toggle;
      apiHeaderShowTags: Toggle;
      apiHeaderShowViews: Toggle;
    };
    analytics: Toggle & { trackingId: string };
    uploadMedia: Toggle & { maxSizeInOctet: number };
  };
  management?: { title?: string };
  authentication: { forceLogin: Toggle; localLogin: Toggle };
  /** Refresh intervals in seconds. */
  scheduler: { tasks: number; notifications: number };
  documentation: { url: string };
  theme: ThemeSettings;
  /** `widgets`: the optional dashboard widgets to show (constants.json, from Portico's configuration). */
  analytics: { clientTimeout: number; widgets?: readonly string[] };
  application: { registration: Toggle };
  [group: string]: unknown;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Deep merge: objects merge key by key, anything else from the later source wins. */
export function deepMerge(...sources: Json[]): Json {
  const out: Json = {};
  for (const source of sources) {
    for (const [key, value] of Object.entries(source)) {
      const current = out[key];
      out[key] = isObject(current) && isObject(value) ? deepMerge(current, value) : value;
    }
  }
  return out;
}

/** Defaults for what the server may leave out (the server sends the whole tree; older ones may not). */
const DEFAULTS = {
  company: { name: 'Portico' },
  portal: {
    // The server always sends the gateway's real URL (PORTICO_GATEWAY_URL, or from the gateway's port).
    entrypoint: '',
    apikeyHeader: 'X-Api-Key',
    devMode: { enabled: false },
    userCreation: { enabled: false },
    support: { enabled: false },
    rating: { enabled: false, comment: { mandatory: false } },
    apis: {
      tilesMode: { enabled: true },
      viewMode: { enabled: false },
      apiHeaderShowTags: { enabled: false },
      apiHeaderShowViews: { enabled: false },
    },
    analytics: { enabled: false, trackingId: '' },
    uploadMedia: { enabled: false, maxSizeInOctet: 1_000_000 },
  },
  authentication: { forceLogin: { enabled: false }, localLogin: { enabled: true } },
  scheduler: { tasks: 10, notifications: 10 },
  documentation: { url: '/docs/' },
  theme: {
    name: 'default',
    logo: 'themes/assets/portico-logo.svg',
    loader: 'themes/assets/portico-loader.svg',
    css: 'themes/default.css',
  },
  analytics: { clientTimeout: 30_000 },
  application: { registration: { enabled: false } },
} satisfies Omit<AppConfig, 'baseURL' | 'build'>;

/** constants.json, then build.json (under `build`), then the portal settings: later ones win. */
export function mergeConfig(constants: Json, build: Json, portal: Json): AppConfig {
  const merged = deepMerge(DEFAULTS, constants, { build }, portal);
  const baseURL = typeof merged.baseURL === 'string' ? merged.baseURL : '';
  if (!baseURL) throw new Error('constants.json has no baseURL');
  return { ...merged, baseURL: baseURL.endsWith('/') ? baseURL : `${baseURL}/` } as AppConfig;
}

/** A path of the web app itself (theme files, translations, docs), whatever the current route. */
export function appUrl(path: string): string {
  if (/^(https?:)?\/\//.test(path) || path.startsWith('data:')) return path;
  const base = import.meta.env?.BASE_URL ?? '/';
  return `${base}${path.replace(/^\.?\//, '')}`;
}

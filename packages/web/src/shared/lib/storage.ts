/**
 * Browser local storage under the product's fixed prefix (`portico.`). Values are JSON. User interface
 * preferences (language, sidebar, contextual documentation, tiles mode) survive a logout; the session
 * data listed in SESSION_KEYS does not.
 */
export const STORAGE_PREFIX = 'portico.';

export const StorageKeys = {
  language: 'language',
  sidebarReduced: 'sidebar.reduced',
  contextualDocVisible: 'contextualDoc.visible',
  tilesMode: 'tilesMode',
  lastRoute: 'lastRoute',
  providerLogoutUrl: 'provider.logoutUrl',
  oauthState: 'oauth.state',
} as const;

export type StorageKey = (typeof StorageKeys)[keyof typeof StorageKeys];

/** What logout clears. */
export const SESSION_KEYS: readonly StorageKey[] = [
  StorageKeys.lastRoute,
  StorageKeys.providerLogoutUrl,
  StorageKeys.oauthState,
];

export const prefixed = (key: StorageKey) => `${STORAGE_PREFIX}${key}`;

function store(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // storage disabled by the browser: nothing is remembered
  }
}

export function readStored<T>(key: StorageKey, fallback: T): T {
  const raw = store()?.getItem(prefixed(key));
  if (raw === null || raw === undefined) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

export function writeStored(key: StorageKey, value: unknown): void {
  store()?.setItem(prefixed(key), JSON.stringify(value));
}

export function removeStored(key: StorageKey): void {
  store()?.removeItem(prefixed(key));
}

/** Logout: removes the session data, keeps the preferences. */
export function clearSessionData(): void {
  for (const key of SESSION_KEYS) removeStored(key);
}

/**
 * The browser (or client library) and operating system named by a User-Agent header: the optional
 * dashboard widgets user_agent_name and os_name group the requests by them. Worked out when a request
 * row is written (by the writer, off the gateway's request path), never on a dashboard query.
 */
export interface ClientNames {
  /** `Chrome`, `Firefox`, `curl`... or `Other`; null without a User-Agent. */
  userAgentName: string | null;
  /** `Windows`, `macOS`, `Android`... or `Other`; null without a User-Agent. */
  osName: string | null;
}

/** Checked in order: the first match names the client (Edge and Opera also say Chrome and Safari). */
const AGENTS: readonly (readonly [RegExp, string])[] = [
  [/bot\b|crawler|spider|slurp/i, 'Bot'],
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bMSIE |\bTrident\//, 'Internet Explorer'],
  [/^curl\//i, 'curl'],
  [/^Wget\//i, 'Wget'],
  [/^PostmanRuntime\//, 'Postman'],
  [/^insomnia\//i, 'Insomnia'],
  [/^python-requests\/|^python-urllib|^aiohttp\/|^python-httpx\//i, 'Python'],
  [/^Go-http-client\//, 'Go'],
  [/^okhttp\//i, 'OkHttp'],
  [/^Apache-HttpClient\/|^Java\//, 'Java'],
  [/^axios\//i, 'axios'],
  [/^node-fetch|^undici|^node\b/i, 'Node.js'],
  [/^autocannon/i, 'autocannon'],
  [/^k6\//i, 'k6'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\bWindows Phone\b/, 'Windows Phone'],
  [/\bWindows\b|\bWin(32|64)\b/, 'Windows'],
  [/\b(iPhone|iPad|iPod)\b|\biOS\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'Chrome OS'],
  [/\bMac OS X\b|\bMacintosh\b|\bDarwin\b/, 'macOS'],
  [/\bFreeBSD\b|\bOpenBSD\b|\bNetBSD\b/, 'BSD'],
  [/\bLinux\b|\bUbuntu\b|\bX11\b/, 'Linux'],
];

/** Longest User-Agent read: past it, nothing more names a client. */
const MAX_LENGTH = 512;
/** Distinct User-Agents remembered (a few clients send nearly every request). */
const CACHE_SIZE = 1000;
const cache = new Map<string, ClientNames>();
const NONE: ClientNames = Object.freeze({ userAgentName: null, osName: null });

const first = (rules: readonly (readonly [RegExp, string])[], text: string) =>
  rules.find(([pattern]) => pattern.test(text))?.[1] ?? 'Other';

export function clientNames(userAgent: string | null | undefined): ClientNames {
  if (!userAgent) return NONE;
  const known = cache.get(userAgent);
  if (known) return known;
  const text = userAgent.slice(0, MAX_LENGTH);
  const names: ClientNames = Object.freeze({
    userAgentName: first(AGENTS, text),
    osName: first(SYSTEMS, text),
  });
  // The oldest entry leaves when full: a Map iterates in insertion order.
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(userAgent, names);
  return names;
}

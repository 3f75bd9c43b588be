import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { definePolicy, respond } from '../policy.js';
import type { GatewayResponse, PolicyContext } from '../policy.js';
import { renderTemplate } from '../template.js';

export const CacheConfig = z.object({
  cacheName: z.string().default('').describe("Name of the cache; entries live in the gateway's memory"),
  key: z
    .string()
    .default('')
    .describe("Templated part of the cache key, after method, path and query: {#request.headers['accept']}"),
  timeToLiveSeconds: z.number().int().min(1).default(600),
  useResponseCacheHeaders: z
    .boolean()
    .default(false)
    .describe("Follows the backend's Cache-Control and Expires headers, up to timeToLiveSeconds"),
  scope: z
    .enum(['APPLICATION', 'API'])
    .default('APPLICATION')
    .describe('APPLICATION: entries per application; API: entries shared by every consumer'),
  methods: z
    .array(z.enum(['GET', 'HEAD', 'OPTIONS']))
    .min(1)
    .default(['GET', 'HEAD'])
    .describe('Methods whose successful responses are cached'),
});
export type CacheConfig = z.infer<typeof CacheConfig>;

interface CachedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  storedAt: number;
}

/** Bounds of the gateway's response cache, shared by every API and cache step. */
const MAX_ENTRIES = 10_000;
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;

const store = new LRUCache<string, CachedResponse>({
  max: MAX_ENTRIES,
  maxSize: MAX_BYTES,
  maxEntrySize: MAX_ENTRY_BYTES,
  sizeCalculation: (entry, key) =>
    entry.body.length +
    key.length +
    Object.entries(entry.headers).reduce((n, [k, v]) => n + k.length + v.length, 0),
});

/** Empties the response cache (tests, or a gateway that must forget everything). */
export function clearResponseCache(): void {
  store.clear();
}

/** Each configuration object (one per deployment of a step) gets its own entries. */
const configIds = new WeakMap<CacheConfig, number>();
let nextConfigId = 0;
function configId(config: CacheConfig): number {
  let id = configIds.get(config);
  if (id === undefined) {
    id = nextConfigId++;
    configIds.set(config, id);
  }
  return id;
}

/** The attribute holding this request's cache key, for the response stage of the same step. */
const pendingAttribute = (config: CacheConfig) => `cache:${configId(config)}`;

function cacheKey(ctx: PolicyContext, config: CacheConfig): string {
  const r = ctx.request;
  return JSON.stringify([
    ctx.apiId,
    configId(config),
    config.scope === 'APPLICATION' ? (ctx.consumer.applicationId ?? '') : '',
    r.method,
    r.pathInfo || '/',
    r.query.toString(),
    renderTemplate(config.key, ctx),
  ]);
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Seconds the backend allows the response to be cached; 0 when it must not be, undefined when it does not say. */
function backendTimeToLive(headers: GatewayResponse['headers'], now: number): number | undefined {
  const cacheControl = (first(headers['cache-control']) ?? '').toLowerCase();
  const directives = new Map(
    cacheControl
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = '', value = ''] = d.split('=', 2);
        return [name.trim(), value.trim().replace(/^"|"$/g, '')] as const;
      }),
  );
  if (directives.has('no-store') || directives.has('no-cache') || directives.has('private')) return 0;
  for (const name of ['s-maxage', 'max-age']) {
    const value = directives.get(name);
    if (value !== undefined && /^\d+$/.test(value)) return Number(value);
  }
  const expires = first(headers['expires']);
  if (expires !== undefined) {
    const at = Date.parse(expires);
    if (Number.isNaN(at)) return 0; // An invalid date means already expired.
    const date = Date.parse(first(headers['date']) ?? '');
    return Math.max(Math.floor((at - (Number.isNaN(date) ? now : date)) / 1000), 0);
  }
  return undefined;
}

function storedHeaders(headers: GatewayResponse['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'content-length' || name === 'x-cache') continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export const cache = definePolicy({
  id: 'cache',
  name: 'Cache',
  description:
    'Keeps successful GET and HEAD responses in the gateway memory for a time, and answers from it without calling the backend.',
  configSchema: CacheConfig,
  onRequest(ctx, config) {
    if (!config.methods.includes(ctx.request.method as never)) return;
    const key = cacheKey(ctx, config);
    const hit = store.get(key);
    if (hit) {
      const age = String(Math.max(Math.floor((ctx.now() - hit.storedAt) / 1000), 0));
      return respond(hit.status, { ...hit.headers, age, 'x-cache': 'HIT' }, hit.body);
    }
    ctx.attributes.set(pendingAttribute(config), key);
    ctx.responseHeaders['x-cache'] = 'MISS';
  },
  onResponseContent(ctx, config, response, body) {
    const key = ctx.attributes.get(pendingAttribute(config));
    if (typeof key !== 'string' || response.status < 200 || response.status >= 300) return body;
    // A response that sets a cookie belongs to one client only.
    if (response.headers['set-cookie'] !== undefined) return body;
    const fromBackend = config.useResponseCacheHeaders
      ? backendTimeToLive(response.headers, ctx.now())
      : undefined;
    const seconds = Math.min(fromBackend ?? config.timeToLiveSeconds, config.timeToLiveSeconds);
    if (seconds <= 0) return body;
    store.set(
      key,
      { status: response.status, headers: storedHeaders(response.headers), body, storedAt: ctx.now() },
      { ttl: seconds * 1000 },
    );
    return body;
  },
});

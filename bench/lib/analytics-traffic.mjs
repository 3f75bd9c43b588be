// The generated traffic of the analytics benchmark (bench/analytics.mjs): a day of requests with a
// realistic shape, and the small GeoIP database its client addresses are placed with.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeTestMmdb } from '../../packages/storage/dist/requests/test-mmdb.js';

const DAY = 86_400_000;

/** Deterministic pseudo-random numbers: every run loads the same day. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/**
 * Traffic with a realistic shape: 40 APIs with Zipf-like popularity, 300 applications each
 * subscribed to 1-4 APIs through one plan, 8% key-less calls, statuses and methods in production-like
 * proportions, log-normal response times.
 */
export function traffic(now, requests) {
  const next = random(7);
  const apis = Array.from({ length: 40 }, (_, i) => `api-${String(i).padStart(2, '0')}-${'0'.repeat(28)}`);
  const weights = apis.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative = [];
  weights.reduce((acc, w, i) => (cumulative[i] = acc + w / total), 0);
  const pickApi = () => {
    const r = next();
    const i = cumulative.findIndex((c) => r <= c);
    return apis[i < 0 ? apis.length - 1 : i];
  };
  const subscribers = new Map(apis.map((a) => [a, []]));
  for (let i = 0; i < 300; i++) {
    const app = `app-${String(i).padStart(3, '0')}-${'0'.repeat(27)}`;
    const count = 1 + Math.floor(next() * 4);
    for (let k = 0; k < count; k++) {
      const api = pickApi();
      subscribers.get(api).push({ app, plan: `plan-${api.slice(4, 6)}-${'0'.repeat(28)}` });
    }
  }
  // Mostly successes, as production traffic: 86% 200, 8% other 2xx/304, 5% 4xx, 1.5% 5xx.
  const statusOf = () => {
    const r = next();
    const table = [
      [0.86, 200],
      [0.9, 201],
      [0.92, 204],
      [0.94, 304],
      [0.955, 400],
      [0.965, 401],
      [0.98, 404],
      [0.985, 429],
      [0.995, 500],
      [1, 503],
    ];
    return table.find(([p]) => r < p)?.[1] ?? 503;
  };
  const methodOf = () => {
    const r = next();
    return r < 0.7 ? 'GET' : r < 0.9 ? 'POST' : r < 0.97 ? 'PUT' : 'DELETE';
  };
  const paths = ['/', '/items', '/items/:id', '/orders', '/orders/:id', '/search', '/health'];
  // Clients: a few user agents, and addresses in the bench's GeoIP networks (one in ten in none).
  const agentOf = () => USER_AGENTS[Math.floor(next() * USER_AGENTS.length)];
  const addressOf = () => {
    const n = Math.floor(next() * (GEO_NETWORKS.length + 1));
    return n === GEO_NETWORKS.length
      ? '10.0.0.1'
      : `${GEO_NETWORKS[n].prefix}.${1 + Math.floor(next() * 250)}`;
  };
  const start = now - DAY;
  return function* () {
    for (let i = 0; i < requests; i++) {
      const api = pickApi();
      const subs = subscribers.get(api);
      const sub = subs.length > 0 && next() > 0.08 ? subs[Math.floor(next() * subs.length)] : undefined;
      const status = statusOf();
      const backend = status === 401 || status === 429 ? -1 : Math.round(Math.exp(3 + next() * 2.5 * next()));
      const gatewayShare = 1 + Math.floor(next() * 4);
      const path = paths[Math.floor(next() * paths.length)];
      yield {
        id: `${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`,
        transaction_id: `${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000001`,
        timestamp: start + Math.floor((i / requests) * DAY),
        gateway: `gw-${i % 2}`,
        api_id: api,
        application_id: sub ? sub.app : null,
        plan_id: sub ? sub.plan : null,
        subscription_id: sub ? `${sub.app}-${api}` : null,
        api_key: null,
        user: null,
        tenant: null,
        method: methodOf(),
        path,
        uri: path,
        mapped_path: path,
        host: 'api.example.com',
        status,
        request_content_length: Math.floor(next() * 500),
        response_content_length: Math.floor(next() * 20_000),
        response_time: (backend < 0 ? 0 : backend) + gatewayShare,
        api_response_time: backend,
        latency: gatewayShare,
        endpoint: backend < 0 ? null : 'http://backend.internal/',
        remote_address: addressOf(),
        user_agent: agentOf(),
        security_type: sub ? 'API_KEY' : 'KEY_LESS',
        error_key: null,
        message: null,
        has_log: 0,
      };
    }
  };
}

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'curl/8.5.0',
  'python-requests/2.32.3',
  'okhttp/4.12.0',
  'Go-http-client/1.1',
];
/** The bench's GeoIP database: 20 /16 networks in 20 cities of 5 countries. */
const GEO_NETWORKS = Array.from({ length: 20 }, (_, i) => ({
  prefix: `${81 + i}.2`,
  country: ['FR', 'DE', 'BR', 'JP', 'US'][i % 5],
  city: `City ${i}`,
}));

export function writeGeoDatabase(dir) {
  const file = path.join(dir, 'bench-geo.mmdb');
  const networks = GEO_NETWORKS.map((n) => ({
    cidr: `${n.prefix}.0.0/16`,
    data: { country: { iso_code: n.country }, city: { geoname_id: 1, names: { en: n.city } } },
  }));
  writeFileSync(file, writeTestMmdb(networks));
  return file;
}

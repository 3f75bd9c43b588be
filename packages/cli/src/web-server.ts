import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * The built web app (`npm run build` writes packages/web/dist), or undefined when it is not built.
 * `PORTICO_WEB_DIST` points at another build (a developer's own `vite build --outDir`, so that
 * parallel builds do not replace the files under a running browser test).
 */
export function webDistDir(): string | undefined {
  const own = process.env.PORTICO_WEB_DIST;
  if (own) return existsSync(path.join(own, 'index.html')) ? path.resolve(own) : undefined;
  try {
    const pkg = createRequire(import.meta.url).resolve('@portico/web/package.json');
    const dist = path.join(path.dirname(pkg), 'dist');
    return existsSync(path.join(dist, 'index.html')) ? dist : undefined;
  } catch {
    return undefined;
  }
}

export interface WebServerOptions {
  dist: string;
  /** Port of the management API, for the `baseURL` of constants.json. */
  managementPort: number;
  /** Public URL of the management API when it is not on the same host as the web app. */
  managementUrl?: string | undefined;
  /** Public URL of the gateway: documentation pages' try-it calls go there (and to https: try-it URLs). */
  gatewayUrl?: string | undefined;
  /** The optional dashboard widgets to show (`analytics.widgets` of constants.json). */
  analyticsWidgets?: readonly string[] | undefined;
}

/**
 * Serves the web app: the built bundle, `constants.json` pointing the app at the management API, and
 * index.html for every other path (history routing; the app itself sends unknown routes to `/`).
 */
export async function buildWebServer(options: WebServerOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  const baseConstants = readJson(path.join(options.dist, 'constants.json'));
  const index = readFileSync(path.join(options.dist, 'index.html'));

  // The management API the app calls from this page: same host name as the page, so that the session
  // cookie is same-site. A Host header that is not a host name gives localhost (it reaches the headers).
  const managementBase = (request: FastifyRequest) => {
    const given = (request.headers.host ?? 'localhost').replace(/:\d+$/, '');
    const host = HOST_NAME.test(given) ? given : 'localhost';
    return options.managementUrl ?? `${request.protocol}://${host}:${options.managementPort}/management/`;
  };

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(securityHeaders(managementBase(request), options.gatewayUrl));
  });

  app.get('/constants.json', async (request, reply) => {
    return reply.header('Cache-Control', 'no-cache').send({
      ...baseConstants,
      baseURL: managementBase(request),
      ...(options.analyticsWidgets ? { analytics: { widgets: options.analyticsWidgets } } : {}),
    });
  });

  const sendIndex = (reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(index);
  app.get('/', async (_request, reply) => sendIndex(reply));

  await app.register(fastifyStatic, {
    root: options.dist,
    wildcard: true,
    index: false,
    setHeaders: (res, file) => {
      const immutable = file.includes(`${path.sep}assets${path.sep}`);
      res.raw.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0]!;
    // Routes of the app (tokens in them may contain dots) get index.html; missing assets get 404.
    if (request.method === 'GET' && !ASSET.test(pathname)) return sendIndex(reply);
    return reply.code(404).send({ message: `No file at ${pathname}`, http_status: 404 });
  });
  return app;
}

/**
 * The headers of every answer of the web server. The policy allows what the app does: its own scripts
 * (no inline script), its styles and the inline styles Mantine sets, calls to the management API, and
 * pictures from itself, the management API (avatars, API pictures), data: and blob: URLs (previews of a
 * picture before upload) and https: (pictures in documentation pages); it cannot be framed. With a
 * gateway, OpenAPI pages' try-it calls may go to it and to https: try-it URLs.
 */
export function securityHeaders(managementBase: string, gatewayUrl?: string): Record<string, string> {
  const management = originOf(managementBase);
  const gateway = gatewayUrl ? originOf(gatewayUrl) : undefined;
  const withManagement = (sources: string) => (management ? `${sources} ${management}` : sources);
  const tryIt = gateway ? ` ${gateway} https:` : '';
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    withManagement("img-src 'self' data: blob: https:"),
    "font-src 'self' data:",
    withManagement("connect-src 'self'") + tryIt,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': policy,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

const HOST_NAME = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])$/;

/** Paths that name a file of the bundle rather than a route of the app. */
const ASSET = /\.(js|mjs|css|json|map|svg|png|jpe?g|gif|webp|ico|woff2?|ttf|md|txt|html)$/i;

function readJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

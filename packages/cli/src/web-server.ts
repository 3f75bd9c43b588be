import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';

/** The built web app (`npm run build` writes packages/web/dist), or undefined when it is not built. */
export function webDistDir(): string | undefined {
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
}

/**
 * Serves the web app: the built bundle, `constants.json` pointing the app at the management API, and
 * index.html for every other path (history routing; the app itself sends unknown routes to `/`).
 */
export async function buildWebServer(options: WebServerOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  const baseConstants = readJson(path.join(options.dist, 'constants.json'));
  const index = readFileSync(path.join(options.dist, 'index.html'));

  app.get('/constants.json', async (request, reply) => {
    // Same host name as the page, so that the session cookie is same-site.
    const host = (request.headers.host ?? 'localhost').replace(/:\d+$/, '');
    const baseURL =
      options.managementUrl ?? `${request.protocol}://${host}:${options.managementPort}/management/`;
    return reply.header('Cache-Control', 'no-cache').send({ ...baseConstants, baseURL });
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

/** Paths that name a file of the bundle rather than a route of the app. */
const ASSET = /\.(js|mjs|css|json|map|svg|png|jpe?g|gif|webp|ico|woff2?|ttf|md|txt|html)$/i;

function readJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Backend {
  url: string;
  hits: number;
  close(): Promise<void>;
}

export interface BackendOptions {
  name?: string;
  status?: number;
  delayMs?: number;
  /** Extra response headers, chosen per request (`url` is the backend's own base URL). */
  headers?: (req: http.IncomingMessage, url: string) => Record<string, string>;
}

/**
 * A real HTTP backend for tests: answers JSON describing what it received (method, url, headers,
 * body), after `delayMs`, with `status` and `headers`; `name` tells which backend answered.
 */
export async function startBackend(options: BackendOptions = {}): Promise<Backend> {
  const backend: Backend = { url: '', hits: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    backend.hits += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.stringify({
        backend: options.name ?? 'backend',
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(options.status ?? 200, {
          'content-type': 'application/json',
          'x-backend': options.name ?? 'backend',
          ...options.headers?.(req, backend.url),
        });
        res.end(body);
      };
      if (options.delayMs) setTimeout(send, options.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  backend.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  backend.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return backend;
}

/** A port where nothing listens (connections are refused). */
export async function deadUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

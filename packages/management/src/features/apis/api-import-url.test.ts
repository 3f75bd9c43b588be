import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { createOutboundPolicy } from '@portico/outbound';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import { call, login, memoryLog, startTestApp } from '../../test-support/index.js';
import { DEFAULT_IMPORT_LIMITS, fetchDocument } from './api-import.source.js';
import { IMPORT_FETCH_FAILED, IMPORT_TOO_LARGE, IMPORT_URL_SCHEME } from './apis.errors.js';
import { countRows } from './test-support/index.js';

/** Import from a URL through the outbound-URL guard, and the size limit of every import. */

const swagger2 = (basePath: string) => ({
  swagger: '2.0',
  info: { title: 'Pet Store', version: '2.1.0' },
  host: 'pets.example.com',
  basePath,
  paths: { '/pets': { get: { responses: { '200': { description: 'the pets' } } } } },
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void, host = '127.0.0.1') {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, hits, url: `http://${host}:${(server.address() as AddressInfo).port}` };
}

async function stop(server: Server) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

const refused = { http_status: 400, message: IMPORT_FETCH_FAILED, field: 'payload' };
const tooLarge = {
  http_status: 413,
  message: IMPORT_TOO_LARGE(DEFAULT_IMPORT_LIMITS.maxBytes),
  field: 'payload',
};

for (const dialect of await testDialects()) {
  describe(`${dialect}: import from a URL`, () => {
    /** Default configuration: public addresses only. */
    let strict: TestApp;
    let strictAdmin: TestSession;
    /** `allowed: [127.0.0.1]`, as an installation that lists its documentation server. */
    let open: TestApp;
    let openAdmin: TestSession;
    let docs: Awaited<ReturnType<typeof listen>>;
    /** On 127.0.0.2: loopback, not in the allowed list. */
    let inner: Awaited<ReturnType<typeof listen>>;
    const log = memoryLog();

    beforeAll(async () => {
      inner = await listen(
        (_req, res) => res.end(JSON.stringify(swagger2(`/inner-${dialect}`))),
        '127.0.0.2',
      );
      docs = await listen((req, res) => {
        if (req.url === '/spec.yaml') return res.end(toYaml(swagger2(`/fromurl-${dialect}`)));
        if (req.url === '/to-inner') return res.writeHead(302, { location: `${inner.url}/spec.json` }).end();
        if (req.url === '/huge') {
          return res.end(
            JSON.stringify({ ...swagger2('/huge'), x: 'x'.repeat(DEFAULT_IMPORT_LIMITS.maxBytes) }),
          );
        }
        res.writeHead(404).end('missing');
      });
      strict = await startTestApp(dialect);
      open = await startTestApp(dialect, {
        options: { outbound: { allowPrivate: false, allowed: ['127.0.0.1'] } },
        logger: { level: 'warn', stream: log.stream },
      });
      strictAdmin = await login(strict.app, 'admin', 'admin');
      openAdmin = await login(open.app, 'admin', 'admin');
    });
    afterAll(async () => {
      await Promise.all([strict?.close(), open?.close()]);
      if (docs) await stop(docs.server);
      if (inner) await stop(inner.server);
    });

    const importUrl = (t: TestApp, session: TestSession, payload: string) =>
      call(t.app, session, {
        method: 'POST',
        url: '/apis/import/swagger',
        payload: { type: 'URL', payload },
      });

    it('reads the file from an http URL the configuration allows', async () => {
      const res = await importUrl(open, openAdmin, `${docs.url}/spec.yaml`);

      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().context_path).toBe(`/fromurl-${dialect}`);
    });

    it('refuses by default a loopback address, by address and by the name localhost, without calling it', async () => {
      const before = docs.hits.length;
      const port = new URL(docs.url).port;

      const byAddress = await importUrl(strict, strictAdmin, `${docs.url}/spec.yaml`);
      const byName = await importUrl(strict, strictAdmin, `http://localhost:${port}/spec.yaml`);
      const metadata = await importUrl(strict, strictAdmin, 'http://169.254.169.254/latest/meta-data/');

      for (const res of [byAddress, byName, metadata]) expect(res.json()).toEqual(refused);
      expect(docs.hits.length).toBe(before);
      expect(await countRows(strict.db, 'apis')).toBe(0);
    });

    it('answers the same for an open port, a closed port and a missing file', async () => {
      const closed = await listen(() => {});
      await stop(closed.server);

      const answers = [
        await importUrl(strict, strictAdmin, `${docs.url}/spec.yaml`),
        await importUrl(strict, strictAdmin, `${closed.url}/spec.yaml`),
        await importUrl(open, openAdmin, `http://127.0.0.1:${new URL(closed.url).port}/spec.yaml`),
        await importUrl(open, openAdmin, `${docs.url}/nope`),
      ];

      for (const res of answers) {
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(refused);
      }
    });

    it('refuses a redirect from an allowed server to a private one, and logs why', async () => {
      const res = await importUrl(open, openAdmin, `${docs.url}/to-inner`);

      expect(res.json()).toEqual(refused);
      expect(inner.hits).toEqual([]);
      expect(log.text()).toContain('127.0.0.2');
      expect(log.text()).toContain('loopback');
    });

    it('refuses other schemes, and stores nothing', async () => {
      const before = await countRows(open.db, 'apis');

      const file = await importUrl(open, openAdmin, 'file:///etc/passwd');
      const gopher = await importUrl(open, openAdmin, 'gopher://127.0.0.1:6379/_INFO');

      expect(file.json()).toEqual({ http_status: 400, message: IMPORT_URL_SCHEME, field: 'payload' });
      expect(gopher.json()).toEqual({ http_status: 400, message: IMPORT_URL_SCHEME, field: 'payload' });
      expect(await countRows(open.db, 'apis')).toBe(before);
    });

    it('gives up on a silent server after the time limit, with the same message', async () => {
      const silent = await listen(() => {});
      try {
        await expect(
          fetchDocument(
            `${silent.url}/`,
            { fetchTimeoutMs: 200, maxBytes: 1024 },
            createOutboundPolicy({ allowPrivate: true }),
          ),
        ).rejects.toThrow(IMPORT_FETCH_FAILED);
      } finally {
        await stop(silent.server);
      }
    });

    describe('size limit', () => {
      it('refuses a file past the limit read from a URL, naming the limit', async () => {
        const res = await importUrl(open, openAdmin, `${docs.url}/huge`);

        expect(res.statusCode).toBe(413);
        expect(res.json()).toEqual(tooLarge);
      });

      it('refuses a file past the limit sent in the request, as text or as a definition, naming the limit', async () => {
        const text = JSON.stringify({ ...swagger2('/big'), x: 'x'.repeat(DEFAULT_IMPORT_LIMITS.maxBytes) });
        const before = await countRows(open.db, 'apis');

        const inline = await call(open.app, openAdmin, {
          method: 'POST',
          url: '/apis/import/swagger',
          payload: { type: 'INLINE', payload: text },
        });
        const definition = await call(open.app, openAdmin, {
          method: 'POST',
          url: '/apis/import',
          payload: JSON.parse(text) as Record<string, unknown>,
        });

        expect(inline.statusCode).toBe(413);
        expect(inline.json()).toEqual(tooLarge);
        expect(definition.statusCode).toBe(413);
        expect(definition.json()).toEqual(tooLarge);
        expect(await countRows(open.db, 'apis')).toBe(before);
      });
    });
  });
}

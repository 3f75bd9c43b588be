import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@portico/storage/testing';
import type { TestApp, TestSession } from '../../test-support/index.js';
import { call, login, startTestApp } from '../../test-support/index.js';
import { MAX_MOCKS_BYTES, SWAGGER_MOCKS_TOO_LARGE, readSwagger } from './apis.swagger.js';
import { MAX_EXPANDED_NODES, SWAGGER_TOO_EXPANDED } from './apis.swagger-refs.js';
import { SAMPLE_LIMITS, sampleOf } from './apis.swagger-sample.js';

/** Resource bombs of OpenAPI imports: recursive and fanning-out schemas, huge examples. */

const MOCKS = { withPathMapping: true, withPolicyPaths: true, withPolicyMocks: true };

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const eight = (target: string) =>
  Object.fromEntries([0, 1, 2, 3, 4, 5, 6, 7].map((i) => [`p${i}`, ref(target)]));

const openapi = (schemas: Json, response = 'Node', extraPaths: Json = {}) => ({
  openapi: '3.0.3',
  info: { title: 'Bomb', version: '1' },
  paths: {
    '/nodes': {
      get: {
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: ref(response) } } },
        },
      },
    },
    ...extraPaths,
  },
  components: { schemas },
});

/** A tree that refers to itself, and two schemas that refer to each other eight times over: 2 KB. */
const recursive = () =>
  openapi({
    Node: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        children: { type: 'array', items: ref('Node') },
        parent: ref('Node'),
        ping: ref('Ping'),
      },
    },
    Ping: { type: 'object', properties: eight('Pong') },
    Pong: { type: 'object', properties: eight('Ping') },
  });

/** Seven levels of schemas, each with eight properties of the next: 8^7 leaves from 3 KB. */
const fanOut = () => {
  const schemas: Json = { S7: { type: 'string' } };
  for (let i = 0; i < 7; i++) schemas[`S${i}`] = { type: 'object', properties: eight(`S${i + 1}`) };
  return openapi(schemas, 'S0');
};

/** The mock bodies of the policy paths, in order. */
const mockContents = (paths: Record<string, Json[]>): string[] =>
  Object.values(paths).flatMap((steps) => steps.map((s) => (s.mock as { content?: string })?.content ?? ''));

describe('OpenAPI mocks: bounded samples', () => {
  it('stops a reference cycle where it closes instead of expanding it', async () => {
    const api = await readSwagger(recursive(), MOCKS);
    const body = JSON.parse(mockContents(api.paths)[0]!);

    expect(body.name).toBe('string');
    expect(body.children).toEqual([null]);
    expect(body.parent).toBeNull();
    expect(body.ping.p0.p0).toBeNull();
  });

  it('imports a small recursive document quickly, its mock bodies small', async () => {
    const started = Date.now();
    const api = await readSwagger(recursive(), MOCKS);

    expect(Date.now() - started).toBeLessThan(5000);
    expect(JSON.stringify(api.paths).length).toBeLessThan(16 * 1024);
  });

  it('bounds the depth, the array length and the size of a sample', () => {
    let deep: Json = { type: 'string' };
    for (let i = 0; i < 30; i++) deep = { type: 'object', properties: { next: deep } };
    const wide = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 5000 }, (_, i) => [`field${i}`, { type: 'string' }]),
      ),
    };
    const list = { type: 'array', minItems: 50, items: { type: 'integer' } };

    let levels = 0;
    for (
      let node = sampleOf(deep) as Json | null;
      node && typeof node === 'object';
      node = node.next as Json
    ) {
      levels++;
    }
    const sample = JSON.stringify(sampleOf(wide));

    expect(levels).toBe(SAMPLE_LIMITS.maxDepth + 1);
    expect(sampleOf(list)).toEqual([0]);
    expect(sample.length).toBeLessThanOrEqual(SAMPLE_LIMITS.maxBytes);
    expect(sample.length).toBeGreaterThan(SAMPLE_LIMITS.maxBytes / 2);
  });

  it('refuses, naming the limit, a document whose references fan out to millions of nodes', async () => {
    const started = Date.now();

    await expect(readSwagger(fanOut(), MOCKS)).rejects.toThrow(SWAGGER_TOO_EXPANDED(MAX_EXPANDED_NODES));
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses, naming the limit, a document whose mocks together pass the limit', async () => {
    const paths = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `/big${i}`,
        {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { example: { text: `${i}`.padEnd(60_000, 'x') } } },
              },
            },
          },
        },
      ]),
    );
    const doc = openapi({ Node: { type: 'string' } }, 'Node', paths);

    await expect(readSwagger(doc, MOCKS)).rejects.toThrow(SWAGGER_MOCKS_TOO_LARGE(MAX_MOCKS_BYTES));
    await expect(readSwagger(doc, { ...MOCKS, withPolicyMocks: false })).resolves.toBeDefined();
  });
});

for (const dialect of await testDialects()) {
  describe(`${dialect}: POST apis/import/swagger with mocks of a hostile document`, () => {
    let t: TestApp;
    let admin: TestSession;

    beforeAll(async () => {
      t = await startTestApp(dialect);
      admin = await login(t.app, 'admin', 'admin');
    });
    afterAll(async () => {
      await t?.close();
    });

    const importDoc = (doc: Json, contextPath: string) =>
      call(t.app, admin, {
        method: 'POST',
        url: '/apis/import/swagger',
        payload: {
          payload: JSON.stringify({ ...doc, servers: [{ url: contextPath }] }),
          with_policy_paths: true,
          with_policy_mocks: true,
        },
      });

    it('imports a small recursive document quickly and stores small mock bodies', async () => {
      const started = Date.now();
      const res = await importDoc(recursive(), `/recursive-${dialect}`);

      expect(res.statusCode, res.body).toBe(201);
      expect(Date.now() - started).toBeLessThan(5000);
      const contents = mockContents(res.json().paths);
      expect(contents).toHaveLength(1);
      expect(JSON.parse(contents[0]!).children).toEqual([null]);
      expect(JSON.stringify(res.json().paths).length).toBeLessThan(16 * 1024);
    });

    it('refuses a fanning-out document with a 400 naming the limit', async () => {
      const res = await importDoc(fanOut(), `/fanout-${dialect}`);

      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(SWAGGER_TOO_EXPANDED(MAX_EXPANDED_NODES));
    });
  });
}

import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp, TestSession } from '../../test-support/index.js';
import { call } from '../../test-support/index.js';

/** A small valid OpenAPI 3 document. */
export const OPENAPI = JSON.stringify({
  openapi: '3.0.0',
  info: { title: 'Echo', version: '1.0' },
  paths: { '/echo': { get: { responses: { '200': { description: 'ok' } } } } },
});

/** `POST {base}` as the session; fails the test unless it answers 201. */
export async function createPage(
  t: TestApp,
  session: TestSession,
  base: string,
  page: Record<string, unknown>,
): Promise<Record<string, unknown> & { id: string }> {
  const res = await call(t.app, session, { method: 'POST', url: base, payload: page });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export const names = (res: LightMyRequestResponse) => res.json<{ name: string }[]>().map((p) => p.name);

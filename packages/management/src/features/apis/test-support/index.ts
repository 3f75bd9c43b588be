import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Executor } from '@portico/storage';
import { insertPage } from '@portico/storage';
import type { SignedInUser, TestApp, TestSession } from '../../../test-support/index.js';
import { call, login, signInNewUser } from '../../../test-support/index.js';

/** Helpers of the API feature's tests: creating APIs through the HTTP calls, and reading answers. */

export interface ApiUsers {
  admin: TestSession;
  /** Holds management-api-c (API_PUBLISHER): creates APIs and so owns them. */
  publisher: SignedInUser;
  /** Default roles only: no API permission anywhere. */
  outsider: SignedInUser;
}

export async function apiUsers(t: TestApp): Promise<ApiUsers> {
  return {
    admin: await login(t.app, 'admin', 'admin'),
    publisher: await signInNewUser(t.app, t.db, { management: 'API_PUBLISHER' }, { firstname: 'Pat' }),
    outsider: await signInNewUser(t.app, t.db, {}, { firstname: 'Olga' }),
  };
}

let counter = 0;
/** A context path no other test of the file uses. */
export const uniquePath = (prefix = 'api') => `/${prefix}-${Date.now().toString(36)}-${counter++}`;

export interface NewApiFields {
  name?: string;
  version?: string;
  description?: string;
  context_path?: string;
  endpoint?: string;
}

/** `POST apis` as the session; fails the test unless it answers 201. */
export async function createApiAs(
  t: TestApp,
  session: TestSession,
  fields: NewApiFields = {},
): Promise<{ id: string; etag: string; body: Record<string, unknown> }> {
  const res = await call(t.app, session, {
    method: 'POST',
    url: '/apis',
    payload: {
      name: 'Echo',
      version: '1.0',
      description: 'Says it back',
      context_path: uniquePath(),
      endpoint: 'https://backend.example.com/echo',
      ...fields,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json<Record<string, unknown>>();
  return { id: body.id as string, etag: String(res.headers.etag), body };
}

/** `GET apis/{id}` with its entity tag. */
export async function getApi(t: TestApp, session: TestSession | undefined, id: string) {
  const res = await call(t.app, session, { method: 'GET', url: `/apis/${id}` });
  return { res, etag: String(res.headers.etag), body: res.json<Record<string, unknown>>() };
}

export const json = <T = Record<string, unknown>>(res: LightMyRequestResponse): T => res.json<T>();

/** How many rows a table holds (to check that a refused call stored nothing). */
export async function countRows(
  db: Executor,
  table: 'apis' | 'memberships' | 'metadata' | 'events' | 'pages' | 'plans' | 'audits',
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Stores a page of an API (the pages feature writes them through its own calls). */
export async function insertApiPage(
  db: Executor,
  apiId: string,
  page: { name: string; type: string; content?: string; published?: boolean },
): Promise<string> {
  const id = randomUUID();
  await insertPage(db, {
    id,
    reference_type: 'API',
    reference_id: apiId,
    name: page.name,
    type: page.type,
    content: page.content ?? null,
    last_contributor: null,
    order: 0,
    published: page.published ? 1 : 0,
    homepage: 0,
    parent_id: null,
    source: null,
    configuration: '{}',
    excluded_groups: '[]',
    metadata: '{}',
    created_at: 1,
    updated_at: 1,
  });
  return id;
}

import type { LightMyRequestResponse } from 'fastify';
import type { Dialect } from '@portico/storage';
import type { TestApp, TestSession } from '../../../test-support/index.js';
import { call, startTestApp } from '../../../test-support/index.js';
import type { ApiUsers } from './index.js';
import { apiUsers } from './index.js';
import { useStartedApp } from './suite.js';

/** Shared setup and files of the `API import and export` tests (api-import*.test.ts). */

export const swagger2 = (basePath = '/petstore/v2') => ({
  swagger: '2.0',
  info: { title: 'Pet Store', version: '2.1.0', description: 'Pets for sale' },
  host: 'pets.example.com',
  basePath,
  schemes: ['https'],
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        responses: {
          '200': {
            description: 'the pets',
            schema: { type: 'array', items: { $ref: '#/definitions/Pet' } },
          },
        },
      },
      post: { responses: { '201': { description: 'created', examples: { 'application/json': { id: 7 } } } } },
    },
    '/pets/{petId}': {
      get: {
        parameters: [{ name: 'petId', in: 'path', required: true, type: 'string' }],
        responses: { '200': { description: 'a pet', schema: { $ref: '#/definitions/Pet' } } },
      },
    },
  },
  definitions: {
    Pet: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        name: { type: 'string', example: 'Rex' },
        born: { type: 'string', format: 'date' },
      },
    },
  },
});

export const openapi3 = (
  servers: unknown[] = [
    { url: 'https://{region}.books.example.com/api/v3', variables: { region: { default: 'eu' } } },
  ],
) => ({
  openapi: '3.0.3',
  info: { title: 'Book Shelf', version: '3.0' },
  servers,
  paths: {
    '/books/{isbn}': {
      get: {
        parameters: [{ name: 'isbn', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'a book',
            content: { 'application/json': { example: { isbn: '978-0', title: 'Dune' } } },
          },
        },
      },
    },
  },
});

export interface ImportApp {
  t: TestApp;
  u: ApiUsers;
  /** `POST url` with the payload as the session. */
  importAs: (
    session: TestSession | undefined,
    url: string,
    payload: unknown,
  ) => Promise<LightMyRequestResponse>;
}

/** Starts the app with its API users before the tests of the suite and closes it after them. */
export const useImportApp = (dialect: Dialect, set: (app: ImportApp) => void): void =>
  useStartedApp(async () => {
    const t = await startTestApp(dialect);
    const importAs = (session: TestSession | undefined, url: string, payload: unknown) =>
      call(t.app, session, { method: 'POST', url, payload: payload as Record<string, unknown> });
    return { t, u: await apiUsers(t), importAs };
  }, set);

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DictionaryInput, parsePermission } from '@portico/model';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import { toDictionaryJson, toDictionaryListItem } from './dictionaries.mapper.js';
import type { DictionaryService } from './dictionaries.service.js';

const Params = z.object({ dictionary: z.string().min(1) });
const Action = z.object({
  action: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(['START', 'STOP'])),
});
const BASE = '/configuration/dictionaries';
const TAGS = ['Dictionaries'];
/** Who may see a dynamic dictionary's provider and trigger (its URL may hold a secret). */
const EDIT_RIGHTS = ['c', 'u', 'd'].map((r) => parsePermission(`management-dictionary-${r}`));

export interface DictionaryRouteDeps {
  guards: PermissionGuards;
  permissions: PermissionService;
  dictionaries: DictionaryService;
}

/** configuration/dictionaries (console-applications-and-settings.md 7). */
export function dictionariesRoutes(app: FastifyInstance, deps: DictionaryRouteDeps): void {
  const { guards, dictionaries } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    BASE,
    {
      schema: { tags: TAGS, summary: 'Every dictionary' },
      preHandler: guards.require('management-dictionary-r'),
    },
    async () => (await dictionaries.list()).map(toDictionaryListItem),
  );

  r.post(
    BASE,
    {
      schema: { tags: TAGS, summary: 'Creates a dictionary (stopped, not deployed)', body: DictionaryInput },
      preHandler: guards.require('management-dictionary-c'),
    },
    async (request, reply) => {
      const row = await dictionaries.create(currentUser(request), request.body);
      return reply.code(201).header('Location', `${BASE}/${row.id}`).send(toDictionaryJson(row));
    },
  );

  r.get(
    `${BASE}/:dictionary`,
    {
      schema: { tags: TAGS, summary: 'One dictionary', params: Params },
      preHandler: guards.require('management-dictionary-r'),
    },
    async (request) => {
      const row = await dictionaries.get(request.params.dictionary);
      const user = currentUser(request);
      let editor = false;
      for (const right of EDIT_RIGHTS) if (!editor) editor = await deps.permissions.has(user.id, right);
      return toDictionaryJson(row, editor);
    },
  );

  r.put(
    `${BASE}/:dictionary`,
    {
      schema: {
        tags: TAGS,
        summary: 'Updates a dictionary (its type stays)',
        params: Params,
        body: DictionaryInput,
      },
      preHandler: guards.require('management-dictionary-u'),
    },
    async (request) =>
      toDictionaryJson(
        await dictionaries.update(currentUser(request), request.params.dictionary, request.body),
      ),
  );

  r.delete(
    `${BASE}/:dictionary`,
    {
      schema: { tags: TAGS, summary: 'Deletes a dictionary (undeployed first)', params: Params },
      preHandler: guards.require('management-dictionary-d'),
    },
    async (request, reply) => {
      await dictionaries.delete(currentUser(request), request.params.dictionary);
      return reply.code(204).send();
    },
  );

  r.post(
    `${BASE}/:dictionary/_deploy`,
    {
      schema: { tags: TAGS, summary: 'Deploys a manual dictionary to the gateways', params: Params },
      preHandler: guards.require('management-dictionary-u'),
    },
    async (request) =>
      toDictionaryJson(await dictionaries.deploy(currentUser(request), request.params.dictionary)),
  );

  r.post(
    `${BASE}/:dictionary/_undeploy`,
    {
      schema: { tags: TAGS, summary: 'Undeploys a manual dictionary from the gateways', params: Params },
      preHandler: guards.require('management-dictionary-u'),
    },
    async (request) =>
      toDictionaryJson(await dictionaries.undeploy(currentUser(request), request.params.dictionary)),
  );

  r.post(
    `${BASE}/:dictionary`,
    {
      schema: {
        tags: TAGS,
        summary: 'Starts or stops polling the provider of a dynamic dictionary',
        params: Params,
        querystring: Action,
      },
      preHandler: guards.require('management-dictionary-u'),
    },
    async (request) =>
      toDictionaryJson(
        await dictionaries.changeState(currentUser(request), request.params.dictionary, request.query.action),
      ),
  );
}

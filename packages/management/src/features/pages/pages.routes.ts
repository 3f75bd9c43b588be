import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser, requireUser } from '../../http/auth.js';
import { fetcherList } from './fetchers/fetchers.catalog.js';
import type { PageScope } from './pages.access.js';
import { PORTAL_REFERENCE } from './pages.access.js';
import type { PagesFetchService } from './pages-fetch.service.js';
import {
  ImportPagesBody,
  NewPageBody,
  PAGE_BODY_LIMIT,
  PageListQuery,
  PatchPageBody,
  UpdatePageBody,
} from './pages.schemas.js';
import type { PagesService } from './pages.service.js';

export interface PageRoutesScope {
  service: PagesService;
  fetch: PagesFetchService;
}

const ApiParams = z.object({ api: z.string().min(1).max(64) });
const PortalParams = z.object({});
const PageId = z.object({ page: z.string().min(1).max(64) });

/**
 * `apis/{api}/pages` (api-documentation-c/u/d) and `portal/pages` (portal-documentation-c/u/d): the
 * same calls on one service each. Reads need no session: anonymous readers get the published pages
 * without excluded groups (of public APIs).
 */
function pageRoutes(
  app: FastifyInstance,
  guards: PermissionGuards,
  scope: PageScope,
  { service, fetch }: PageRoutesScope,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const api = scope.referenceType === 'API';
  const base = api ? '/apis/:api/pages' : '/portal/pages';
  const tags = [api ? 'API documentation' : 'Portal documentation'];
  const Params = api ? ApiParams : PortalParams;
  const OneParams = Params.extend(PageId.shape);
  const ref = (request: FastifyRequest) => (api ? (request.params as { api: string }).api : PORTAL_REFERENCE);
  const permission = (right: 'c' | 'u' | 'd') =>
    guards.require(`${scope.permissionPrefix}-documentation-${right}`);
  const page = (request: FastifyRequest) => (request.params as { page: string }).page;

  r.get(
    base,
    {
      schema: {
        tags,
        summary: 'The pages the reader sees (filters: parent, root, homepage, published, type, name)',
        params: Params,
        querystring: PageListQuery,
      },
    },
    async (request) => service.list(ref(request), request.user, request.query),
  );
  r.get(
    `${base}/:page`,
    {
      schema: {
        tags,
        summary: 'One page (403 when unpublished or excluded for the reader)',
        params: OneParams,
        querystring: z.object({ portal: z.string().optional() }),
      },
    },
    async (request) => service.get(ref(request), page(request), request.user),
  );
  r.get(
    `${base}/:page/content`,
    { schema: { tags, summary: 'The content of a page as stored (Swagger content)', params: OneParams } },
    async (request, reply) => {
      const json = await service.get(ref(request), page(request), request.user);
      return reply
        .header(
          'Content-Type',
          `${json.contentType === 'application/json' ? 'application/json' : 'text/plain'}; charset=utf-8`,
        )
        .header('X-Content-Type-Options', 'nosniff')
        .send(json.content ?? '');
    },
  );
  r.post(
    base,
    {
      bodyLimit: PAGE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Create a page (a source is fetched at once)',
        params: Params,
        body: NewPageBody,
      },
      preHandler: permission('c'),
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(ref(request), currentUser(request), request.body)),
  );
  r.put(
    `${base}/:page`,
    {
      bodyLimit: PAGE_BODY_LIMIT,
      schema: { tags, summary: 'Replace a page (not its type)', params: OneParams, body: UpdatePageBody },
      preHandler: permission('u'),
    },
    async (request) => service.update(ref(request), page(request), currentUser(request), request.body, true),
  );
  r.patch(
    `${base}/:page`,
    {
      bodyLimit: PAGE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Rename, move (parentId), publish or reorder a page (order updates its siblings)',
        params: OneParams,
        body: PatchPageBody,
      },
      preHandler: permission('u'),
    },
    async (request) => service.update(ref(request), page(request), currentUser(request), request.body, false),
  );
  r.delete(
    `${base}/:page`,
    {
      schema: { tags, summary: 'Remove a page (the pages of a folder move to the root)', params: OneParams },
      preHandler: permission('d'),
    },
    async (request, reply) => {
      await service.remove(ref(request), page(request), currentUser(request));
      return reply.code(204).send();
    },
  );
  r.post(
    `${base}/_fetch`,
    {
      schema: { tags, summary: 'Fetch every page that has an external source', params: Params },
      preHandler: permission('u'),
    },
    async (request, reply) => {
      await fetch.fetchAll(ref(request), currentUser(request));
      return reply.code(204).send();
    },
  );
  r.post(
    `${base}/_import`,
    {
      schema: {
        tags,
        summary:
          'Import the Markdown and OpenAPI files of a repository folder as pages, its sub-folders as folders (type ROOT: kept on the ROOT page)',
        params: Params,
        body: ImportPagesBody,
      },
      preHandler: permission('c'),
    },
    async (request, reply) =>
      reply.code(201).send(await fetch.import(ref(request), currentUser(request), request.body)),
  );
  r.post(
    `${base}/:page/_fetch`,
    {
      schema: { tags, summary: 'Fetch the page from its external source', params: OneParams },
      preHandler: permission('u'),
    },
    async (request) => fetch.fetchOne(ref(request), page(request), currentUser(request)),
  );
}

export function pagesRoutes(
  app: FastifyInstance,
  guards: PermissionGuards,
  scopes: { api: PageRoutesScope; portal: PageRoutesScope },
): void {
  pageRoutes(app, guards, scopes.api.service.scope, scopes.api);
  pageRoutes(app, guards, scopes.portal.service.scope, scopes.portal);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/fetchers',
    {
      schema: {
        tags: ['API documentation'],
        summary: 'The documentation fetchers, with their configuration schema when expand=schema',
        querystring: z.object({
          expand: z.string().optional(),
          import: z.enum(['true', 'false']).optional(),
        }),
      },
      preHandler: requireUser,
    },
    async (request) =>
      fetcherList(
        request.query.expand?.split(',').includes('schema') ?? false,
        request.query.import === 'true',
      ),
  );
}

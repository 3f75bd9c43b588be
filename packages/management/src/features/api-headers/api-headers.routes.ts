import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden, parsePermission, unauthenticated } from '@portico/model';
import type { ApiHeaderRow } from '@portico/storage';
import { isPubliclyVisible } from '@portico/storage';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import type { ApiService } from '../apis/apis.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { ApiHeadersService } from './api-headers.service.js';
import { displayName } from '../users/users.mapper.js';

const HeaderBody = z.object({
  name: z
    .string({ error: (i) => (i.input === undefined ? 'Name is required.' : undefined) })
    .trim()
    .min(1, 'Name is required.')
    .max(128),
  value: z
    .string({ error: (i) => (i.input === undefined ? 'Value is required.' : undefined) })
    .trim()
    .min(1, 'Value is required.')
    .max(1000),
  order: z.number().int().min(1).optional(),
});
const Id = z.object({ id: z.string().min(1) });
const toJson = (row: ApiHeaderRow) => ({ id: row.id, name: row.name, value: row.value, order: row.order });
const READ_API = parsePermission('api-definition-r');

/** `configuration/apiheaders` and the portal's `apis/{api}/headers`. */
export function apiHeadersRoutes(
  app: FastifyInstance,
  deps: {
    headers: ApiHeadersService;
    apis: ApiService;
    guards: PermissionGuards;
    permissions: PermissionService;
  },
): void {
  const { headers, apis, guards, permissions } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/configuration/apiheaders',
    {
      schema: { tags: ['API portal headers'], summary: 'The headers in order' },
      preHandler: guards.require('portal-api_header-r'),
    },
    async () => (await headers.list()).map(toJson),
  );
  r.post(
    '/configuration/apiheaders',
    {
      schema: {
        tags: ['API portal headers'],
        summary: 'Add a header at the end',
        body: HeaderBody.omit({ order: true }),
      },
      preHandler: guards.require('portal-api_header-c'),
    },
    async (request) => toJson(await headers.create(currentUser(request), request.body)),
  );
  r.put(
    '/configuration/apiheaders/:id',
    {
      schema: {
        tags: ['API portal headers'],
        summary: 'Update a header (and move it)',
        params: Id,
        body: HeaderBody,
      },
      preHandler: guards.require('portal-api_header-u'),
    },
    async (request) => toJson(await headers.update(currentUser(request), request.params.id, request.body)),
  );
  r.delete(
    '/configuration/apiheaders/:id',
    {
      schema: { tags: ['API portal headers'], summary: 'Delete a header', params: Id },
      preHandler: guards.require('portal-api_header-d'),
    },
    async (request, reply) => {
      await headers.delete(currentUser(request), request.params.id);
      return reply.code(204).send();
    },
  );

  r.get(
    '/apis/:api/headers',
    {
      schema: {
        tags: ['Portal'],
        summary: "The portal headers of an API, values resolved from the API ('${api.version}')",
        params: z.object({ api: z.string().min(1) }),
      },
    },
    async (request) => {
      const api = await apis.get(request.params.api);
      if (!isPubliclyVisible(api)) {
        if (!request.user) throw unauthenticated();
        if (!(await permissions.has(request.user.id, READ_API, api.id))) throw forbidden('api-definition-r');
      }
      const owner = await apis.primaryOwner(api.id);
      return headers.forApi(api, owner ? { displayName: displayName(owner), email: owner.email } : undefined);
    },
  );
}

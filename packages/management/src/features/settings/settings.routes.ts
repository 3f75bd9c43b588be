import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SettingsPayload, parsePermission } from '@portico/model';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import { assertIfMatch, sendEtag } from '../../http/etag.js';
import type { SettingsService } from './settings.service.js';

const SETTINGS_READ = parsePermission('portal-settings-r');
const SETTINGS_UPDATE = parsePermission('portal-settings-u');

/**
 * GET portal: the configuration every face loads at start (public, no session needed; settings readers
 * also get the private groups). POST portal: saves a partial or whole settings payload
 * (portal-settings-u; portal-settings-c alone creates the settings not stored yet); unknown keys and
 * wrong types are refused with 400; If-Match is honoured.
 */
export function settingsRoutes(
  app: FastifyInstance,
  settings: SettingsService,
  permissions: PermissionService,
  guards: PermissionGuards,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/portal',
    { schema: { tags: ['Settings'], summary: 'The portal configuration' } },
    async (request, reply) => {
      const withPrivate = request.user ? await permissions.has(request.user.id, SETTINGS_READ) : false;
      const { tree, etag } = await settings.tree(withPrivate);
      sendEtag(reply, etag);
      return tree;
    },
  );

  r.post(
    '/portal',
    {
      schema: {
        tags: ['Settings'],
        summary: 'Save portal settings (partial payloads accepted)',
        body: SettingsPayload,
      },
      preHandler: guards.requireAny('portal-settings-u', 'portal-settings-c'),
    },
    async (request, reply) => {
      const before = await settings.tree(true);
      assertIfMatch(request, before.etag);
      const user = currentUser(request);
      await settings.update(user.id, request.body, await permissions.has(user.id, SETTINGS_UPDATE));
      const { tree, etag } = await settings.tree(true);
      sendEtag(reply, etag);
      return tree;
    },
  );
}

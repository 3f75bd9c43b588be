import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser, requireUser } from '../../http/auth.js';
import type { HookScope } from './notification-hooks.js';
import { PORTAL_REFERENCE_ID } from './notification-hooks.js';
import type { NotificationSettingsService, Scope } from './notification-settings.service.js';

const Setting = z.object({
  id: z.string().optional(),
  name: z.string().max(256).optional(),
  config_type: z.enum(['GENERIC', 'PORTAL'], { error: 'config_type must be GENERIC or PORTAL' }),
  referenceType: z.string().optional(),
  referenceId: z.string().optional(),
  notifier: z.string().max(256).nullable().optional(),
  config: z.string().max(4000).nullable().optional(),
  useSystemProxy: z.boolean().optional(),
  hooks: z.array(z.string().max(64)).max(100).optional(),
  user: z.string().optional(),
});

interface ScopeRoutes {
  type: HookScope;
  /** Where the scope's calls start (`/apis/:api`). */
  base: string;
  /** Where its hooks are listed. */
  hooks: string;
  permission: string;
  tag: string;
  scope(params: Record<string, string>): Scope;
}

const SCOPES: ScopeRoutes[] = [
  {
    type: 'API',
    base: '/apis/:api',
    hooks: '/apis/hooks',
    permission: 'api-notification',
    tag: 'API notifications',
    scope: (p) => ({ type: 'API', id: p.api! }),
  },
  {
    type: 'APPLICATION',
    base: '/applications/:application',
    hooks: '/applications/hooks',
    permission: 'application-notification',
    tag: 'Application notifications',
    scope: (p) => ({ type: 'APPLICATION', id: p.application! }),
  },
  {
    type: 'PORTAL',
    base: '/configuration',
    hooks: '/configuration/hooks',
    permission: 'management-notification',
    tag: 'Platform notifications',
    scope: () => ({ type: 'PORTAL', id: PORTAL_REFERENCE_ID }),
  },
];

/** `hooks`, `notifiers` and `notificationsettings` of APIs, applications and the platform. */
export function notificationSettingsRoutes(
  app: FastifyInstance,
  deps: { guards: PermissionGuards; settings: NotificationSettingsService },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { guards, settings } = deps;
  for (const s of SCOPES) {
    const read = guards.require(`${s.permission}-r`);
    const params = (p: unknown) => s.scope(p as Record<string, string>);
    r.get(
      s.hooks,
      { schema: { tags: [s.tag], summary: 'The hooks of the scope' }, preHandler: requireUser },
      async () => settings.hooks(s.type),
    );
    r.get(
      `${s.base}/notifiers`,
      { schema: { tags: [s.tag], summary: 'The notifiers' }, preHandler: read },
      async () => settings.notifiers(),
    );
    r.get(
      `${s.base}/notificationsettings`,
      { schema: { tags: [s.tag], summary: 'Notification settings' }, preHandler: read },
      async (request) => settings.list(params(request.params), currentUser(request).id),
    );
    r.post(
      `${s.base}/notificationsettings`,
      {
        schema: { tags: [s.tag], summary: 'Creates a notification setting', body: Setting },
        preHandler: read,
      },
      async (request) => settings.create(params(request.params), currentUser(request).id, request.body),
    );
    // A PORTAL setting is saved without id (one per user); GENERIC ones by their id.
    r.put(
      `${s.base}/notificationsettings`,
      {
        schema: { tags: [s.tag], summary: "Saves the user's portal setting", body: Setting },
        preHandler: read,
      },
      async (request) =>
        settings.update(params(request.params), currentUser(request).id, request.body.id, request.body),
    );
    r.put(
      `${s.base}/notificationsettings/:id`,
      {
        schema: { tags: [s.tag], summary: 'Changes a notification setting', body: Setting },
        preHandler: read,
      },
      async (request) =>
        settings.update(
          params(request.params),
          currentUser(request).id,
          (request.params as { id: string }).id,
          request.body,
        ),
    );
    r.delete(
      `${s.base}/notificationsettings/:id`,
      { schema: { tags: [s.tag], summary: 'Deletes a notification setting' }, preHandler: read },
      async (request, reply) => {
        await settings.delete(
          params(request.params),
          currentUser(request).id,
          (request.params as { id: string }).id,
        );
        return reply.status(204).send();
      },
    );
  }
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden, parsePermission } from '@portico/model';
import { currentUser, requireUser } from '../../http/auth.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import { toApiKeyJson } from './subscriptions.mapper.js';
import type { SubscriptionRouteDeps } from './subscriptions.schemas.js';

const READ_OF_APPLICATION = parsePermission('application-subscription-r');
const READ_OF_API = parsePermission('api-subscription-r');

/**
 * `GET subscriptions/{subId}/keys` (portal-and-platform.md 7, consumer side): the keys of a subscription
 * the portal's subscription wizard shows once the subscription is accepted. The caller reads the
 * subscriptions of its application (application-subscription-r) or of its API (api-subscription-r).
 */
export function subscriptionKeysRoutes(
  app: FastifyInstance,
  deps: Pick<SubscriptionRouteDeps, 'ctx' | 'subscriptions' | 'keys'> & { permissions: PermissionService },
): void {
  const { ctx, subscriptions, keys, permissions } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/subscriptions/:subscription/keys',
    {
      schema: {
        tags: ['Application subscriptions'],
        summary: 'The API keys of a subscription, newest first (for who reads its application or API)',
        params: z.object({ subscription: z.string().min(1) }),
      },
      preHandler: requireUser,
    },
    async (request) => {
      const user = currentUser(request);
      const s = await subscriptions.get(request.params.subscription);
      const allowed =
        (await permissions.has(user.id, READ_OF_APPLICATION, s.application_id)) ||
        (await permissions.has(user.id, READ_OF_API, s.api_id));
      if (!allowed) throw forbidden('application-subscription-r or api-subscription-r');
      return (await keys.list(s.id)).map((row) => toApiKeyJson(row, ctx.now()));
    },
  );
}

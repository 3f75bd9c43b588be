import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth.js';
import { toApiKeyJson } from './subscriptions.mapper.js';
import type { SubscriptionRouteDeps } from './subscriptions.schemas.js';
import { ApiKeyParams, ApiSubscriptionParams, ExpiryBody } from './subscriptions.schemas.js';

/** The API keys of a subscription, API side (console-apis.md section 7): list, renew, revoke, expiry. */
export function apiKeysRoutes(app: FastifyInstance, deps: SubscriptionRouteDeps): void {
  const { ctx, guards, subscriptions, keys } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const keyJson = (row: Parameters<typeof toApiKeyJson>[0]) => toApiKeyJson(row, ctx.now());
  const tags = ['API subscriptions'];

  r.get(
    '/apis/:api/subscriptions/:subscription/keys',
    {
      schema: {
        tags,
        summary: 'The API keys of a subscription, newest first',
        params: ApiSubscriptionParams,
      },
      preHandler: guards.require('api-subscription-r'),
    },
    async (request) => {
      await subscriptions.ofApi(request.params.api, request.params.subscription);
      return (await keys.list(request.params.subscription)).map(keyJson);
    },
  );

  r.post(
    '/apis/:api/subscriptions/:subscription',
    {
      schema: {
        tags,
        summary:
          'Renew the API key (the previous one keeps working 2 hours, never past the subscription end)',
        params: ApiSubscriptionParams,
      },
      preHandler: guards.require('api-subscription-u'),
    },
    async (request, reply) => {
      await subscriptions.ofApi(request.params.api, request.params.subscription);
      const key = await keys.renew(currentUser(request), request.params.subscription);
      return reply.code(201).send(keyJson(key));
    },
  );

  const revokeOfApi = async (
    apiId: string,
    subscriptionId: string,
    key: string,
    user: ReturnType<typeof currentUser>,
  ) => {
    await subscriptions.ofApi(apiId, subscriptionId);
    return keys.revoke(user, subscriptionId, key);
  };

  r.delete(
    '/apis/:api/subscriptions/:subscription/keys/:key',
    {
      schema: { tags, summary: 'Revoke an API key (it stops working at once)', params: ApiKeyParams },
      preHandler: guards.require('api-subscription-u'),
    },
    async (request, reply) => {
      const { api, subscription, key } = request.params;
      await revokeOfApi(api, subscription, key, currentUser(request));
      return reply.code(204).send();
    },
  );

  r.delete(
    '/apis/:api/keys/:key',
    {
      schema: {
        tags,
        summary: 'Revoke an API key of the API',
        params: z.object({ api: z.string().min(1), key: z.string().min(1) }),
      },
      preHandler: guards.require('api-subscription-u'),
    },
    async (request, reply) => {
      const key = await keys.find(request.params.api, request.params.key);
      await revokeOfApi(request.params.api, key.subscription_id, key.key, currentUser(request));
      return reply.code(204).send();
    },
  );

  r.put(
    '/apis/:api/keys/:key',
    {
      schema: {
        tags,
        summary: 'Set the expiry date of an API key (from now to the subscription end, or 2099-12-31)',
        params: z.object({ api: z.string().min(1), key: z.string().min(1) }),
        body: ExpiryBody,
      },
      preHandler: guards.require('api-subscription-u'),
    },
    async (request) =>
      keyJson(
        await keys.setExpiry(
          currentUser(request),
          request.params.api,
          request.params.key,
          request.body.expire_at,
        ),
      ),
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth.js';
import { toApiKeyJson } from './subscriptions.mapper.js';
import type { SubscriptionRouteDeps } from './subscriptions.schemas.js';
import {
  ApplicationListQuery,
  ApplicationParams,
  ApplicationSubscriptionParams,
  RequestBody,
} from './subscriptions.schemas.js';

/** The subscription and key calls of console-applications-and-settings.md section 7 (application side). */
export function applicationSubscriptionsRoutes(app: FastifyInstance, deps: SubscriptionRouteDeps): void {
  const { ctx, guards, plans, subscriptions, keys } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const keyJson = (row: Parameters<typeof toApiKeyJson>[0]) => toApiKeyJson(row, ctx.now());
  const appTags = ['Application subscriptions'];
  const detailOfApplication = async (applicationId: string, id: string) =>
    subscriptions.detail(await subscriptions.ofApplication(applicationId, id));

  // The spec writes `applications/{id}/subscriptions/?plan=`: the router ignores trailing slashes.
  r.get(
    '/applications/:application/subscriptions',
    {
      schema: {
        tags: appTags,
        summary:
          'Subscriptions of the application, newest first (default statuses ACCEPTED, PENDING, PAUSED)',
        params: ApplicationParams,
        querystring: ApplicationListQuery,
      },
      preHandler: guards.require('application-subscription-r'),
    },
    async (request) => {
      const q = request.query;
      return subscriptions.search({
        page: q.page,
        size: q.size,
        applicationIds: [request.params.application],
        apiIds: q.api,
        planIds: q.plan,
        statuses: q.status,
      });
    },
  );

  r.post(
    '/applications/:application/subscriptions',
    {
      schema: {
        tags: appTags,
        summary: 'Subscribe the application to a published plan (optional message to the API publisher)',
        params: ApplicationParams,
        querystring: z.object({ plan: z.string().min(1) }),
        body: RequestBody,
      },
      preHandler: guards.require('application-subscription-c'),
    },
    async (request, reply) => {
      await plans.assertSubscribableBy(currentUser(request), request.query.plan);
      const created = await subscriptions.subscribe(currentUser(request), {
        planId: request.query.plan,
        applicationId: request.params.application,
        request: request.body?.request ?? undefined,
      });
      return reply.code(201).send(await subscriptions.detail(created));
    },
  );

  r.get(
    '/applications/:application/subscribed',
    {
      schema: {
        tags: appTags,
        summary: 'The APIs the application has an accepted, pending or paused subscription to',
        params: ApplicationParams,
      },
      preHandler: guards.require('application-subscription-r'),
    },
    async (request) => subscriptions.subscribedApis(request.params.application),
  );

  r.get(
    '/applications/:application/subscriptions/:subscription',
    {
      schema: {
        tags: appTags,
        summary: 'One subscription of the application',
        params: ApplicationSubscriptionParams,
      },
      preHandler: guards.require('application-subscription-r'),
    },
    async (request) => detailOfApplication(request.params.application, request.params.subscription),
  );

  r.delete(
    '/applications/:application/subscriptions/:subscription',
    {
      schema: {
        tags: appTags,
        summary: 'Close a pending, accepted or paused subscription (its keys are revoked); answers it',
        params: ApplicationSubscriptionParams,
      },
      preHandler: guards.require('application-subscription-d'),
    },
    async (request) => {
      const { application, subscription } = request.params;
      const row = await subscriptions.closeByApplication(currentUser(request), application, subscription);
      return subscriptions.detail(row);
    },
  );

  r.get(
    '/applications/:application/subscriptions/:subscription/keys',
    {
      schema: {
        tags: appTags,
        summary: 'The API keys of a subscription, newest first',
        params: ApplicationSubscriptionParams,
      },
      preHandler: guards.require('application-subscription-r'),
    },
    async (request) => {
      await subscriptions.ofApplication(request.params.application, request.params.subscription);
      return (await keys.list(request.params.subscription)).map(keyJson);
    },
  );

  for (const path of [
    '/applications/:application/subscriptions/:subscription',
    '/applications/:application/subscriptions/:subscription/keys/_renew',
  ]) {
    r.post(
      path,
      {
        schema: {
          tags: appTags,
          summary: 'Renew the API key (the previous one keeps working 2 hours)',
          params: ApplicationSubscriptionParams,
        },
        preHandler: guards.require('application-subscription-u'),
      },
      async (request, reply) => {
        await subscriptions.ofApplication(request.params.application, request.params.subscription);
        const key = await keys.renew(currentUser(request), request.params.subscription);
        return reply.code(201).send(keyJson(key));
      },
    );
  }

  r.delete(
    '/applications/:application/subscriptions/:subscription/keys/:key',
    {
      schema: {
        tags: appTags,
        summary: 'Revoke an API key of the subscription',
        params: ApplicationSubscriptionParams.extend({ key: z.string().min(1) }),
      },
      preHandler: guards.require('application-subscription-d'),
    },
    async (request, reply) => {
      const { application, subscription, key } = request.params;
      await subscriptions.ofApplication(application, subscription);
      await keys.revoke(currentUser(request), subscription, key);
      return reply.code(204).send();
    },
  );
}

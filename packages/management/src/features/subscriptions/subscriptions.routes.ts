import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SUBSCRIPTION_STATUS_ACTIONS } from '@portico/model';
import { currentUser } from '../../http/auth.js';
import { apiKeysRoutes } from './api-keys.routes.js';
import { applicationSubscriptionsRoutes } from './application-subscriptions.routes.js';
import type { SubscriptionRouteDeps } from './subscriptions.schemas.js';
import {
  ApiListQuery,
  ApiParams,
  ApiSubscriptionParams,
  DatesBody,
  ProcessBody,
  RequestBody,
  TransferBody,
} from './subscriptions.schemas.js';

export type { SubscriptionRouteDeps } from './subscriptions.schemas.js';

/**
 * The subscription and key calls of console-apis.md section 7 (API side) and of
 * console-applications-and-settings.md section 7 (application side). The subscriptions of an API are
 * here; their keys in `api-keys.routes.ts`, the application side in `application-subscriptions.routes.ts`.
 */
export function subscriptionsRoutes(app: FastifyInstance, deps: SubscriptionRouteDeps): void {
  const { guards, apis, subscriptions } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const detailOfApi = async (apiId: string, id: string) =>
    subscriptions.detail(await subscriptions.ofApi(apiId, id));
  const tags = ['API subscriptions'];

  // ---- API side -------------------------------------------------------------------------------

  r.get(
    '/apis/:api/subscriptions',
    {
      schema: {
        tags,
        summary: 'Subscriptions of the API, newest first (default statuses ACCEPTED, PENDING, PAUSED)',
        params: ApiParams,
        querystring: ApiListQuery,
      },
      preHandler: guards.require('api-subscription-r'),
    },
    async (request) => {
      await apis.get(request.params.api);
      const q = request.query;
      return subscriptions.search({
        page: q.page,
        size: q.size,
        apiIds: [request.params.api],
        applicationIds: q.application,
        planIds: q.plan,
        statuses: q.status,
      });
    },
  );

  r.get(
    '/apis/:api/subscribers',
    {
      schema: {
        tags,
        summary: 'The applications with an accepted, pending or paused subscription to the API',
        params: ApiParams,
      },
      preHandler: guards.require('api-subscription-r'),
    },
    async (request) => {
      await apis.get(request.params.api);
      return (await subscriptions.subscribers(request.params.api)).map((a) => ({
        id: a.id,
        name: a.name,
        type: a.type,
        description: a.description,
      }));
    },
  );

  r.post(
    '/apis/:api/subscriptions',
    {
      schema: {
        tags,
        summary:
          "Subscribe an application to a published plan of the API: the API's publisher accepts it at once",
        params: ApiParams,
        querystring: z.object({ plan: z.string().min(1), application: z.string().min(1) }),
        body: RequestBody,
      },
      preHandler: guards.require('api-subscription-c'),
    },
    async (request, reply) => {
      await apis.get(request.params.api);
      const created = await subscriptions.subscribe(currentUser(request), {
        apiId: request.params.api,
        planId: request.query.plan,
        applicationId: request.query.application,
        request: request.body?.request ?? undefined,
        acceptAtOnce: true,
      });
      return reply.code(201).send(await subscriptions.detail(created));
    },
  );

  r.get(
    '/apis/:api/subscriptions/:subscription',
    {
      schema: { tags, summary: 'One subscription of the API', params: ApiSubscriptionParams },
      preHandler: guards.require('api-subscription-r'),
    },
    async (request) => detailOfApi(request.params.api, request.params.subscription),
  );

  r.put(
    '/apis/:api/subscriptions/:subscription',
    {
      schema: {
        tags,
        summary: 'Change the dates of an accepted or paused subscription (the end not earlier than now)',
        params: ApiSubscriptionParams,
        body: DatesBody,
      },
      preHandler: guards.require('api-subscription-u'),
    },
    async (request) => {
      const { starting_at, ending_at } = request.body;
      const row = await subscriptions.changeDates(
        currentUser(request),
        request.params.api,
        request.params.subscription,
        { starting_at, ending_at },
      );
      return subscriptions.detail(row);
    },
  );

  r.post(
    '/apis/:api/subscriptions/:subscription/_process',
    {
      schema: {
        tags,
        summary: 'Accept (with dates and a message) or reject (with a reason) a pending subscription',
        params: ApiSubscriptionParams,
        body: ProcessBody,
      },
      preHandler: guards.require('api-subscription-u'),
    },
    async (request) => {
      const { api, subscription } = request.params;
      const body = request.body;
      const row = body.accepted
        ? await subscriptions.accept(currentUser(request), api, subscription, body)
        : await subscriptions.reject(currentUser(request), api, subscription, body.reason);
      return subscriptions.detail(row);
    },
  );

  r.post(
    '/apis/:api/subscriptions/:subscription/status',
    {
      schema: {
        tags,
        summary: 'Pause, resume or close a subscription (keys follow)',
        params: ApiSubscriptionParams,
        querystring: z.object({
          status: z
            .string()
            .transform((s) => s.toUpperCase())
            .pipe(z.enum(SUBSCRIPTION_STATUS_ACTIONS)),
        }),
      },
      preHandler: guards.require('api-subscription-u'),
    },
    async (request) => {
      const { api, subscription } = request.params;
      const user = currentUser(request);
      const status = request.query.status;
      const row =
        status === 'PAUSED'
          ? await subscriptions.pause(user, api, subscription)
          : status === 'RESUMED'
            ? await subscriptions.resume(user, api, subscription)
            : await subscriptions.close(user, api, subscription);
      return subscriptions.detail(row);
    },
  );

  r.post(
    '/apis/:api/subscriptions/:subscription/_transfer',
    {
      schema: {
        tags,
        summary: 'Move a subscription (and its keys) to another published plan of the same security type',
        params: ApiSubscriptionParams,
        body: TransferBody,
      },
      preHandler: guards.require('api-subscription-u'),
    },
    async (request) => {
      const { api, subscription } = request.params;
      const row = await subscriptions.transfer(currentUser(request), api, subscription, request.body.plan);
      return subscriptions.detail(row);
    },
  );

  apiKeysRoutes(app, deps);
  applicationSubscriptionsRoutes(app, deps);
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Instant,
  SUBSCRIPTION_REASON_MAX,
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_STATUS_ACTIONS,
  SubscriptionRequestMessage,
  SubscriptionStatus,
} from '@portico/model';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import { csvOf, idList } from '../../http/query-lists.js';
import type { ApiService } from '../apis/apis.service.js';
import type { PlanService } from '../plans/plans.service.js';
import type { ApiKeyService } from './api-keys.service.js';
import { toApiKeyJson } from './subscriptions.mapper.js';
import type { SubscriptionService } from './subscriptions.service.js';

const ApiParams = z.object({ api: z.string().min(1) });
const ApiSubscriptionParams = z.object({ api: z.string().min(1), subscription: z.string().min(1) });
const ApiKeyParams = ApiSubscriptionParams.extend({ key: z.string().min(1) });
const ApplicationParams = z.object({ application: z.string().min(1) });
const ApplicationSubscriptionParams = z.object({
  application: z.string().min(1),
  subscription: z.string().min(1),
});

const StatusList = csvOf(SubscriptionStatus, SUBSCRIPTION_STATUSES, 'status');

const Paging = {
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(10),
};

const ApiListQuery = z.object({ ...Paging, status: StatusList, application: idList, plan: idList });
const ApplicationListQuery = z.object({ ...Paging, status: StatusList, api: idList });

const RequestBody = z.object({ request: SubscriptionRequestMessage.nullish() }).nullish();
const Reason = z.string().max(SUBSCRIPTION_REASON_MAX);

const ProcessBody = z.object({
  accepted: z.boolean(),
  reason: Reason.nullish(),
  starting_at: Instant.nullish(),
  ending_at: Instant.nullish(),
});
const DatesBody = z.object({
  id: z.string().optional(),
  starting_at: Instant.nullish(),
  ending_at: Instant.nullish(),
});
const TransferBody = z.object({ id: z.string().optional(), plan: z.string().min(1) });
const ExpiryBody = z.object({ expire_at: Instant });

export interface SubscriptionRouteDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  apis: ApiService;
  plans: PlanService;
  subscriptions: SubscriptionService;
  keys: ApiKeyService;
}

/**
 * The subscription and key calls of console-apis.md section 7 (API side) and of
 * console-applications-and-settings.md section 7 (application side).
 */
export function subscriptionsRoutes(app: FastifyInstance, deps: SubscriptionRouteDeps): void {
  const { ctx, guards, apis, plans, subscriptions, keys } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const keyJson = (row: Parameters<typeof toApiKeyJson>[0]) => toApiKeyJson(row, ctx.now());
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

  // ---- application side -------------------------------------------------------------------------

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

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { accessCheck } from '../../http/access-checks.js';
import { currentUser, requireUser } from '../../http/auth.js';
import type { AuditService } from '../audit/audit.service.js';
import type { NotificationDispatcher } from '../notification-settings/notification-dispatch.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { AccessNeed } from './ratings.service.js';
import { COMMENT_MAX, RatingsService, TITLE_MAX } from './ratings.service.js';

const ApiParams = z.object({ api: z.string() });
const RatingParams = ApiParams.extend({ rating: z.string() });
const AnswerParams = RatingParams.extend({ answer: z.string() });
const Paging = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});
const RatingBody = z.object({
  rate: z.number().int().min(1).max(5),
  title: z.string().max(TITLE_MAX).nullish(),
  comment: z.string().max(COMMENT_MAX).nullish(),
});
const AnswerBody = z.object({ comment: z.string().max(COMMENT_MAX) });

const TAG = ['API ratings'];

/** `apis/{id}/ratings...` (portal-and-platform.md section 7: Ratings). */
export function ratingsRoutes(
  app: FastifyInstance,
  deps: {
    ctx: AppContext;
    permissions: PermissionService;
    settings: SettingsService;
    audit: AuditService;
    hooks: NotificationDispatcher;
  },
): RatingsService {
  const ratings = new RatingsService({
    ...{ db: deps.ctx.db, settings: deps.settings, permissions: deps.permissions },
    ...{ audit: deps.audit, hooks: deps.hooks, now: deps.ctx.now },
  });
  const userOf = (request: FastifyRequest) => request.user?.id ?? null;
  const apiOf = (request: FastifyRequest) => (request.params as { api: string }).api;
  const needs = (need: AccessNeed) =>
    accessCheck(async (request: FastifyRequest) => ratings.authorize(apiOf(request), userOf(request), need));
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/apis/:api/ratings';

  r.get(
    base,
    {
      schema: {
        tags: TAG,
        summary: 'A page of the ratings, newest first',
        params: ApiParams,
        querystring: Paging,
      },
      preHandler: needs('read'),
    },
    async (request) =>
      ratings.list(request.params.api, userOf(request), request.query.pageNumber, request.query.pageSize),
  );
  r.get(
    `${base}/summary`,
    {
      schema: { tags: TAG, summary: 'Number of ratings, per rate, and the average', params: ApiParams },
      preHandler: needs('read'),
    },
    async (request) => ratings.summary(request.params.api, userOf(request)),
  );
  r.get(
    `${base}/current`,
    {
      schema: { tags: TAG, summary: "The caller's own rating (204 when none)", params: ApiParams },
      preHandler: [requireUser, needs(['RATING', 'R'])],
    },
    async (request, reply) => {
      const mine = await ratings.current(request.params.api, currentUser(request).id);
      return mine ? mine : reply.code(204).send();
    },
  );
  r.get(
    `${base}/permissions`,
    {
      schema: {
        tags: TAG,
        summary: "The caller's rating rights: { RATING: 'CRU', RATING_ANSWER: 'R' }",
        params: ApiParams,
      },
      preHandler: requireUser,
    },
    async (request) => ratings.rights(request.params.api, currentUser(request).id),
  );
  r.post(
    base,
    {
      schema: { tags: TAG, summary: 'Rate the API (once per user)', params: ApiParams, body: RatingBody },
      preHandler: [requireUser, needs(['RATING', 'C'])],
    },
    async (request, reply) =>
      reply.code(201).send(await ratings.create(request.params.api, currentUser(request).id, request.body)),
  );
  r.put(
    `${base}/:rating`,
    {
      schema: { tags: TAG, summary: "Change one's own rating", params: RatingParams, body: RatingBody },
      preHandler: [requireUser, needs(['RATING', 'U'])],
    },
    async (request) =>
      ratings.update(request.params.api, request.params.rating, currentUser(request).id, request.body),
  );
  r.delete(
    `${base}/:rating`,
    {
      schema: { tags: TAG, summary: 'Delete a rating and its answers', params: RatingParams },
      preHandler: [requireUser, needs(['RATING', 'D'])],
    },
    async (request, reply) => {
      await ratings.remove(request.params.api, request.params.rating, currentUser(request).id);
      return reply.code(204).send();
    },
  );
  r.post(
    `${base}/:rating/answers`,
    {
      schema: { tags: TAG, summary: 'Answer a rating', params: RatingParams, body: AnswerBody },
      preHandler: [requireUser, needs(['RATING_ANSWER', 'C'])],
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await ratings.answer(
            request.params.api,
            request.params.rating,
            currentUser(request).id,
            request.body.comment,
          ),
        ),
  );
  r.delete(
    `${base}/:rating/answers/:answer`,
    {
      schema: { tags: TAG, summary: 'Delete an answer', params: AnswerParams },
      preHandler: [requireUser, needs(['RATING_ANSWER', 'D'])],
    },
    async (request, reply) => {
      const { api, rating, answer } = request.params;
      await ratings.removeAnswer(api, rating, answer, currentUser(request).id);
      return reply.code(204).send();
    },
  );
  return ratings;
}

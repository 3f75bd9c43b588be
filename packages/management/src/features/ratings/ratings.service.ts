import type { Right } from '@portico/model';
import { invalidField, notFound } from '@portico/model';
import type { Database, Executor, RatingRow } from '@portico/storage';
import {
  countRatingsByRate,
  deleteRating,
  deleteRatingAnswer,
  findAnswersOfRatings,
  findRatingAnswerById,
  findRatingById,
  findRatingOfUser,
  findRatingsPage,
  findUsersByIds,
  insertRating,
  insertRatingAnswer,
  updateRating,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import type { NotificationDispatcher } from '../notification-settings/notification-dispatch.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { RatingAccess } from './ratings.access.js';
import { demand, demandRead, holds, ratingAccess } from './ratings.access.js';
import { notOwnRating, ratingAlreadyExists, ratingUnavailable } from './ratings.errors.js';
import type { RatingJson } from './ratings.mapper.js';
import { averageToOneDecimal, toRatingJson } from './ratings.mapper.js';

/** Limits of section 9: title 64, rating and answer comments 1024. */
export const TITLE_MAX = 64;
export const COMMENT_MAX = 1024;
export const RATES = [1, 2, 3, 4, 5] as const;

/** What a route needs: reading, or one right of RATING or RATING_ANSWER. */
export type AccessNeed = 'read' | ['RATING' | 'RATING_ANSWER', Right];

export interface RatingInput {
  rate: number;
  title?: string | null | undefined;
  comment?: string | null | undefined;
}

export interface RatingSummary {
  api: string;
  numberOfRatings: number;
  averageRate: number | null;
  numberOfRatingsByRate: Record<string, number>;
}

export interface RatingsServiceDeps {
  db: Kysely<Database>;
  settings: SettingsService;
  permissions: PermissionService;
  audit: AuditService;
  hooks: NotificationDispatcher;
  now: () => number;
}

const blank = (text: string | null | undefined) => !text || text.trim() === '';

/**
 * Ratings of APIs (portal-and-platform.md sections 2, 4 to 9): one rating per user and API, answers,
 * the summary. Everything answers 503 while `portal.rating.enabled` is off, as Gravitee.
 */
export class RatingsService {
  constructor(private readonly deps: RatingsServiceDeps) {}

  private async access(apiId: string, userId: string | null): Promise<RatingAccess> {
    if (!(await this.deps.settings.value<boolean>('portal.rating.enabled'))) throw ratingUnavailable();
    return ratingAccess(this.deps.db, this.deps.permissions, apiId, userId);
  }

  /**
   * The route's access check (run before validation): 503 while rating is off, 404 for an unknown API,
   * 401 or 403 without the right (`read`: anybody on a PUBLIC API, else api-rating-r).
   */
  async authorize(apiId: string, userId: string | null, need: AccessNeed): Promise<void> {
    const access = await this.access(apiId, userId);
    if (need === 'read') demandRead(access);
    else demand(access, need[0], need[1]);
  }

  /** The caller's rights, as `members/permissions` letters: `{ RATING: "CRU", RATING_ANSWER: "R" }`. */
  async rights(apiId: string, userId: string): Promise<Record<string, string>> {
    const access = await this.access(apiId, userId);
    return { RATING: access.rights.RATING.join(''), RATING_ANSWER: access.rights.RATING_ANSWER.join('') };
  }

  private async toJson(db: Executor, access: RatingAccess, rows: RatingRow[]): Promise<RatingJson[]> {
    const withAnswers = holds(access, 'RATING_ANSWER', 'R');
    const answers = withAnswers
      ? await findAnswersOfRatings(
          db,
          rows.map((r) => r.id),
        )
      : [];
    const users = await findUsersByIds(db, [
      ...new Set([...rows.map((r) => r.user_id), ...answers.map((a) => a.user_id)]),
    ]);
    const byId = new Map(users.map((u) => [u.id, u]));
    return rows.map((row) =>
      toRatingJson(
        row,
        byId,
        // Newest answer first, as Gravitee.
        withAnswers ? answers.filter((a) => a.rating_id === row.id).reverse() : undefined,
      ),
    );
  }

  async list(apiId: string, userId: string | null, pageNumber: number, pageSize: number) {
    const access = await this.access(apiId, userId);
    demandRead(access);
    const page = await findRatingsPage(this.deps.db, apiId, pageNumber, pageSize);
    const content = await this.toJson(this.deps.db, access, page.rows);
    return { content, pageNumber, pageElements: content.length, totalElements: page.total };
  }

  async summary(apiId: string, userId: string | null): Promise<RatingSummary> {
    demandRead(await this.access(apiId, userId));
    const counts = await countRatingsByRate(this.deps.db, apiId);
    const byRate = Object.fromEntries(
      RATES.map((rate) => [String(rate), counts.find((c) => c.rate === rate)?.count ?? 0]),
    );
    const numberOfRatings = counts.reduce((n, c) => n + c.count, 0);
    const sum = counts.reduce((n, c) => n + c.rate * c.count, 0);
    return {
      api: apiId,
      numberOfRatings,
      averageRate: averageToOneDecimal(sum, numberOfRatings),
      numberOfRatingsByRate: byRate,
    };
  }

  /** The caller's own rating of the API, if any. */
  async current(apiId: string, userId: string): Promise<RatingJson | undefined> {
    const access = await this.access(apiId, userId);
    demand(access, 'RATING', 'R');
    const row = await findRatingOfUser(this.deps.db, apiId, userId);
    return row ? (await this.toJson(this.deps.db, access, [row]))[0] : undefined;
  }

  /** Title and comment are required while `portal.rating.comment.mandatory` is on. */
  private async checkText(input: RatingInput): Promise<void> {
    if (!(await this.deps.settings.value<boolean>('portal.rating.comment.mandatory'))) return;
    if (blank(input.title)) throw invalidField('title', 'A title is required');
    if (blank(input.comment)) throw invalidField('comment', 'A comment is required');
  }

  private async ratingOf(apiId: string, ratingId: string): Promise<RatingRow> {
    const row = await findRatingById(this.deps.db, ratingId);
    if (!row || row.api_id !== apiId) throw notFound('Rating', ratingId);
    return row;
  }

  private apiName(access: RatingAccess): string {
    return `${access.api.name} (${access.api.version})`;
  }

  async create(apiId: string, userId: string, input: RatingInput): Promise<RatingJson> {
    const access = await this.access(apiId, userId);
    demand(access, 'RATING', 'C');
    await this.checkText(input);
    const now = this.deps.now();
    const row: RatingRow = {
      id: newId(),
      api_id: apiId,
      user_id: userId,
      rate: input.rate,
      title: blank(input.title) ? null : input.title!.trim(),
      comment: blank(input.comment) ? null : input.comment!.trim(),
      created_at: now,
      updated_at: now,
    };
    const name = this.apiName(access);
    await this.deps.db.transaction().execute(async (trx) => {
      if (await findRatingOfUser(trx, apiId, userId)) throw ratingAlreadyExists();
      await insertRating(trx, row);
      await this.deps.audit.record(trx, {
        ...{ referenceType: 'API', referenceId: apiId, userId, event: 'RATING_CREATED' },
        after: row,
      });
      await this.deps.hooks.trigger(
        trx,
        { api: apiId },
        {
          hook: 'NEW_RATING',
          title: 'New rating',
          message: `The API ${name} has received a new rating (${row.rate}/5).`,
          params: { api: { id: apiId, name }, rating: { id: row.id, rate: row.rate, title: row.title } },
        },
      );
    });
    return (await this.toJson(this.deps.db, access, [row]))[0]!;
  }

  /** Changes the caller's own rating: its rate, title and comment. */
  async update(apiId: string, ratingId: string, userId: string, input: RatingInput): Promise<RatingJson> {
    const access = await this.access(apiId, userId);
    demand(access, 'RATING', 'U');
    const before = await this.ratingOf(apiId, ratingId);
    if (before.user_id !== userId) throw notOwnRating();
    await this.checkText(input);
    const after: RatingRow = {
      ...before,
      rate: input.rate,
      title: blank(input.title) ? null : input.title!.trim(),
      comment: blank(input.comment) ? null : input.comment!.trim(),
      updated_at: this.deps.now(),
    };
    await this.deps.db.transaction().execute(async (trx) => {
      await updateRating(trx, ratingId, {
        ...{ rate: after.rate, title: after.title, comment: after.comment, updated_at: after.updated_at },
      });
      await this.deps.audit.record(trx, {
        ...{ referenceType: 'API', referenceId: apiId, userId, event: 'RATING_UPDATED' },
        ...{ before, after },
      });
    });
    return (await this.toJson(this.deps.db, access, [after]))[0]!;
  }

  async remove(apiId: string, ratingId: string, userId: string): Promise<void> {
    const access = await this.access(apiId, userId);
    demand(access, 'RATING', 'D');
    const before = await this.ratingOf(apiId, ratingId);
    await this.deps.db.transaction().execute(async (trx) => {
      await deleteRating(trx, ratingId);
      await this.deps.audit.record(trx, {
        ...{ referenceType: 'API', referenceId: apiId, userId, event: 'RATING_DELETED' },
        before,
      });
    });
  }

  /** Answers a rating; answers the rating with its answers. */
  async answer(apiId: string, ratingId: string, userId: string, comment: string): Promise<RatingJson> {
    const access = await this.access(apiId, userId);
    demand(access, 'RATING_ANSWER', 'C');
    const rating = await this.ratingOf(apiId, ratingId);
    if (blank(comment)) throw invalidField('comment', 'A comment is required');
    const answer = { id: newId(), rating_id: ratingId, user_id: userId, comment: comment.trim() };
    const row = { ...answer, created_at: this.deps.now() };
    const name = this.apiName(access);
    await this.deps.db.transaction().execute(async (trx) => {
      await insertRatingAnswer(trx, row);
      await this.deps.audit.record(trx, {
        ...{ referenceType: 'API', referenceId: apiId, userId, event: 'RATING_ANSWER_CREATED' },
        after: row,
      });
      await this.deps.hooks.trigger(
        trx,
        { api: apiId },
        {
          hook: 'NEW_RATING_ANSWER',
          title: 'New rating answer',
          message: `A rating of the API ${name} has received an answer.`,
          params: { api: { id: apiId, name }, rating: { id: ratingId, rate: rating.rate } },
        },
      );
    });
    return (await this.toJson(this.deps.db, access, [rating]))[0]!;
  }

  async removeAnswer(apiId: string, ratingId: string, answerId: string, userId: string): Promise<void> {
    const access = await this.access(apiId, userId);
    demand(access, 'RATING_ANSWER', 'D');
    await this.ratingOf(apiId, ratingId);
    const before = await findRatingAnswerById(this.deps.db, answerId);
    if (!before || before.rating_id !== ratingId) throw notFound('Rating answer', answerId);
    await this.deps.db.transaction().execute(async (trx) => {
      await deleteRatingAnswer(trx, answerId);
      await this.deps.audit.record(trx, {
        ...{ referenceType: 'API', referenceId: apiId, userId, event: 'RATING_ANSWER_DELETED' },
        before,
      });
    });
  }
}

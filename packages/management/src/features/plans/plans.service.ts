import type { NewPlan, PlanSecurity, PlanUpdate } from '@portico/model';
import {
  ApiKeySecurityDefinition,
  DomainError,
  JwtSecurityDefinition,
  OAuth2SecurityDefinition,
  ValidationError,
  forbidden,
  invalidField,
  parsePermission,
  unauthenticated,
} from '@portico/model';
import type { Database, Executor, PlanRow, PlanRowUpdate, UserRow } from '@portico/storage';
import {
  countSubscriptionsOfPlan,
  deletePlan,
  findAllTags,
  findGroupsByIds,
  findMembershipsOfMember,
  findPlanById,
  findPlansByApi,
  insertPlan,
  isPubliclyVisible,
  updatePlan,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { ZodType } from 'zod';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import { ACTIVE_PLAN_STATUSES, ACTIVE_SUBSCRIPTION_STATUSES } from '../apis/apis.service.js';
import type { ApiService } from '../apis/apis.service.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import { assertValidPaths } from '../policies/policy-validation.js';
import type { SubscriptionService } from '../subscriptions/subscriptions.service.js';
import { AfterCommit } from '../subscriptions/after-commit.js';
import { auditedPlan } from './plans.mapper.js';
import {
  KEYLESS_PLAN_EXISTS,
  PLAN_ALREADY_CLOSED,
  PLAN_CLOSED,
  PLAN_NOT_PUBLISHED,
  PLAN_NOT_STAGING,
  PLAN_SECURITY_FIXED,
  planNotDeletable,
  planNotFound,
  planRule,
  planStateRefused,
} from './plans.errors.js';

export interface PlanServiceDeps {
  db: Kysely<Database>;
  apis: ApiService;
  audit: AuditService;
  subscriptions: SubscriptionService;
  permissions: PermissionService;
  now: () => number;
}

const READ_PLANS = parsePermission('api-plan-r');

export interface PlanListQuery {
  statuses?: readonly string[] | undefined;
  security?: readonly string[] | undefined;
}

const SECURITY_DEFINITIONS: Partial<Record<PlanSecurity, ZodType>> = {
  API_KEY: ApiKeySecurityDefinition,
  JWT: JwtSecurityDefinition,
  OAUTH2: OAuth2SecurityDefinition,
};

/**
 * Plans of an API (console-apis.md sections 2.7, 4 and 5): creation, edition, the staging → published →
 * deprecated → closed life, deletion and order. Every change runs in one transaction with its audit
 * entry. A plan change makes the API out of sync until it is deployed again (the deployment carries
 * the published and deprecated plans).
 */
export class PlanService {
  private readonly db: Kysely<Database>;

  constructor(private readonly deps: PlanServiceDeps) {
    this.db = deps.db;
  }

  /** The plan of the API, or 404 (also for a plan of another API). */
  async get(apiId: string, planId: string, db: Executor = this.db): Promise<PlanRow> {
    const plan = await findPlanById(db, planId);
    if (!plan || plan.api_id !== apiId) throw planNotFound(planId);
    return plan;
  }

  /** The plans of an API in their order, of some statuses and security types. */
  async list(apiId: string, query: PlanListQuery = {}): Promise<PlanRow[]> {
    await this.deps.apis.get(apiId);
    const statuses = query.statuses?.length ? query.statuses : undefined;
    const rows = await findPlansByApi(this.db, apiId, statuses);
    const security = query.security?.length ? new Set(query.security) : undefined;
    return security ? rows.filter((p) => security.has(p.security)) : rows;
  }

  /**
   * What a caller may see of an API's plans: `all` with api-plan-r; for visitors of an API they may see
   * (PUBLIC, or a member) the published plans not excluded for their groups (`groups`); others are
   * refused (401 anonymous, 403).
   */
  async viewOf(
    user: UserRow | undefined,
    apiId: string,
  ): Promise<{ all: true } | { all: false; groups: Set<string> }> {
    const api = await this.deps.apis.get(apiId);
    if (user && (await this.deps.permissions.has(user.id, READ_PLANS, apiId))) return { all: true };
    if (!isPubliclyVisible(api) && !(await this.deps.apis.isManageable(user, apiId))) {
      if (!user) throw unauthenticated();
      throw forbidden('api-plan-r');
    }
    const memberships = user ? await findMembershipsOfMember(this.db, 'USER', user.id) : [];
    return {
      all: false,
      groups: new Set(memberships.filter((m) => m.reference_type === 'GROUP').map((m) => m.reference_id)),
    };
  }

  /** `GET apis/{id}/plans` as the caller may see it; visitors do not get the security configuration. */
  async listVisible(user: UserRow | undefined, apiId: string, query: PlanListQuery): Promise<PlanRow[]> {
    const view = await this.viewOf(user, apiId);
    if (view.all) return this.list(apiId, query);
    if (query.statuses?.length && !query.statuses.includes('PUBLISHED')) return [];
    return (await this.list(apiId, { statuses: ['PUBLISHED'], security: query.security }))
      .filter((p) => !(JSON.parse(p.excluded_groups) as string[]).some((g) => view.groups.has(g)))
      .map((p) => ({ ...p, security_definition: null }));
  }

  /**
   * A consumer subscribing one of their applications: the plan must be one they may see (400 naming
   * `plan` otherwise, as for an unknown plan).
   */
  async assertSubscribableBy(user: UserRow, planId: string): Promise<void> {
    const plan = await findPlanById(this.db, planId);
    if (!plan) return; // the subscription itself refuses an unknown plan
    const view = await this.viewOf(user, plan.api_id).catch((error: unknown) => {
      if (error instanceof DomainError && error.httpStatus === 403) return undefined;
      throw error;
    });
    const excluded =
      view !== undefined &&
      !view.all &&
      (JSON.parse(plan.excluded_groups) as string[]).some((g) => view.groups.has(g));
    if (!view || excluded) throw new ValidationError('plan', `The plan [${planId}] can not be found.`);
  }

  /** The security configuration as stored: JSON text checked against the schema of the security type. */
  private securityDefinition(security: PlanSecurity, text: string | null | undefined): string | null {
    if (text === undefined || text === null || text.trim() === '') {
      if (security === 'JWT' || security === 'OAUTH2')
        throw invalidField('securityDefinition', `A ${security} plan needs its security configuration.`);
      return null;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw invalidField('securityDefinition', 'The security configuration is not valid JSON.');
    }
    const schema = SECURITY_DEFINITIONS[security];
    if (schema) {
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw invalidField(['securityDefinition', ...issue.path].join('.'), issue.message);
      }
    }
    return JSON.stringify(json);
  }

  private async assertReferencesExist(
    db: Executor,
    fields: { excluded_groups?: string[] | undefined; tags?: string[] | undefined },
  ): Promise<void> {
    if (fields.excluded_groups?.length) {
      const known = new Set((await findGroupsByIds(db, fields.excluded_groups)).map((g) => g.id));
      const unknown = fields.excluded_groups.find((g) => !known.has(g));
      if (unknown !== undefined)
        throw invalidField('excluded_groups', `the group [${unknown}] does not exist`);
    }
    if (fields.tags?.length) {
      const known = new Set((await findAllTags(db)).map((t) => t.id));
      const unknown = fields.tags.find((t) => !known.has(t));
      if (unknown !== undefined) throw invalidField('tags', `the sharding tag [${unknown}] does not exist`);
    }
  }

  /** 400 when another plan of the API is a published or deprecated key-less plan. */
  private async assertNoOtherActiveKeyless(db: Executor, apiId: string, planId: string): Promise<void> {
    const active = await findPlansByApi(db, apiId, ACTIVE_PLAN_STATUSES);
    if (active.some((p) => p.id !== planId && p.security === 'KEY_LESS')) {
      throw planStateRefused(KEYLESS_PLAN_EXISTS);
    }
  }

  private async record(
    db: Executor,
    actor: UserRow,
    event: string,
    before: PlanRow | undefined,
    after: PlanRow | undefined,
  ): Promise<void> {
    const plan = (after ?? before)!;
    await this.deps.audit.record(db, {
      referenceType: 'API',
      referenceId: plan.api_id,
      userId: actor.id,
      event,
      properties: { PLAN: plan.id },
      before: before ? auditedPlan(before) : undefined,
      after: after ? auditedPlan(after) : undefined,
    });
  }

  /** `POST apis/{id}/plans`: a STAGING plan (or PUBLISHED when asked), last in the order. */
  async create(actor: UserRow, apiId: string, input: NewPlan): Promise<PlanRow> {
    const security = input.security;
    const securityDefinition = this.securityDefinition(security, input.securityDefinition);
    assertValidPaths(input.paths);
    return this.db.transaction().execute(async (trx) => {
      await this.deps.apis.get(apiId, trx);
      await this.assertReferencesExist(trx, input);
      const id = newId();
      const status = input.status ?? 'STAGING';
      if (status === 'PUBLISHED' && security === 'KEY_LESS')
        await this.assertNoOtherActiveKeyless(trx, apiId, id);
      const existing = await findPlansByApi(trx, apiId);
      const now = this.deps.now();
      await insertPlan(trx, {
        id,
        api_id: apiId,
        name: input.name,
        description: input.description,
        security,
        security_definition: securityDefinition,
        // A key-less plan has nobody to validate: its subscriptions are automatic.
        validation: security === 'KEY_LESS' ? 'AUTO' : input.validation,
        type: input.type,
        status,
        order: input.order ?? Math.max(0, ...existing.map((p) => p.order)) + 1,
        characteristics: JSON.stringify(input.characteristics),
        paths: JSON.stringify(input.paths),
        excluded_groups: JSON.stringify([...new Set(input.excluded_groups)]),
        comment_required: input.comment_required ? 1 : 0,
        comment_message: input.comment_message ?? null,
        tags: JSON.stringify([...new Set(input.tags)]),
        created_at: now,
        updated_at: now,
        published_at: status === 'PUBLISHED' ? now : null,
        closed_at: null,
      });
      const plan = await this.get(apiId, id, trx);
      await this.record(trx, actor, 'PLAN_CREATED', undefined, plan);
      return plan;
    });
  }

  /**
   * `PUT apis/{id}/plans/{planId}`: any field but the security type and the status; a closed plan
   * cannot change. Reordering saves each plan with its new order through this call.
   */
  async update(actor: UserRow, apiId: string, planId: string, changes: PlanUpdate): Promise<PlanRow> {
    if (changes.paths) assertValidPaths(changes.paths);
    return this.db.transaction().execute(async (trx) => {
      const plan = await this.get(apiId, planId, trx);
      if (plan.status === 'CLOSED') throw planStateRefused(PLAN_CLOSED);
      const security = plan.security as PlanSecurity;
      if (changes.security !== undefined && changes.security !== security)
        throw planRule('security', PLAN_SECURITY_FIXED);
      await this.assertReferencesExist(trx, changes);
      const columns: PlanRowUpdate = {};
      if (changes.name !== undefined) columns.name = changes.name;
      if (changes.description !== undefined) columns.description = changes.description;
      if (changes.validation !== undefined)
        columns.validation = security === 'KEY_LESS' ? 'AUTO' : changes.validation;
      if (changes.securityDefinition !== undefined)
        columns.security_definition = this.securityDefinition(security, changes.securityDefinition);
      if (changes.characteristics !== undefined)
        columns.characteristics = JSON.stringify(changes.characteristics);
      if (changes.type !== undefined) columns.type = changes.type;
      if (changes.paths !== undefined) columns.paths = JSON.stringify(changes.paths);
      if (changes.comment_required !== undefined) columns.comment_required = changes.comment_required ? 1 : 0;
      if (changes.comment_message !== undefined) columns.comment_message = changes.comment_message;
      if (changes.excluded_groups !== undefined)
        columns.excluded_groups = JSON.stringify([...new Set(changes.excluded_groups)]);
      if (changes.tags !== undefined) columns.tags = JSON.stringify([...new Set(changes.tags)]);
      if (changes.order !== undefined) columns.order = changes.order;
      await updatePlan(trx, planId, {
        ...columns,
        updated_at: Math.max(this.deps.now(), plan.updated_at + 1),
      });
      const updated = await this.get(apiId, planId, trx);
      await this.record(trx, actor, 'PLAN_UPDATED', plan, updated);
      return updated;
    });
  }

  /** Moves a plan from one status to the next, in one transaction with its audit entry. */
  private async transition(
    actor: UserRow,
    apiId: string,
    planId: string,
    event: string,
    check: (plan: PlanRow, trx: Executor) => Promise<void>,
    changes: (now: number) => PlanRowUpdate,
    more?: (trx: Executor, plan: PlanRow, after: AfterCommit) => Promise<void>,
  ): Promise<PlanRow> {
    const after = new AfterCommit();
    const updated = await this.db.transaction().execute(async (trx) => {
      const plan = await this.get(apiId, planId, trx);
      await check(plan, trx);
      const now = Math.max(this.deps.now(), plan.updated_at + 1);
      await updatePlan(trx, planId, { ...changes(now), updated_at: now });
      await more?.(trx, plan, after);
      const row = await this.get(apiId, planId, trx);
      await this.record(trx, actor, event, plan, row);
      return row;
    });
    await this.deps.subscriptions.flush(after);
    return updated;
  }

  /** `POST .../_publish`: STAGING → PUBLISHED; one published or deprecated key-less plan per API. */
  publish(actor: UserRow, apiId: string, planId: string): Promise<PlanRow> {
    return this.transition(
      actor,
      apiId,
      planId,
      'PLAN_PUBLISHED',
      async (plan, trx) => {
        if (plan.status !== 'STAGING') throw planStateRefused(PLAN_NOT_STAGING);
        if (plan.security === 'KEY_LESS') await this.assertNoOtherActiveKeyless(trx, apiId, planId);
      },
      (now) => ({ status: 'PUBLISHED', published_at: now }),
    );
  }

  /** `POST .../_depreciate`: PUBLISHED → DEPRECATED (still served, no new subscriptions). */
  deprecate(actor: UserRow, apiId: string, planId: string): Promise<PlanRow> {
    return this.transition(
      actor,
      apiId,
      planId,
      'PLAN_DEPRECATED',
      async (plan) => {
        if (plan.status !== 'PUBLISHED') throw planStateRefused(PLAN_NOT_PUBLISHED);
      },
      () => ({ status: 'DEPRECATED' }),
    );
  }

  /**
   * `POST .../_close`: any plan not closed → CLOSED, for good. Its accepted and paused subscriptions
   * are closed (keys revoked) and its pending ones rejected.
   */
  close(actor: UserRow, apiId: string, planId: string): Promise<PlanRow> {
    return this.transition(
      actor,
      apiId,
      planId,
      'PLAN_CLOSED',
      async (plan) => {
        if (plan.status === 'CLOSED') throw planStateRefused(PLAN_ALREADY_CLOSED);
      },
      (now) => ({ status: 'CLOSED', closed_at: now }),
      (trx, plan, after) => this.deps.subscriptions.closeAllOfPlan(trx, actor, plan, after),
    );
  }

  /** `DELETE apis/{id}/plans/{planId}`: refused while the plan has active subscriptions. */
  async delete(actor: UserRow, apiId: string, planId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const plan = await this.get(apiId, planId, trx);
      if ((await countSubscriptionsOfPlan(trx, planId, ACTIVE_SUBSCRIPTION_STATUSES)) > 0)
        throw planNotDeletable();
      await deletePlan(trx, planId);
      await this.record(trx, actor, 'PLAN_DELETED', plan, undefined);
    });
  }
}

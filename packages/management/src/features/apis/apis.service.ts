import type { ApiDefinition, NewApi } from '@portico/model';
import {
  ApiDefinition as ApiDefinitionSchema,
  PRIMARY_OWNER,
  forbidden,
  parsePermission,
} from '@portico/model';
import type { ApiRow, Database, EventBus, Executor, UserRow } from '@portico/storage';
import {
  findApiById,
  findContextPathClashes,
  findGroupsWithEventRule,
  findMembershipsOfReference,
  findUserById,
  insertApi,
  insertEvent,
  lockApiContextPaths,
  replaceApiContextPaths,
  upsertMembership,
  updateApi,
} from '@portico/storage';
import { healthChecksChanged } from '../health/health-check.rules.js';
import type { SaverRights } from './api-proxy-rights.js';
import { assertSaverRights, saverRights } from './api-proxy-rights.js';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import { insertDefaultNotificationSetting } from '../notification-settings/notification-defaults.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { validatePicture } from '../users/avatar.js';
import { newId } from '../../http/ids.js';
import { assertDeletable, deleteApiAndDependents } from './api-deletion.js';
import { listApisJson } from './api-list.js';
import { assertApiReferencesExist, tenantsOf } from './api-references.js';
import { loggingAuditEvent, withBoundedLogging } from './api-logging.js';
import type { Entrypoint } from './apis.definition.js';
import {
  definitionOf,
  entrypointsOf,
  newDefinition,
  normalizeDefinition,
  normalizePath,
  primaryContextPath,
  sameEntrypoints,
  validateDefinition,
} from './apis.definition.js';
import { apiNotFound, contextPathOwnerOnly, contextPathTaken } from './apis.errors.js';
import { apiEtag, auditedApi } from './apis.mapper.js';
import type { ApiChanges, ApiListQuery, ApiToInsert, Precondition } from './apis.types.js';

export type { ApiChanges, ApiListQuery, ApiToInsert, Precondition } from './apis.types.js';
export { ACTIVE_PLAN_STATUSES, ACTIVE_SUBSCRIPTION_STATUSES } from './apis.types.js';

const GATEWAY_DEFINITION_U = parsePermission('api-gateway_definition-u');
const HEALTH_CU = [parsePermission('api-health-c'), parsePermission('api-health-u')];

export interface ApiServiceDeps {
  db: Kysely<Database>;
  bus: EventBus;
  audit: AuditService;
  permissions: PermissionService;
  settings: SettingsService;
  now: () => number;
}

/**
 * The APIs: list and search, creation, general settings, deletion (lifecycle in ApiLifecycleService,
 * quality score in ApiQualityService). Every change runs in one transaction with its audit entry.
 */
export class ApiService {
  private readonly db: Kysely<Database>;

  constructor(private readonly deps: ApiServiceDeps) {
    this.db = deps.db;
  }

  /** The API, or 404. */
  async get(id: string, db: Executor = this.db): Promise<ApiRow> {
    const row = await findApiById(db, id);
    if (!row) throw apiNotFound(id);
    return row;
  }

  /** The user holding the PRIMARY_OWNER role on the API. */
  async primaryOwner(apiId: string, db: Executor = this.db): Promise<UserRow | undefined> {
    const membership = (await findMembershipsOfReference(db, 'API', apiId)).find(
      (m) => m.member_type === 'USER' && m.role_scope === 'API' && m.role_name === PRIMARY_OWNER,
    );
    return membership ? findUserById(db, membership.member_id) : undefined;
  }

  /** The APIs a caller may see (JSON array text, see `listApisJson`); stars while ratings are on. */
  async list(actor: UserRow | undefined, query: ApiListQuery, pictureUrlPrefix: string): Promise<string> {
    const ratings = (await this.deps.settings.value<boolean>('portal.rating.enabled')) === true;
    return listApisJson(this.deps, actor, query, pictureUrlPrefix, ratings);
  }

  /** Whether a user may manage an API (holds a role on it, directly or through a group; admins: all). */
  async isManageable(actor: UserRow | undefined, apiId: string): Promise<boolean> {
    if (!actor) return false;
    const permissions = await this.deps.permissions.referencePermissions(actor.id, 'API', apiId);
    return Object.values(permissions).some((rights) => rights.length > 0);
  }

  /** 400 when one of the entrypoints overlaps one of another API (the same path, a parent, a sub-path). */
  async assertEntrypointsFree(
    db: Executor,
    entries: Entrypoint[],
    excludeApiId?: string,
    field = 'context_path',
  ): Promise<void> {
    const clashes = await findContextPathClashes(db, entries, excludeApiId);
    if (clashes.length === 0) return;
    const taken = entries.find((e) => clashes.some((c) => c.host === e.host)) ?? entries[0]!;
    throw contextPathTaken(taken.path, field);
  }

  /** `POST apis/verify`: 400 when the context path is taken, including by a parent or a sub-path. */
  async verifyContextPath(contextPath: string, excludeApiId?: string): Promise<void> {
    await this.assertEntrypointsFree(this.db, [{ host: '', path: normalizePath(contextPath) }], excludeApiId);
  }

  /** `POST apis`: a STOPPED PRIVATE API with one endpoint; the creator becomes its primary owner. */
  async create(actor: UserRow, input: NewApi): Promise<ApiRow> {
    const id = newId();
    const definition = newDefinition({
      id,
      name: input.name,
      version: input.version,
      contextPath: input.context_path,
      endpoint: input.endpoint,
    });
    return this.db
      .transaction()
      .execute((trx) =>
        this.insertNew(trx, actor, { id, definition, description: input.description, visibility: 'PRIVATE' }),
      );
  }

  /**
   * Inserts a new API in the caller's transaction: checks its definition and entrypoints, adds the
   * groups that take every new API, makes the actor its primary owner, audits.
   */
  async insertNew(trx: Executor, actor: UserRow, given: ApiToInsert): Promise<ApiRow> {
    const normalized = normalizeDefinition(given.definition);
    const bounded = await withBoundedLogging(trx, this.deps.settings, normalized, this.deps.now());
    const api = { ...given, definition: bounded };
    validateDefinition(api.definition);
    const entrypoints = entrypointsOf(api.definition.proxy);
    await lockApiContextPaths(trx);
    await this.assertEntrypointsFree(trx, entrypoints, undefined, 'proxy.context_path');
    await assertApiReferencesExist(trx, {
      views: api.views ?? [],
      groups: api.groups ?? [],
      tags: api.definition.tags,
      tenants: tenantsOf(api.definition),
    });
    const defaultGroups = (await findGroupsWithEventRule(trx, 'API_CREATE')).map((g) => g.id);
    const groups = [...new Set([...(api.groups ?? []), ...defaultGroups])];
    const now = this.deps.now();
    await insertApi(trx, {
      id: api.id,
      ...this.definitionColumns(api.definition),
      description: api.description,
      state: api.state ?? 'STOPPED',
      visibility: api.visibility,
      lifecycle_state: api.lifecycle_state ?? 'CREATED',
      picture: api.picture ? validatePicture('picture', api.picture) : null,
      labels: JSON.stringify(api.labels ?? []),
      views: JSON.stringify(api.views ?? []),
      groups: JSON.stringify(groups),
      deployed_at: null,
      created_at: now,
      updated_at: now,
    });
    await replaceApiContextPaths(trx, api.id, entrypoints);
    await upsertMembership(trx, {
      id: newId(),
      member_id: actor.id,
      member_type: 'USER',
      reference_type: 'API',
      reference_id: api.id,
      role_scope: 'API',
      role_name: PRIMARY_OWNER,
      created_at: now,
      updated_at: now,
    });
    await insertDefaultNotificationSetting(trx, { type: 'API', id: api.id }, actor.id, now);
    const row = await this.get(api.id, trx);
    await this.deps.audit.record(trx, {
      referenceType: 'API',
      referenceId: api.id,
      userId: actor.id,
      event: 'API_CREATED',
      after: auditedApi(row),
    });
    await this.deps.audit.record(trx, {
      referenceType: 'API',
      referenceId: api.id,
      userId: actor.id,
      event: 'MEMBERSHIP_CREATED',
      properties: { USER: actor.id },
      after: { member: actor.id, role: PRIMARY_OWNER },
    });
    return row;
  }

  /** The columns that copy parts of the definition. */
  definitionColumns(definition: ApiDefinition) {
    return {
      name: definition.name,
      version: definition.version,
      context_path: primaryContextPath(definition.proxy),
      tags: JSON.stringify(definition.tags),
      definition: JSON.stringify(definition),
    };
  }

  /**
   * Whether the user may change the API's context path: its primary owner holding
   * api-gateway_definition-u, or an administrator.
   */
  async mayChangeContextPath(actor: UserRow, apiId: string): Promise<boolean> {
    const [access, owner] = await Promise.all([
      this.deps.permissions.access(actor.id),
      this.primaryOwner(apiId),
    ]);
    if (access.isAdmin) return true;
    return owner?.id === actor.id && (await this.deps.permissions.has(actor.id, GATEWAY_DEFINITION_U, apiId));
  }

  /** `PUT apis/{id}`: general settings and definition; the context path only for its owner. */
  async update(
    actor: UserRow,
    id: string,
    changes: ApiChanges,
    precondition?: Precondition,
    event: 'API_UPDATED' | 'API_ROLLBACKED' = 'API_UPDATED',
  ): Promise<ApiRow> {
    // Asked before the transaction: SQLite has one connection, busy while the transaction runs.
    const mayChangeContextPath = await this.mayChangeContextPath(actor, id);
    const { isAdmin } = await this.deps.permissions.access(actor.id);
    const mayChangeHealth =
      isAdmin ||
      (await this.deps.permissions.has(actor.id, HEALTH_CU[0]!, id)) ||
      (await this.deps.permissions.has(actor.id, HEALTH_CU[1]!, id));
    const who = { actor: actor.id, api: id, isAdmin };
    const saver = await saverRights(this.deps.permissions, this.db, who, changes);
    return this.db.transaction().execute((trx) =>
      this.applyChanges(trx, actor, id, changes, {
        mayChangeContextPath,
        mayChangeHealth,
        saver,
        precondition,
        event,
      }),
    );
  }

  /** Changes an API in the caller's transaction (the update, the rollback, the import over an API). */
  async applyChanges(
    trx: Executor,
    actor: UserRow,
    id: string,
    changes: ApiChanges,
    options: {
      mayChangeContextPath: boolean;
      /** api-health-c or api-health-u: may change a health-check configuration (default: yes). */
      mayChangeHealth?: boolean;
      /** api-discovery-c, api-response_templates-c/u/d, usable sharding tags (default: all). */
      saver?: SaverRights;
      precondition?: Precondition | undefined;
      event: 'API_UPDATED' | 'API_ROLLBACKED';
    },
  ): Promise<ApiRow> {
    const row = await this.get(id, trx);
    options.precondition?.(apiEtag(row));
    const current = definitionOf(row);
    const changed = normalizeDefinition(
      ApiDefinitionSchema.parse({
        ...current,
        name: changes.name ?? current.name,
        version: changes.version ?? current.version,
        tags: changes.tags ?? current.tags,
        proxy: changes.proxy ?? current.proxy,
        paths: changes.paths ?? current.paths,
        properties: changes.properties ?? current.properties,
        services: changes.services ?? current.services,
        resources: changes.resources ?? current.resources,
        path_mappings: changes.path_mappings ?? current.path_mappings,
        response_templates: changes.response_templates ?? current.response_templates,
      }),
    );
    // A logging configuration saved (or rolled back to) ends within the maximum logging duration.
    const definition = changes.proxy
      ? await withBoundedLogging(trx, this.deps.settings, changed, this.deps.now())
      : changed;
    validateDefinition(definition);
    if (options.mayChangeHealth === false && healthChecksChanged(current, definition))
      throw forbidden('api-health-u');
    if (options.saver) assertSaverRights(options.saver, current, definition);
    const before = entrypointsOf(current.proxy);
    const after = entrypointsOf(definition.proxy);
    const entrypointsChanged = !sameEntrypoints(before, after);
    if (entrypointsChanged) {
      if (!options.mayChangeContextPath) throw contextPathOwnerOnly();
      await lockApiContextPaths(trx);
      await this.assertEntrypointsFree(trx, after, id, 'proxy.context_path');
    }
    // Tags already on the API stay (an imported API may carry tags this installation does not know).
    if (changes.tags)
      await assertApiReferencesExist(trx, { tags: changes.tags.filter((t) => !current.tags.includes(t)) });
    if (changes.groups) await assertApiReferencesExist(trx, { groups: changes.groups });
    // Views and tenants newly given must exist (those already on the API stay).
    await assertApiReferencesExist(trx, {
      views: (changes.views ?? []).filter((v) => !(JSON.parse(row.views) as string[]).includes(v)),
      tenants: tenantsOf(definition).filter((t) => !tenantsOf(current).includes(t)),
    });
    const picture =
      changes.picture === undefined
        ? undefined
        : changes.picture === null
          ? null
          : changes.picture === row.picture
            ? row.picture
            : validatePicture('picture', changes.picture);
    await updateApi(trx, id, {
      ...this.definitionColumns(definition),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.visibility !== undefined ? { visibility: changes.visibility } : {}),
      ...(changes.lifecycle_state !== undefined ? { lifecycle_state: changes.lifecycle_state } : {}),
      ...(changes.labels !== undefined ? { labels: JSON.stringify(changes.labels) } : {}),
      ...(changes.views !== undefined ? { views: JSON.stringify(changes.views) } : {}),
      ...(changes.groups !== undefined ? { groups: JSON.stringify([...new Set(changes.groups)]) } : {}),
      ...(picture !== undefined ? { picture } : {}),
      updated_at: Math.max(this.deps.now(), row.updated_at + 1),
    });
    if (entrypointsChanged) await replaceApiContextPaths(trx, id, after);
    const updated = await this.get(id, trx);
    await this.deps.audit.record(trx, {
      referenceType: 'API',
      referenceId: id,
      userId: actor.id,
      event: options.event,
      before: auditedApi(row),
      after: auditedApi(updated),
    });
    // With the audit trail of the logging on (logging.audit.trail.enabled), a change of the logging is
    // audited on its own (API_LOGGING_ENABLED, _DISABLED, _UPDATED).
    const loggingEvent = loggingAuditEvent(current.proxy.logging, definition.proxy.logging);
    if (loggingEvent && (await this.deps.settings.values(trx)).get('logging.audit.trail.enabled') === true) {
      await this.deps.audit.record(trx, {
        referenceType: 'API',
        referenceId: id,
        userId: actor.id,
        event: loggingEvent,
        before: current.proxy.logging ?? {},
        after: definition.proxy.logging ?? {},
      });
    }
    return updated;
  }

  /**
   * `DELETE apis/{id}`: only a stopped API without published or deprecated plans and without
   * accepted, pending or paused subscriptions. Its plans, pages, metadata and members go with it;
   * gateways that served it are told to drop it.
   */
  async delete(actor: UserRow, id: string): Promise<void> {
    const unpublished = await this.db.transaction().execute(async (trx) => {
      const row = await this.get(id, trx);
      await assertDeletable(trx, row);
      await deleteApiAndDependents(trx, id);
      const now = this.deps.now();
      if (row.deployed_at !== null) {
        await insertEvent(trx, {
          id: newId(),
          type: 'UNPUBLISH_API',
          payload: JSON.stringify({ id, name: row.name, version: row.version }),
          properties: '{}',
          api_id: id,
          user_id: actor.id,
          created_at: now,
          updated_at: now,
        });
      }
      await this.deps.audit.record(trx, {
        referenceType: 'API',
        referenceId: id,
        userId: actor.id,
        event: 'API_DELETED',
        before: auditedApi(row),
      });
      return row.deployed_at !== null;
    });
    if (unpublished) this.deps.bus.publish({ kind: 'event', id: 'UNPUBLISH_API', apiId: id });
  }
}

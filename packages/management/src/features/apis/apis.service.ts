import type {
  ApiDefinition,
  ApiVisibility,
  NewApi,
  Paths,
  Property,
  Proxy,
  Resource,
  ResponseTemplates,
  Services,
} from '@portico/model';
import {
  ApiDefinition as ApiDefinitionSchema,
  DeployedApi as DeployedApiSchema,
  PRIMARY_OWNER,
  forbidden,
  invalidField,
  parsePermission,
} from '@portico/model';
import type {
  ApiListFilter,
  ApiListOptions,
  ApiListOrder,
  ApiRow,
  Database,
  EventBus,
  Executor,
  UserRow,
} from '@portico/storage';
import {
  countSubscriptionsOfApi,
  deleteApi,
  deleteNotificationSettingsOf,
  deleteMembershipsOfReference,
  deleteMetadata,
  deletePagesOfReference,
  deletePlansOfApi,
  deleteTopApi,
  findAllTags,
  findApiById,
  findApiByIdForUpdate,
  findApiListJson,
  findContextPathClashes,
  findEventsOfApi,
  findGroupsByIds,
  findGroupsWithEventRule,
  findLatestEventOfApi,
  findMembershipsOfMember,
  findMembershipsOfReference,
  findPagesOfReference,
  findPlansByApi,
  findUserById,
  findUsersByIds,
  insertApi,
  insertEvent,
  lockApiContextPaths,
  replaceApiContextPaths,
  upsertMembership,
  updateApi,
} from '@portico/storage';
import { discoveryChanged } from './api-discovery.js';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import { insertDefaultNotificationSetting } from '../notification-settings/notification-defaults.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { validatePicture } from '../users/avatar.js';
import { newId } from '../../http/ids.js';
import { assertApiReferencesExist, tenantsOf } from './api-references.js';
import { withBoundedLogging } from './api-logging.js';
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
import {
  API_ACTIVE_PLANS,
  API_ACTIVE_SUBSCRIPTIONS,
  API_RUNNING,
  apiAlreadyInState,
  apiNotDeletable,
  apiNotFound,
  contextPathOwnerOnly,
  contextPathTaken,
} from './apis.errors.js';
import { apiEtag, auditedApi, deploymentFingerprint, toDeployedApi, toEventJson } from './apis.mapper.js';

/** Checks the entity tag of the API about to change (the route's If-Match); throws 412 when stale. */
export type Precondition = (currentEtag: string) => void;

/** Plans the gateway serves, and those that keep an API from being deleted. */
export const ACTIVE_PLAN_STATUSES = ['PUBLISHED', 'DEPRECATED'];
/** Subscriptions that keep an API from being deleted. */
export const ACTIVE_SUBSCRIPTION_STATUSES = ['ACCEPTED', 'PENDING', 'PAUSED'];

/** `PUT apis/{id}`: every field optional; an absent field keeps its value. */
export interface ApiChanges {
  name?: string | undefined;
  version?: string | undefined;
  description?: string | undefined;
  visibility?: ApiVisibility | undefined;
  lifecycle_state?: string | undefined;
  labels?: string[] | undefined;
  views?: string[] | undefined;
  groups?: string[] | undefined;
  tags?: string[] | undefined;
  /** A data URL; null removes the picture. */
  picture?: string | null | undefined;
  proxy?: Proxy | undefined;
  paths?: Paths | undefined;
  properties?: Property[] | undefined;
  services?: Services | undefined;
  resources?: Resource[] | undefined;
  path_mappings?: string[] | undefined;
  response_templates?: ResponseTemplates | undefined;
}

/** A new API as the creation and the import give it. */
export interface ApiToInsert {
  id: string;
  definition: ApiDefinition;
  description: string | null;
  visibility: ApiVisibility;
  state?: 'STARTED' | 'STOPPED';
  lifecycle_state?: string;
  labels?: string[];
  views?: string[];
  groups?: string[];
  picture?: string | null;
}

export interface ApiListQuery {
  view?: string | undefined;
  group?: string | undefined;
  top?: boolean | undefined;
  text?: string | undefined;
  order?: ApiListOrder | undefined;
}

export interface QualityJson {
  score: number;
  metrics_passed: Record<string, boolean>;
}

const QUALITY_METRICS = [
  ['functional_documentation', 'apiQualityMetrics.functionalDocumentationWeight'],
  ['technical_documentation', 'apiQualityMetrics.technicalDocumentationWeight'],
  ['healthcheck', 'apiQualityMetrics.healthcheckWeight'],
  ['description', 'apiQualityMetrics.descriptionWeight'],
  ['logo', 'apiQualityMetrics.logoWeight'],
  ['views', 'apiQualityMetrics.viewsWeight'],
  ['labels', 'apiQualityMetrics.labelsWeight'],
] as const;

const GATEWAY_DEFINITION_U = parsePermission('api-gateway_definition-u');
const DISCOVERY_C = parsePermission('api-discovery-c');

export interface ApiServiceDeps {
  db: Kysely<Database>;
  bus: EventBus;
  audit: AuditService;
  permissions: PermissionService;
  settings: SettingsService;
  now: () => number;
}

/**
 * The APIs: list and search, creation, general settings, deletion, lifecycle (start, stop, deploy,
 * rollback, synchronization), events, quality score. Every change runs in one transaction with its
 * audit entry; gateways hear of deployments and state changes on the bus once they are committed.
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

  /** The API, its row locked until the end of the transaction `trx` (lifecycle changes). */
  private async getForUpdate(id: string, trx: Executor): Promise<ApiRow> {
    const row = await findApiByIdForUpdate(trx, id);
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

  /**
   * The APIs a caller may see, as a JSON array text, each with `manageable`: administrators see and
   * manage all; others see PUBLIC APIs and those they are members of (directly or through a group)
   * and manage the latter; anonymous callers see PUBLIC APIs.
   */
  async list(actor: UserRow | undefined, query: ApiListQuery, pictureUrlPrefix: string): Promise<string> {
    let visibleTo: ApiListFilter['visibleTo'] = { userId: null, groupIds: [] };
    let manageable: ApiListOptions['manageable'] = 'none';
    if (actor) {
      const [access, memberships] = await Promise.all([
        this.deps.permissions.access(actor.id),
        findMembershipsOfMember(this.db, 'USER', actor.id),
      ]);
      const groups = memberships.filter((m) => m.reference_type === 'GROUP');
      const managingGroups = [
        ...new Set(groups.filter((m) => m.role_scope === 'API').map((m) => m.reference_id)),
      ];
      visibleTo = access.isAdmin
        ? undefined
        : { userId: actor.id, groupIds: [...new Set(groups.map((m) => m.reference_id))] };
      manageable = access.isAdmin ? 'all' : { userId: actor.id, groupIds: managingGroups };
    }
    return findApiListJson(
      this.db,
      {
        visibleTo,
        view: query.view && query.view !== 'all' ? query.view : undefined,
        group: query.group,
        top: query.top,
        text: query.text,
        order: query.order,
      },
      { manageable, pictureUrlPrefix },
    );
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

  private async assertTagsExist(db: Executor, tags: readonly string[]): Promise<void> {
    if (tags.length === 0) return;
    const known = new Set((await findAllTags(db)).map((t) => t.id));
    const unknown = tags.find((t) => !known.has(t));
    if (unknown !== undefined) throw invalidField('tags', `the sharding tag [${unknown}] does not exist`);
  }

  private async assertGroupsExist(db: Executor, groups: readonly string[]): Promise<void> {
    if (groups.length === 0) return;
    const known = new Set((await findGroupsByIds(db, groups)).map((g) => g.id));
    const unknown = groups.find((g) => !known.has(g));
    if (unknown !== undefined) throw invalidField('groups', `the group [${unknown}] does not exist`);
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
    const mayChangeDiscovery =
      (await this.deps.permissions.access(actor.id)).isAdmin ||
      (await this.deps.permissions.has(actor.id, DISCOVERY_C, id));
    return this.db.transaction().execute((trx) =>
      this.applyChanges(trx, actor, id, changes, {
        mayChangeContextPath,
        mayChangeDiscovery,
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
      /** api-discovery-c: may change a group's service discovery (default: yes). */
      mayChangeDiscovery?: boolean;
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
    if (
      options.mayChangeDiscovery === false &&
      discoveryChanged(current.proxy.groups, definition.proxy.groups)
    )
      throw forbidden('api-discovery-c');
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
      await this.assertTagsExist(
        trx,
        changes.tags.filter((t) => !current.tags.includes(t)),
      );
    if (changes.groups) await this.assertGroupsExist(trx, changes.groups);
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
      if (row.state === 'STARTED') throw apiNotDeletable(API_RUNNING);
      if ((await findPlansByApi(trx, id, ACTIVE_PLAN_STATUSES)).length > 0) {
        throw apiNotDeletable(API_ACTIVE_PLANS);
      }
      if ((await countSubscriptionsOfApi(trx, id, ACTIVE_SUBSCRIPTION_STATUSES)) > 0) {
        throw apiNotDeletable(API_ACTIVE_SUBSCRIPTIONS);
      }
      await deletePlansOfApi(trx, id);
      await deletePagesOfReference(trx, 'API', id);
      await deleteMetadata(trx, 'API', id);
      await deleteMembershipsOfReference(trx, 'API', id);
      await deleteTopApi(trx, id);
      await replaceApiContextPaths(trx, id, []);
      await deleteApi(trx, id);
      await deleteNotificationSettingsOf(trx, 'API', id);
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

  /** `POST apis/{id}?action=START|STOP`: a START_API or STOP_API event the gateways apply at once. */
  async changeState(
    actor: UserRow,
    id: string,
    action: 'START' | 'STOP',
    precondition?: Precondition,
  ): Promise<ApiRow> {
    const state = action === 'START' ? 'STARTED' : 'STOPPED';
    const type = action === 'START' ? 'START_API' : 'STOP_API';
    const updated = await this.db.transaction().execute(async (trx) => {
      const row = await this.getForUpdate(id, trx);
      precondition?.(apiEtag(row));
      if (row.state === state) throw apiAlreadyInState(state);
      const now = Math.max(this.deps.now(), row.updated_at + 1);
      await updateApi(trx, id, { state, updated_at: now });
      await insertEvent(trx, {
        id: newId(),
        type,
        payload: JSON.stringify({ id, name: row.name, version: row.version, state }),
        properties: '{}',
        api_id: id,
        user_id: actor.id,
        created_at: now,
        updated_at: now,
      });
      const after = await this.get(id, trx);
      await this.deps.audit.record(trx, {
        referenceType: 'API',
        referenceId: id,
        userId: actor.id,
        event: action === 'START' ? 'API_STARTED' : 'API_STOPPED',
        before: { state: row.state },
        after: { state },
      });
      return after;
    });
    this.deps.bus.publish({ kind: 'event', id: type, apiId: id });
    return updated;
  }

  /**
   * `POST apis/{id}/deploy`: a PUBLISH_API event carrying the API as it is now with its published and
   * deprecated plans; the gateways serve exactly that. No actor: a deployment by the platform
   * (dynamic properties).
   */
  async deploy(actor: UserRow | undefined, id: string, label?: string): Promise<ApiRow> {
    const deployed = await this.db.transaction().execute(async (trx) => {
      // Locked: the state written into the payload is the one committed, not one a start or stop
      // committed meanwhile would override (the gateways apply the newest event).
      const row = await this.getForUpdate(id, trx);
      const plans = await findPlansByApi(trx, id, ACTIVE_PLAN_STATUSES);
      const now = Math.max(this.deps.now(), (row.deployed_at ?? 0) + 1);
      const payload = toDeployedApi(row, plans, now);
      await updateApi(trx, id, { deployed_at: now });
      await insertEvent(trx, {
        id: newId(),
        type: 'PUBLISH_API',
        payload: JSON.stringify(payload),
        properties: JSON.stringify(label ? { deployment_label: label } : {}),
        api_id: id,
        user_id: actor?.id ?? null,
        created_at: now,
        updated_at: now,
      });
      await this.deps.audit.record(trx, {
        referenceType: 'API',
        referenceId: id,
        userId: actor?.id,
        event: 'API_DEPLOYED',
        properties: label ? { DEPLOYMENT_LABEL: label } : {},
        before: { deployed_at: row.deployed_at },
        after: { deployed_at: now },
      });
      return this.get(id, trx);
    });
    this.deps.bus.publish({ kind: 'event', id: 'PUBLISH_API', apiId: id });
    return deployed;
  }

  /**
   * `GET apis/{id}/state`: whether the API and its published and deprecated plans are what the last
   * deployment carried (instants and running state aside). Never deployed: false.
   */
  async isSynchronized(id: string): Promise<boolean> {
    const row = await this.get(id);
    const last = await findLatestEventOfApi(this.db, id, 'PUBLISH_API');
    if (!last?.payload) return false;
    const deployed = DeployedApiSchema.safeParse(JSON.parse(last.payload));
    if (!deployed.success) return false;
    const plans = await findPlansByApi(this.db, id, ACTIVE_PLAN_STATUSES);
    return deploymentFingerprint(toDeployedApi(row, plans, 0)) === deploymentFingerprint(deployed.data);
  }

  /**
   * `POST apis/{id}/rollback`: restores the definition, description and visibility of an earlier
   * deployment (its id and instants ignored); the API is then out of sync until deployed.
   */
  async rollback(
    actor: UserRow,
    id: string,
    restored: {
      definition: ApiDefinition;
      description: string | null | undefined;
      visibility?: ApiVisibility;
    },
    precondition?: Precondition,
  ): Promise<ApiRow> {
    const { definition } = restored;
    return this.update(
      actor,
      id,
      {
        name: definition.name,
        version: definition.version,
        tags: definition.tags,
        proxy: definition.proxy,
        paths: definition.paths,
        properties: definition.properties,
        services: definition.services,
        resources: definition.resources,
        path_mappings: definition.path_mappings,
        response_templates: definition.response_templates,
        ...(restored.description !== undefined && restored.description !== null
          ? { description: restored.description }
          : {}),
        ...(restored.visibility ? { visibility: restored.visibility } : {}),
      },
      precondition,
      'API_ROLLBACKED',
    );
  }

  /** `GET apis/{id}/events?type=`: newest first, with the user who caused each. */
  async events(id: string, types: string[] | undefined) {
    await this.get(id);
    const rows = await findEventsOfApi(this.db, id, types);
    const userIds = [...new Set(rows.map((r) => r.user_id).filter((u): u is string => u !== null))];
    const users = new Map((await findUsersByIds(this.db, userIds)).map((u) => [u.id, u]));
    return rows.map((row) => toEventJson(row, users));
  }

  /**
   * `GET apis/{id}/quality`: the share of the weights of the metrics the API passes (0 to 1). Metrics
   * weighing 0 are unused and not reported.
   */
  async quality(id: string): Promise<QualityJson> {
    const row = await this.get(id);
    const definition = definitionOf(row);
    const settings = await this.deps.settings.values();
    const pages = await findPagesOfReference(this.db, 'API', id, { published: true });
    const endpointsChecked = definition.proxy.groups.some((g) =>
      g.endpoints.some((e) => e.healthcheck?.enabled === true && e.healthcheck.inherit !== true),
    );
    const minLength = Number(settings.get('apiQualityMetrics.descriptionMinLength') ?? 0);
    const passed: Record<(typeof QUALITY_METRICS)[number][0], boolean> = {
      functional_documentation: pages.some((p) => p.type === 'MARKDOWN'),
      technical_documentation: pages.some((p) => p.type === 'SWAGGER'),
      healthcheck: definition.services['health-check']?.enabled === true || endpointsChecked,
      description: (row.description ?? '').trim().length >= minLength,
      logo: row.picture !== null,
      views: (JSON.parse(row.views) as string[]).length >= 1,
      labels: (JSON.parse(row.labels) as string[]).length >= 1,
    };
    let total = 0;
    let score = 0;
    const metrics: Record<string, boolean> = {};
    for (const [metric, key] of QUALITY_METRICS) {
      const weight = Number(settings.get(key) ?? 0);
      if (!(weight > 0)) continue;
      total += weight;
      if (passed[metric]) score += weight;
      metrics[metric] = passed[metric];
    }
    return { score: total > 0 ? score / total : 0, metrics_passed: metrics };
  }
}

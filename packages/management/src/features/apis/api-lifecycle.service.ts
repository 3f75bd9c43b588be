import type { ApiDefinition, ApiVisibility } from '@portico/model';
import { DeployedApi as DeployedApiSchema } from '@portico/model';
import type { ApiRow, Database, EventBus, Executor, UserRow } from '@portico/storage';
import {
  findApiByIdForUpdate,
  findEventsOfApi,
  findLatestEventOfApi,
  findPlansByApi,
  findUsersByIds,
  insertEvent,
  updateApi,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import { newId } from '../../http/ids.js';
import { apiAlreadyInState, apiNotFound } from './apis.errors.js';
import { apiEtag, deploymentFingerprint, toDeployedApi, toEventJson } from './apis.mapper.js';
import type { ApiService, Precondition } from './apis.service.js';
import { ACTIVE_PLAN_STATUSES } from './apis.service.js';

export interface ApiLifecycleServiceDeps {
  db: Kysely<Database>;
  bus: EventBus;
  audit: AuditService;
  apis: Pick<ApiService, 'get' | 'update'>;
  now: () => number;
}

/**
 * The lifecycle of an API: start and stop, deployment, synchronization with the last deployment,
 * rollback, events. Start, stop and deploy lock the API's row for their transaction; gateways hear of
 * them on the bus once they are committed.
 */
export class ApiLifecycleService {
  constructor(private readonly deps: ApiLifecycleServiceDeps) {}

  /** The API, its row locked until the end of the transaction `trx` (lifecycle changes). */
  private async getForUpdate(id: string, trx: Executor): Promise<ApiRow> {
    const row = await findApiByIdForUpdate(trx, id);
    if (!row) throw apiNotFound(id);
    return row;
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
    const updated = await this.deps.db.transaction().execute(async (trx) => {
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
      const after = await this.deps.apis.get(id, trx);
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
    const deployed = await this.deps.db.transaction().execute(async (trx) => {
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
      return this.deps.apis.get(id, trx);
    });
    this.deps.bus.publish({ kind: 'event', id: 'PUBLISH_API', apiId: id });
    return deployed;
  }

  /**
   * `GET apis/{id}/state`: whether the API and its published and deprecated plans are what the last
   * deployment carried (instants and running state aside). Never deployed: false.
   */
  async isSynchronized(id: string): Promise<boolean> {
    const row = await this.deps.apis.get(id);
    const last = await findLatestEventOfApi(this.deps.db, id, 'PUBLISH_API');
    if (!last?.payload) return false;
    const deployed = DeployedApiSchema.safeParse(JSON.parse(last.payload));
    if (!deployed.success) return false;
    const plans = await findPlansByApi(this.deps.db, id, ACTIVE_PLAN_STATUSES);
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
    return this.deps.apis.update(
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
    await this.deps.apis.get(id);
    const rows = await findEventsOfApi(this.deps.db, id, types);
    const userIds = [...new Set(rows.map((r) => r.user_id).filter((u): u is string => u !== null))];
    const users = new Map((await findUsersByIds(this.deps.db, userIds)).map((u) => [u.id, u]));
    return rows.map((row) => toEventJson(row, users));
  }
}

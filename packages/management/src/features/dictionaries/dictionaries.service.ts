import type { DictionaryInput } from '@portico/model';
import { dictionaryIdFromName, invalidField } from '@portico/model';
import type { DictionaryRow, EventBus, Executor, UserRow } from '@portico/storage';
import {
  deleteDictionary,
  findAllDictionaries,
  findDictionaryById,
  insertDictionary,
  insertEvent,
  updateDictionary,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { Database } from '@portico/storage';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import {
  NOT_DEPLOYABLE,
  NOT_STARTABLE,
  NOT_UNDEPLOYABLE,
  dictionaryAlreadyExists,
  dictionaryAlreadyIn,
  dictionaryNotFound,
  dictionaryRefused,
  dictionaryTypeFixed,
} from './dictionaries.errors.js';
import { propertiesOf, toDictionaryJson } from './dictionaries.mapper.js';
import { compileSpecification } from '../http-provider/http-provider.js';

export interface DictionaryDeps {
  db: Kysely<Database>;
  bus: EventBus;
  audit: AuditService;
  now(): number;
}

type Actor = Pick<UserRow, 'id'> | undefined;

/** A specification that JSONata cannot parse is refused when saved, not at the first poll. */
function checkSpecification(input: DictionaryInput): void {
  if (input.type !== 'DYNAMIC' || !input.provider) return;
  try {
    compileSpecification(input.provider.configuration.specification);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalidField('provider.configuration.specification', `not a JSONata expression: ${reason}`);
  }
}

const sameProperties = (a: Record<string, string>, b: Record<string, string>) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] === a[k]);
};

/**
 * Dictionaries (console-applications-and-settings.md 2.3, 4): create, update (the type stays),
 * delete (undeploying first), deploy and undeploy (manual ones), start and stop (dynamic ones).
 * Deploying writes a PUBLISH_DICTIONARY event and the properties the gateways serve, in one
 * transaction; the gateways hear it on the bus once committed.
 */
export class DictionaryService {
  constructor(private readonly deps: DictionaryDeps) {}

  list(): Promise<DictionaryRow[]> {
    return findAllDictionaries(this.deps.db);
  }

  async get(id: string, db: Executor = this.deps.db): Promise<DictionaryRow> {
    const row = await findDictionaryById(db, id);
    if (!row) throw dictionaryNotFound(id);
    return row;
  }

  async create(actor: Actor, input: DictionaryInput): Promise<DictionaryRow> {
    checkSpecification(input);
    const id = dictionaryIdFromName(input.name) || newId();
    return this.deps.db.transaction().execute(async (trx) => {
      if (await findDictionaryById(trx, id)) throw dictionaryAlreadyExists(input.name);
      const now = this.deps.now();
      const dynamic = input.type === 'DYNAMIC';
      await insertDictionary(trx, {
        id,
        name: input.name,
        description: input.description ?? null,
        type: input.type,
        state: 'STOPPED',
        properties: JSON.stringify(dynamic ? {} : (input.properties ?? {})),
        provider: dynamic ? JSON.stringify(input.provider) : null,
        trigger_rate: dynamic ? input.trigger!.rate : null,
        trigger_unit: dynamic ? input.trigger!.unit : null,
        created_at: now,
        updated_at: now,
      });
      const row = await this.get(id, trx);
      await this.record(trx, actor, row, 'DICTIONARY_CREATED', undefined, toDictionaryJson(row));
      return row;
    });
  }

  async update(actor: Actor, id: string, input: DictionaryInput): Promise<DictionaryRow> {
    checkSpecification(input);
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await this.get(id, trx);
      if (input.type !== row.type) throw dictionaryTypeFixed();
      const dynamic = row.type === 'DYNAMIC';
      const provider = dynamic ? JSON.stringify(input.provider) : null;
      const providerChanged =
        dynamic &&
        (provider !== row.provider ||
          input.trigger!.rate !== row.trigger_rate ||
          input.trigger!.unit !== row.trigger_unit);
      await updateDictionary(trx, id, {
        name: input.name,
        description: input.description ?? null,
        properties: JSON.stringify(input.properties ?? propertiesOf(row)),
        provider,
        trigger_rate: dynamic ? input.trigger!.rate : null,
        trigger_unit: dynamic ? input.trigger!.unit : null,
        updated_at: Math.max(this.deps.now(), row.updated_at + 1),
        // A started dictionary whose provider or trigger changed is polled again at once.
        ...(providerChanged ? { next_poll_at: null } : {}),
      });
      const after = await this.get(id, trx);
      await this.record(
        trx,
        actor,
        after,
        'DICTIONARY_UPDATED',
        toDictionaryJson(row),
        toDictionaryJson(after),
      );
      return after;
    });
  }

  async delete(actor: Actor, id: string): Promise<void> {
    const unpublished = await this.deps.db.transaction().execute(async (trx) => {
      const row = await this.get(id, trx);
      const wasDeployed = row.deployed_properties !== null;
      if (wasDeployed) await this.writeDeployment(trx, actor, row, null, this.deps.now());
      await deleteDictionary(trx, id);
      await this.record(trx, actor, row, 'DICTIONARY_DELETED', toDictionaryJson(row), undefined);
      return wasDeployed;
    });
    if (unpublished) this.deps.bus.publish({ kind: 'event', id: 'UNPUBLISH_DICTIONARY' });
  }

  /** `POST {id}/_deploy`: the gateways serve the properties as they are now (manual dictionaries). */
  async deploy(actor: Actor, id: string): Promise<DictionaryRow> {
    const row = await this.get(id);
    if (row.type !== 'MANUAL') throw dictionaryRefused(NOT_DEPLOYABLE);
    return this.publish(actor, id, (current) => propertiesOf(current));
  }

  /** `POST {id}/_undeploy`: the gateways stop serving the dictionary (manual dictionaries). */
  async undeploy(actor: Actor, id: string): Promise<DictionaryRow> {
    const row = await this.get(id);
    if (row.type !== 'MANUAL') throw dictionaryRefused(NOT_UNDEPLOYABLE);
    return this.publish(actor, id, () => null);
  }

  /** `POST {id}?action=START|STOP`: whether a dynamic dictionary's provider is polled. */
  async changeState(actor: Actor, id: string, action: 'START' | 'STOP'): Promise<DictionaryRow> {
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await this.get(id, trx);
      if (row.type !== 'DYNAMIC') throw dictionaryRefused(NOT_STARTABLE);
      const state = action === 'START' ? 'STARTED' : 'STOPPED';
      if (row.state === state) throw dictionaryAlreadyIn(state);
      await updateDictionary(trx, id, {
        state,
        updated_at: Math.max(this.deps.now(), row.updated_at + 1),
        // Started: polled at the scheduler's next tick, then on the trigger.
        next_poll_at: null,
      });
      const after = await this.get(id, trx);
      await this.record(trx, actor, after, 'DICTIONARY_UPDATED', { state: row.state }, { state });
      return after;
    });
  }

  /**
   * What the provider of a dynamic dictionary gave: stored and deployed when it differs from the
   * properties held (or nothing was deployed yet). Returns whether anything changed.
   */
  async applyProviderProperties(id: string, properties: Record<string, string>): Promise<boolean> {
    const row = await findDictionaryById(this.deps.db, id);
    if (!row || row.type !== 'DYNAMIC') return false;
    if (sameProperties(propertiesOf(row), properties) && row.deployed_properties !== null) return false;
    await this.publish(undefined, id, () => properties, true);
    return true;
  }

  private async publish(
    actor: Actor,
    id: string,
    served: (row: DictionaryRow) => Record<string, string> | null,
    storeProperties = false,
  ): Promise<DictionaryRow> {
    let type = '';
    const after = await this.deps.db.transaction().execute(async (trx) => {
      const row = await this.get(id, trx);
      const properties = served(row);
      const now = Math.max(this.deps.now(), row.updated_at + 1);
      if (storeProperties && properties)
        await updateDictionary(trx, id, { properties: JSON.stringify(properties) });
      type = await this.writeDeployment(trx, actor, row, properties, now);
      const updated = await this.get(id, trx);
      await this.record(
        trx,
        actor,
        updated,
        properties ? 'DICTIONARY_DEPLOYED' : 'DICTIONARY_UNDEPLOYED',
        { deployed_at: row.deployed_at, properties: propertiesOf(row) },
        { deployed_at: updated.deployed_at, properties: propertiesOf(updated) },
      );
      return updated;
    });
    this.deps.bus.publish({ kind: 'event', id: type });
    return after;
  }

  /** The event and the served properties of a deployment (`properties`) or an undeployment (null). */
  private async writeDeployment(
    trx: Executor,
    actor: Actor,
    row: DictionaryRow,
    properties: Record<string, string> | null,
    now: number,
  ): Promise<string> {
    const type = properties ? 'PUBLISH_DICTIONARY' : 'UNPUBLISH_DICTIONARY';
    const event = await insertEvent(trx, {
      id: newId(),
      type,
      payload: JSON.stringify({ id: row.id, name: row.name, properties: properties ?? {}, deployed_at: now }),
      properties: JSON.stringify({ dictionary_id: row.id }),
      api_id: null,
      user_id: actor?.id ?? null,
      created_at: now,
      updated_at: now,
    });
    await updateDictionary(trx, row.id, {
      updated_at: now,
      ...(properties ? { deployed_at: now } : {}),
      deployed_properties: properties ? JSON.stringify(properties) : null,
      deploy_seq: event.seq,
    });
    return type;
  }

  private record(
    trx: Executor,
    actor: Actor,
    row: DictionaryRow,
    event: string,
    before: unknown,
    after: unknown,
  ): Promise<void> {
    return this.deps.audit.record(trx, {
      referenceType: 'ENVIRONMENT',
      referenceId: 'DEFAULT',
      userId: actor?.id,
      event,
      properties: { DICTIONARY: row.id },
      before,
      after,
    });
  }
}

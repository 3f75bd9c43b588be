import type { MetadataInput } from '@portico/model';
import { invalidField, metadataKeyOf } from '@portico/model';
import type { Database, MetadataRow, UserRow } from '@portico/storage';
import {
  deleteMetadata,
  findMetadata,
  findMetadataOfReference,
  insertMetadata,
  updateMetadata,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import { metadataExists, metadataNotFound } from './apis.errors.js';
import type { ApiService } from './apis.service.js';

/** The platform's default metadata, which every API inherits. */
export const DEFAULT_METADATA_REFERENCE = { type: 'DEFAULT', id: 'DEFAULT' } as const;

export interface MetadataJson {
  key: string;
  name: string;
  format: string;
  /** The API's own value; null when the API keeps the default. */
  value: string | null;
  /** The value of the platform's default of this key, if there is one. */
  defaultValue: string | null;
  apiId: string;
}

export interface ApiMetadataDeps {
  db: Kysely<Database>;
  apis: ApiService;
  audit: AuditService;
  now: () => number;
}

/**
 * The metadata of an API: its own entries over the platform's defaults. Writing a key that only has
 * a default creates the API's own entry; deleting it brings the default back.
 */
export class ApiMetadataService {
  private readonly db: Kysely<Database>;

  constructor(private readonly deps: ApiMetadataDeps) {
    this.db = deps.db;
  }

  private static toJson(
    apiId: string,
    own: MetadataRow | undefined,
    fallback: MetadataRow | undefined,
  ): MetadataJson {
    const base = (own ?? fallback)!;
    return {
      key: base.key,
      name: base.name,
      format: base.format,
      value: own ? own.value : null,
      defaultValue: fallback ? fallback.value : null,
      apiId,
    };
  }

  private async defaults(): Promise<Map<string, MetadataRow>> {
    const rows = await findMetadataOfReference(
      this.db,
      DEFAULT_METADATA_REFERENCE.type,
      DEFAULT_METADATA_REFERENCE.id,
    );
    return new Map(rows.map((r) => [r.key, r]));
  }

  async list(apiId: string): Promise<MetadataJson[]> {
    await this.deps.apis.get(apiId);
    const own = new Map((await findMetadataOfReference(this.db, 'API', apiId)).map((r) => [r.key, r]));
    const defaults = await this.defaults();
    const keys = [...new Set([...own.keys(), ...defaults.keys()])].sort();
    return keys.map((k) => ApiMetadataService.toJson(apiId, own.get(k), defaults.get(k)));
  }

  async get(apiId: string, key: string): Promise<MetadataJson> {
    await this.deps.apis.get(apiId);
    const own = await findMetadata(this.db, 'API', apiId, key);
    const fallback = (await this.defaults()).get(key);
    if (!own && !fallback) throw metadataNotFound(key);
    return ApiMetadataService.toJson(apiId, own, fallback);
  }

  /** `POST apis/{id}/metadata`: the key comes from the name unless given. */
  async create(actor: UserRow, apiId: string, input: MetadataInput): Promise<MetadataJson> {
    await this.deps.apis.get(apiId);
    const key = metadataKeyOf(input.key || input.name);
    if (!key) throw invalidField('name', 'the name needs at least one letter or digit');
    const fallback = (await this.defaults()).get(key);
    return this.db.transaction().execute(async (trx) => {
      if (await findMetadata(trx, 'API', apiId, key)) throw metadataExists(key);
      const now = this.deps.now();
      const row: MetadataRow = {
        reference_type: 'API',
        reference_id: apiId,
        key,
        name: input.name,
        format: input.format,
        value: input.value ?? null,
        created_at: now,
        updated_at: now,
      };
      await insertMetadata(trx, row);
      await this.deps.audit.record(trx, {
        referenceType: 'API',
        referenceId: apiId,
        userId: actor.id,
        event: 'METADATA_CREATED',
        properties: { METADATA: key },
        after: { key, name: row.name, format: row.format, value: row.value },
      });
      return ApiMetadataService.toJson(apiId, row, fallback);
    });
  }

  /** `PUT apis/{id}/metadata/{key}`: a key with only a default gets the API's own entry. */
  async update(actor: UserRow, apiId: string, key: string, input: MetadataInput): Promise<MetadataJson> {
    await this.deps.apis.get(apiId);
    const fallback = (await this.defaults()).get(key);
    return this.db.transaction().execute(async (trx) => {
      const own = await findMetadata(trx, 'API', apiId, key);
      if (!own && !fallback) throw metadataNotFound(key);
      const now = this.deps.now();
      const row: MetadataRow = {
        reference_type: 'API',
        reference_id: apiId,
        key,
        name: input.name,
        format: input.format,
        value: input.value ?? null,
        created_at: own?.created_at ?? now,
        updated_at: now,
      };
      if (own) {
        await updateMetadata(
          trx,
          { referenceType: 'API', referenceId: apiId, key },
          { name: row.name, format: row.format, value: row.value, updated_at: now },
        );
      } else {
        await insertMetadata(trx, row);
      }
      await this.deps.audit.record(trx, {
        referenceType: 'API',
        referenceId: apiId,
        userId: actor.id,
        event: own ? 'METADATA_UPDATED' : 'METADATA_CREATED',
        properties: { METADATA: key },
        before: own ? { key, name: own.name, format: own.format, value: own.value } : undefined,
        after: { key, name: row.name, format: row.format, value: row.value },
      });
      return ApiMetadataService.toJson(apiId, row, fallback);
    });
  }

  async delete(actor: UserRow, apiId: string, key: string): Promise<void> {
    await this.deps.apis.get(apiId);
    await this.db.transaction().execute(async (trx) => {
      const own = await findMetadata(trx, 'API', apiId, key);
      if (!own) throw metadataNotFound(key);
      await deleteMetadata(trx, 'API', apiId, key);
      await this.deps.audit.record(trx, {
        referenceType: 'API',
        referenceId: apiId,
        userId: actor.id,
        event: 'METADATA_DELETED',
        properties: { METADATA: key },
        before: { key, name: own.name, format: own.format, value: own.value },
      });
    });
  }
}

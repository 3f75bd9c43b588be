import type { Kysely } from 'kysely';
import type { MetadataInput } from '@portico/model';
import { invalidField, metadataKeyOf, notFound } from '@portico/model';
import type { Database, Executor, MetadataRow, UserRow } from '@portico/storage';
import {
  deleteMetadata,
  findMetadata,
  findMetadataOfReference,
  insertMetadata,
  updateMetadata,
} from '@portico/storage';
import type { AuditService } from '../audit/audit.service.js';
import { DEFAULT_METADATA_REFERENCE as REF } from '../apis/api-metadata.service.js';

/** The platform's global metadata: the defaults every API inherits (`configuration/metadata`). */
export class PortalMetadataService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: () => number,
  ) {}

  list(): Promise<MetadataRow[]> {
    return findMetadataOfReference(this.db, REF.type, REF.id);
  }

  async create(actor: UserRow, input: MetadataInput): Promise<MetadataRow> {
    const key = metadataKeyOf(input.key || input.name);
    if (!key) throw invalidField('name', 'the name needs at least one letter or digit');
    return this.db.transaction().execute(async (trx) => {
      if (await findMetadata(trx, REF.type, REF.id, key))
        throw invalidField('key', `a metadata with the key [${key}] already exists`);
      const now = this.now();
      const row: MetadataRow = {
        reference_type: REF.type,
        reference_id: REF.id,
        key,
        name: input.name,
        format: input.format,
        value: input.value ?? null,
        created_at: now,
        updated_at: now,
      };
      await insertMetadata(trx, row);
      await this.record(trx, actor, 'METADATA_CREATED', key, undefined, row);
      return row;
    });
  }

  async update(actor: UserRow, key: string, input: MetadataInput): Promise<MetadataRow> {
    return this.db.transaction().execute(async (trx) => {
      const before = await findMetadata(trx, REF.type, REF.id, key);
      if (!before) throw notFound('Metadata', key);
      const now = Math.max(this.now(), before.updated_at + 1);
      const changes = { name: input.name, format: input.format, value: input.value ?? null, updated_at: now };
      await updateMetadata(trx, { referenceType: REF.type, referenceId: REF.id, key }, changes);
      const after = { ...before, ...changes };
      await this.record(trx, actor, 'METADATA_UPDATED', key, before, after);
      return after;
    });
  }

  async delete(actor: UserRow, key: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const before = await findMetadata(trx, REF.type, REF.id, key);
      if (!before) throw notFound('Metadata', key);
      await deleteMetadata(trx, REF.type, REF.id, key);
      await this.record(trx, actor, 'METADATA_DELETED', key, before, undefined);
    });
  }

  private record(db: Executor, actor: UserRow, event: string, key: string, before: unknown, after: unknown) {
    return this.audit.record(db, {
      referenceType: 'ENVIRONMENT',
      referenceId: 'DEFAULT',
      userId: actor.id,
      event,
      properties: { METADATA: key },
      before,
      after,
    });
  }
}

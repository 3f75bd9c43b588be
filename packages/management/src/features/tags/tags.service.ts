import type { Kysely } from 'kysely';
import { conflict, invalidField, notFound } from '@portico/model';
import type { Database, EntrypointRow, Executor, TagRow, UserRow } from '@portico/storage';
import {
  deleteEntrypoint,
  deleteTag,
  findAllEntrypoints,
  findAllTags,
  findEntrypoint,
  findGroupsByIds,
  findTag,
  insertEntrypoint,
  insertTag,
  updateEntrypoint,
  updateTag,
} from '@portico/storage';
import type { AuditService } from '../audit/audit.service.js';
import { idFromName, newId } from '../../http/ids.js';

export interface TagInput {
  name: string;
  description?: string | null | undefined;
  restricted_groups?: string[] | undefined;
}

export interface EntrypointInput {
  value: string;
  tags: string[];
}

/** Sharding tags (restricted to groups) and the entrypoints mapped to them. */
export class TagsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
  ) {}

  listTags(): Promise<TagRow[]> {
    return findAllTags(this.db);
  }

  async getTag(id: string): Promise<TagRow> {
    const tag = await findTag(this.db, id);
    if (!tag) throw notFound('Tag', id);
    return tag;
  }

  async createTag(actor: UserRow, input: TagInput): Promise<TagRow> {
    const id = idFromName(input.name);
    return this.db.transaction().execute(async (trx) => {
      if (await findTag(trx, id)) throw conflict(`A sharding tag with the id [${id}] already exists.`);
      await assertGroupsExist(trx, input.restricted_groups ?? []);
      const row = {
        id,
        name: input.name,
        description: input.description ?? null,
        restricted_groups: JSON.stringify(input.restricted_groups ?? []),
      };
      await insertTag(trx, row);
      await this.record(trx, actor, 'TAG_CREATED', { TAG: id }, undefined, row);
      return row;
    });
  }

  async updateTag(actor: UserRow, id: string, input: TagInput): Promise<TagRow> {
    return this.db.transaction().execute(async (trx) => {
      const before = await findTag(trx, id);
      if (!before) throw notFound('Tag', id);
      await assertGroupsExist(trx, input.restricted_groups ?? []);
      const row = {
        id,
        name: input.name,
        description: input.description ?? null,
        restricted_groups: JSON.stringify(input.restricted_groups ?? []),
      };
      await updateTag(trx, id, row);
      await this.record(trx, actor, 'TAG_UPDATED', { TAG: id }, before, row);
      return row;
    });
  }

  /** Deletes a tag and takes it off the entrypoints (an entrypoint left without tags goes too). */
  async deleteTag(actor: UserRow, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const before = await findTag(trx, id);
      if (!before) throw notFound('Tag', id);
      await deleteTag(trx, id);
      for (const entrypoint of await findAllEntrypoints(trx)) {
        const tags = JSON.parse(entrypoint.tags) as string[];
        if (!tags.includes(id)) continue;
        const left = tags.filter((t) => t !== id);
        if (left.length === 0) await deleteEntrypoint(trx, entrypoint.id);
        else
          await updateEntrypoint(trx, entrypoint.id, { value: entrypoint.value, tags: JSON.stringify(left) });
      }
      await this.record(trx, actor, 'TAG_DELETED', { TAG: id }, before, undefined);
    });
  }

  listEntrypoints(): Promise<EntrypointRow[]> {
    return findAllEntrypoints(this.db);
  }

  async getEntrypoint(id: string): Promise<EntrypointRow> {
    const row = await findEntrypoint(this.db, id);
    if (!row) throw notFound('Entrypoint', id);
    return row;
  }

  async createEntrypoint(actor: UserRow, input: EntrypointInput): Promise<EntrypointRow> {
    return this.db.transaction().execute(async (trx) => {
      await assertTagsExist(trx, input.tags, 'tags');
      const row = { id: newId(), value: input.value, tags: JSON.stringify([...new Set(input.tags)]) };
      await insertEntrypoint(trx, row);
      await this.record(trx, actor, 'ENTRYPOINT_CREATED', { ENTRYPOINT: row.id }, undefined, row);
      return row;
    });
  }

  async updateEntrypoint(actor: UserRow, id: string, input: EntrypointInput): Promise<EntrypointRow> {
    return this.db.transaction().execute(async (trx) => {
      const before = await findEntrypoint(trx, id);
      if (!before) throw notFound('Entrypoint', id);
      await assertTagsExist(trx, input.tags, 'tags');
      const row = { id, value: input.value, tags: JSON.stringify([...new Set(input.tags)]) };
      await updateEntrypoint(trx, id, row);
      await this.record(trx, actor, 'ENTRYPOINT_UPDATED', { ENTRYPOINT: id }, before, row);
      return row;
    });
  }

  async deleteEntrypoint(actor: UserRow, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const before = await findEntrypoint(trx, id);
      if (!before) throw notFound('Entrypoint', id);
      await deleteEntrypoint(trx, id);
      await this.record(trx, actor, 'ENTRYPOINT_DELETED', { ENTRYPOINT: id }, before, undefined);
    });
  }

  private record(
    db: Executor,
    actor: UserRow,
    event: string,
    properties: Record<string, string>,
    before: unknown,
    after: unknown,
  ) {
    return this.audit.record(db, {
      referenceType: 'ENVIRONMENT',
      referenceId: 'DEFAULT',
      userId: actor.id,
      event,
      properties,
      before,
      after,
    });
  }
}

/** 400 naming `field` when a sharding tag does not exist. */
export async function assertTagsExist(db: Executor, ids: readonly string[], field: string): Promise<void> {
  if (ids.length === 0) return;
  const known = new Set((await findAllTags(db)).map((t) => t.id));
  const unknown = ids.find((t) => !known.has(t));
  if (unknown !== undefined) throw invalidField(field, `the sharding tag [${unknown}] does not exist`);
}

async function assertGroupsExist(db: Executor, ids: readonly string[]): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const known = new Set((await findGroupsByIds(db, wanted)).map((g) => g.id));
  const unknown = wanted.find((g) => !known.has(g));
  if (unknown !== undefined) throw invalidField('restricted_groups', `the group [${unknown}] does not exist`);
}

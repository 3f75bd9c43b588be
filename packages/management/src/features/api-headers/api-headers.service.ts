import type { Kysely } from 'kysely';
import { notFound } from '@portico/model';
import type { ApiHeaderRow, ApiRow, Database, Executor, UserRow } from '@portico/storage';
import {
  deleteApiHeader,
  findAllApiHeaders,
  findMetadataOfReference,
  insertApiHeader,
  updateApiHeader,
} from '@portico/storage';
import type { AuditService } from '../audit/audit.service.js';
import { newId } from '../../http/ids.js';

/** What a header's value may name: `${api.name}`, `${api.primaryOwner.displayName}`, `${api.metadata['key']}`. */
export interface ApiTemplateModel {
  api: ApiRow;
  owner: { displayName: string; email: string | null } | undefined;
  metadata: Record<string, string | null>;
}

const day = (epoch: number | null) => (epoch ? new Date(epoch).toISOString().slice(0, 10) : '');

/** Resolves `${api....}` placeholders of a header value; unknown ones become empty. */
export function resolveHeaderValue(template: string, model: ApiTemplateModel): string {
  const { api, owner, metadata } = model;
  const fields: Record<string, string> = {
    'api.id': api.id,
    'api.name': api.name,
    'api.version': api.version,
    'api.description': api.description ?? '',
    'api.contextPath': api.context_path,
    'api.visibility': api.visibility,
    'api.primaryOwner.displayName': owner?.displayName ?? '',
    'api.primaryOwner.email': owner?.email ?? '',
    'api.createdAt': day(api.created_at),
    'api.updatedAt': day(api.updated_at),
    'api.deployedAt': day(api.deployed_at),
  };
  return template
    .replace(/\$\{\s*([^}]+?)\s*\}/g, (_all, path: string) => {
      const meta = /^api\.metadata(?:\[['"](.+)['"]\]|\.(.+))$/.exec(path);
      if (meta) return metadata[meta[1] ?? meta[2]!] ?? '';
      return fields[path.replace(/\?date$/, '')] ?? '';
    })
    .trim();
}

/** The API portal headers (`configuration/apiheaders`) and their values for one API. */
export class ApiHeadersService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: () => number,
  ) {}

  list(): Promise<ApiHeaderRow[]> {
    return findAllApiHeaders(this.db);
  }

  async create(actor: UserRow, input: { name: string; value: string }): Promise<ApiHeaderRow> {
    return this.db.transaction().execute(async (trx) => {
      const all = await findAllApiHeaders(trx);
      const now = this.now();
      const row = { id: newId(), ...input, order: all.length + 1, created_at: now, updated_at: now };
      await insertApiHeader(trx, row);
      await this.record(trx, actor, 'API_HEADER_CREATED', row.id, undefined, row);
      return row;
    });
  }

  /** Updates a header; a new order moves it there and renumbers the others 1..n. */
  async update(
    actor: UserRow,
    id: string,
    input: { name: string; value: string; order?: number | undefined },
  ): Promise<ApiHeaderRow> {
    return this.db.transaction().execute(async (trx) => {
      const all = await findAllApiHeaders(trx);
      const before = all.find((h) => h.id === id);
      if (!before) throw notFound('API header', id);
      const now = Math.max(this.now(), before.updated_at + 1);
      await updateApiHeader(trx, id, { name: input.name, value: input.value, updated_at: now });
      if (input.order !== undefined && input.order !== before.order) {
        const others = all.filter((h) => h.id !== id);
        const at = Math.min(Math.max(input.order, 1), all.length) - 1;
        others.splice(at, 0, before);
        for (const [index, header] of others.entries())
          if (header.order !== index + 1)
            await updateApiHeader(trx, header.id, { order: index + 1, updated_at: now });
      }
      const after = (await findAllApiHeaders(trx)).find((h) => h.id === id)!;
      await this.record(trx, actor, 'API_HEADER_UPDATED', id, before, after);
      return after;
    });
  }

  async delete(actor: UserRow, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const all = await findAllApiHeaders(trx);
      const before = all.find((h) => h.id === id);
      if (!before) throw notFound('API header', id);
      await deleteApiHeader(trx, id);
      const now = this.now();
      for (const [index, header] of all.filter((h) => h.id !== id).entries())
        if (header.order !== index + 1)
          await updateApiHeader(trx, header.id, { order: index + 1, updated_at: now });
      await this.record(trx, actor, 'API_HEADER_DELETED', id, before, undefined);
    });
  }

  /** `GET apis/{id}/headers`: each header with its value resolved for the API; empty values left out. */
  async forApi(api: ApiRow, owner: ApiTemplateModel['owner']): Promise<{ name: string; value: string }[]> {
    const metadata = Object.fromEntries(
      [
        ...(await findMetadataOfReference(this.db, 'DEFAULT', 'DEFAULT')),
        ...(await findMetadataOfReference(this.db, 'API', api.id)),
      ].map((m) => [m.key, m.value]),
    );
    return (await findAllApiHeaders(this.db))
      .map((h) => ({ name: h.name, value: resolveHeaderValue(h.value, { api, owner, metadata }) }))
      .filter((h) => h.value !== '');
  }

  private record(db: Executor, actor: UserRow, event: string, id: string, before: unknown, after: unknown) {
    return this.audit.record(db, {
      referenceType: 'ENVIRONMENT',
      referenceId: 'DEFAULT',
      userId: actor.id,
      event,
      properties: { API_HEADER: id },
      before,
      after,
    });
  }
}

import type { Executor } from '../database.js';

/** What the metadata of an analytics or log answer says about an API, application, plan, tenant or gateway. */
export interface NamedReference {
  id: string;
  name: string;
  version?: string;
  /** ARCHIVED API or application. */
  archived?: boolean;
  ip?: string;
  tenant?: string | null;
}

export type ReferenceKind = 'api' | 'application' | 'plan' | 'tenant' | 'gateway';

/** The names of the given ids of one kind (ids that do not exist are absent from the answer). */
export async function findReferenceNames(
  db: Executor,
  kind: ReferenceKind,
  ids: readonly string[],
): Promise<Map<string, NamedReference>> {
  const wanted = [...new Set(ids)];
  const found = new Map<string, NamedReference>();
  if (wanted.length === 0) return found;
  // Chunks keep each statement under the SQL parameter limits of both dialects.
  for (let i = 0; i < wanted.length; i += 500) {
    const chunk = wanted.slice(i, i + 500);
    for (const ref of await findChunk(db, kind, chunk)) found.set(ref.id, ref);
  }
  return found;
}

async function findChunk(db: Executor, kind: ReferenceKind, ids: string[]): Promise<NamedReference[]> {
  switch (kind) {
    case 'api':
      return (
        await db
          .selectFrom('apis')
          .select(['id', 'name', 'version', 'lifecycle_state'])
          .where('id', 'in', ids)
          .execute()
      ).map((r) => ({
        id: r.id,
        name: r.name,
        version: r.version,
        archived: r.lifecycle_state === 'ARCHIVED',
      }));
    case 'application':
      return (
        await db.selectFrom('applications').select(['id', 'name', 'status']).where('id', 'in', ids).execute()
      ).map((r) => ({ id: r.id, name: r.name, archived: r.status === 'ARCHIVED' }));
    case 'plan':
      return db.selectFrom('plans').select(['id', 'name']).where('id', 'in', ids).execute();
    case 'tenant':
      return db.selectFrom('tenants').select(['id', 'name']).where('id', 'in', ids).execute();
    case 'gateway':
      return (
        await db
          .selectFrom('instances')
          .select(['id', 'hostname', 'ip', 'tenant'])
          .where('id', 'in', ids)
          .execute()
      ).map((r) => ({ id: r.id, name: r.hostname, ip: r.ip, tenant: r.tenant }));
  }
}

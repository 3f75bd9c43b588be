import { invalidField } from '@portico/model';
import type { ApiDefinition } from '@portico/model';
import type { Executor } from '@portico/storage';
import { findAllTags, findGroupsByIds, findTenantsByIds, findViewsByIds } from '@portico/storage';

async function assertKnown(
  field: string,
  what: string,
  ids: readonly string[],
  find: (ids: string[]) => Promise<{ id: string }[]>,
): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const known = new Set((await find(wanted)).map((r) => r.id));
  const unknown = wanted.find((id) => !known.has(id));
  if (unknown !== undefined) throw invalidField(field, `the ${what} [${unknown}] does not exist`);
}

/** The tenants the endpoints of a definition name. */
export const tenantsOf = (definition: Pick<ApiDefinition, 'proxy'>): string[] =>
  definition.proxy.groups.flatMap((g) => g.endpoints.flatMap((e) => e.tenants ?? []));

/**
 * IDs given on an API (create, update, import) must exist: 400 naming `views`, `groups`, `tags` or
 * `proxy.groups.endpoints.tenants`.
 */
export async function assertApiReferencesExist(
  db: Executor,
  refs: {
    views?: readonly string[];
    groups?: readonly string[];
    tags?: readonly string[];
    tenants?: readonly string[];
  },
): Promise<void> {
  await assertKnown('views', 'view', refs.views ?? [], (ids) => findViewsByIds(db, ids));
  await assertKnown('groups', 'group', refs.groups ?? [], (ids) => findGroupsByIds(db, ids));
  await assertKnown('tags', 'sharding tag', refs.tags ?? [], async (ids) =>
    (await findAllTags(db)).filter((t) => ids.includes(t.id)),
  );
  await assertKnown('proxy.groups.endpoints.tenants', 'tenant', refs.tenants ?? [], (ids) =>
    findTenantsByIds(db, ids),
  );
}

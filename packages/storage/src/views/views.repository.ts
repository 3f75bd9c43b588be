import { sql } from 'kysely';
import type { Executor } from '../database.js';
import type { ApiViewer } from '../apis/api-visibility.js';
import { apiVisibleTo } from '../apis/api-visibility.js';
import type { NewViewRow, ViewRow, ViewRowUpdate } from './views.table.js';

/** Every view in its order. */
export async function findAllViews(db: Executor): Promise<ViewRow[]> {
  return db.selectFrom('views').selectAll().orderBy('order').orderBy('name').execute();
}

export async function findView(db: Executor, id: string): Promise<ViewRow | undefined> {
  return db.selectFrom('views').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findViewsByIds(db: Executor, ids: readonly string[]): Promise<ViewRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('views').selectAll().where('id', 'in', ids).execute();
}

export async function insertView(db: Executor, row: NewViewRow): Promise<void> {
  await db.insertInto('views').values(row).execute();
}

export async function updateView(db: Executor, id: string, changes: ViewRowUpdate): Promise<void> {
  await db.updateTable('views').set(changes).where('id', '=', id).execute();
}

/** No view is the default any more (before another one becomes it). */
export async function clearDefaultView(db: Executor): Promise<void> {
  await db.updateTable('views').set({ default_view: 0 }).where('default_view', '=', 1).execute();
}

export async function deleteView(db: Executor, id: string): Promise<number> {
  const result = await db.deleteFrom('views').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many APIs carry each view (in their `views` JSON list), among those the viewer may see if given. */
export async function countApisByView(db: Executor, viewer?: ApiViewer): Promise<Map<string, number>> {
  let q = db.selectFrom('apis').select('views').where('views', '!=', '[]');
  if (viewer) q = q.where((eb) => apiVisibleTo(eb, viewer));
  const rows = await q.execute();
  const counts = new Map<string, number>();
  for (const row of rows)
    for (const view of JSON.parse(row.views) as string[]) counts.set(view, (counts.get(view) ?? 0) + 1);
  return counts;
}

/** How many APIs there are (that the viewer may see, when one is given). */
export async function countApis(db: Executor, viewer?: ApiViewer): Promise<number> {
  let q = db.selectFrom('apis').select(sql<number>`count(*)`.as('n'));
  if (viewer) q = q.where((eb) => apiVisibleTo(eb, viewer));
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The APIs carrying a view: id, name, version, context path. */
export async function findApisOfView(
  db: Executor,
  viewId: string,
): Promise<{ id: string; name: string; version: string; context_path: string; views: string }[]> {
  const pattern = `%${JSON.stringify(viewId).replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .selectFrom('apis')
    .select(['id', 'name', 'version', 'context_path', 'views'])
    .where(sql<boolean>`views like ${pattern} escape '\\'`)
    .orderBy('name')
    .execute();
  return rows.filter((r) => (JSON.parse(r.views) as string[]).includes(viewId));
}

/** Sets an API's views list. */
export async function setApiViews(db: Executor, apiId: string, views: readonly string[], now: number) {
  await db
    .updateTable('apis')
    .set({ views: JSON.stringify(views), updated_at: now })
    .where('id', '=', apiId)
    .execute();
}

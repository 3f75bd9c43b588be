import type { RawBuilder } from 'kysely';
import { PostgresAdapter, sql, type SqlBool } from 'kysely';
import type { Executor } from '../database.js';
import { escapeLike, jsonListHolds as listHolds } from '../sql-text.js';
import { apiVisibleTo } from './api-visibility.js';
import type { ApiViewer } from './api-visibility.js';
import type { ApiContextPathRow, ApiRow, ApiRowUpdate, NewApiRow } from './apis.table.js';

/** Whether a JSON list column of `apis` (`["g1","g2"]`) holds the value. */
const jsonListHolds = (column: 'groups' | 'views' | 'labels' | 'tags', value: string) =>
  listHolds(`apis.${column}`, value);

export async function findApiById(db: Executor, id: string): Promise<ApiRow | undefined> {
  return db.selectFrom('apis').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The API, its row locked until the transaction ends (PostgreSQL; SQLite runs one write transaction at
 * a time anyway): a lifecycle change (deploy, start, stop) reads the state it writes into its event
 * under this lock, so a change committed meanwhile is never overridden.
 */
export async function findApiByIdForUpdate(db: Executor, id: string): Promise<ApiRow | undefined> {
  const q = db.selectFrom('apis').selectAll().where('id', '=', id);
  return (db.getExecutor().adapter instanceof PostgresAdapter ? q.forUpdate() : q).executeTakeFirst();
}

export async function findApisByIds(db: Executor, ids: readonly string[]): Promise<ApiRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('apis').selectAll().where('id', 'in', ids).execute();
}

/** The APIs that belong to one of these groups (their `groups` JSON list holds the id). */
export async function findApiIdsInGroups(db: Executor, groupIds: readonly string[]): Promise<string[]> {
  if (groupIds.length === 0) return [];
  const rows = await db
    .selectFrom('apis')
    .select('id')
    .where((eb) => eb.or(groupIds.map((g) => jsonListHolds('groups', g))))
    .execute();
  return rows.map((r) => r.id);
}

export async function insertApi(db: Executor, row: NewApiRow): Promise<void> {
  await db.insertInto('apis').values(row).execute();
}

/** Changes some columns of an API; answers the number of rows changed (0 for an unknown id). */
export async function updateApi(db: Executor, id: string, changes: ApiRowUpdate): Promise<number> {
  const result = await db.updateTable('apis').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteApi(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('apis').where('id', '=', id).execute();
}

export type ApiListOrder = 'name' | '-name' | 'context_path' | '-context_path';

export interface ApiListFilter {
  /**
   * Only the APIs a user may see: published PUBLIC ones, those the user is a member of, and those of
   * the user's groups (see apiVisibleTo). Absent: every API (administrators).
   */
  visibleTo?: ApiViewer | undefined;
  /** Only the APIs of this portal view. */
  view?: string | undefined;
  /** Only the APIs of this group. */
  group?: string | undefined;
  /** Only the portal's top APIs, in their order. */
  top?: boolean | undefined;
  /**
   * Words that each must appear (SQL LIKE, case-insensitive, parameterised) in the name, version,
   * description, context path, labels, tags, views (ids or names) or metadata (names or values).
   */
  text?: string | undefined;
  order?: ApiListOrder | undefined;
}

export interface ApiListOptions {
  /**
   * Who manages the APIs listed: `all` (an administrator), nobody (`none`, anonymous callers), or a
   * user through its direct API memberships and the groups in which it holds an API role.
   */
  manageable: 'all' | 'none' | { userId: string; groupIds: readonly string[] };
  /** The picture address of an API is this prefix, its id, `/picture?v=` and its last change. */
  pictureUrlPrefix: string;
  /**
   * With each API's `rate` (average of its ratings to one decimal, null without ratings) and
   * `numberOfRatings`, from one grouped join (the portal shows stars while rating is enabled).
   */
  ratings?: boolean | undefined;
}

const isPostgres = (db: Executor) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The API list as a JSON array text, built by the database: one item per API (no definition, no
 * picture bytes) with its primary owner and whether the caller manages it. Lists of 10,000 APIs are
 * answered without materialising a JavaScript object per API.
 */
export async function findApiListJson(
  db: Executor,
  filter: ApiListFilter,
  options: ApiListOptions,
): Promise<string> {
  const pg = isPostgres(db);
  const object = (pairs: RawBuilder<unknown>[]) =>
    pg ? sql`json_build_object(${sql.join(pairs)})` : sql`json_object(${sql.join(pairs)})`;
  const pair = (key: string, value: RawBuilder<unknown>) => sql`${sql.lit(key)}, ${value}`;
  const ref = (column: string) => sql.ref(column);
  const jsonColumn = (column: string) =>
    pg ? sql`cast(${sql.ref(column)} as json)` : sql`json(${sql.ref(column)})`;
  const bool = (condition: RawBuilder<unknown>) =>
    pg ? sql`(${condition})` : sql`json(case when ${condition} then 'true' else 'false' end)`;
  const manageable = options.manageable;
  const manages =
    manageable === 'all'
      ? sql`1 = 1`
      : manageable === 'none'
        ? sql`1 = 0`
        : sql.join(
            [
              sql`exists (select 1 from memberships mm where mm.reference_type = 'API' and mm.reference_id = apis.id and mm.member_type = 'USER' and mm.member_id = ${manageable.userId})`,
              ...manageable.groupIds.map((g) => jsonListHolds('groups', g)),
            ],
            sql` or `,
          );
  const item = object([
    pair('id', ref('apis.id')),
    pair('name', ref('apis.name')),
    pair('version', ref('apis.version')),
    pair('description', ref('apis.description')),
    pair('context_path', ref('apis.context_path')),
    pair('visibility', ref('apis.visibility')),
    pair('state', ref('apis.state')),
    pair('lifecycle_state', ref('apis.lifecycle_state')),
    pair('tags', jsonColumn('apis.tags')),
    pair('labels', jsonColumn('apis.labels')),
    pair('views', jsonColumn('apis.views')),
    pair('groups', jsonColumn('apis.groups')),
    pair(
      'owner',
      sql`case when owner.id is null then null else ${object([
        pair('id', ref('owner.id')),
        pair(
          'displayName',
          sql`coalesce(nullif(trim(coalesce(owner.firstname, '') || ' ' || coalesce(owner.lastname, '')), ''), owner.source_id)`,
        ),
        // The owner's contact (the username is often the email) only for administrators, who may
        // manage members and users; other callers, anonymous ones first, see who, not how to reach them.
        ...(manageable === 'all'
          ? [pair('username', ref('owner.source_id')), pair('email', ref('owner.email'))]
          : []),
      ])} end`,
    ),
    pair(
      'picture_url',
      sql`${options.pictureUrlPrefix} || apis.id || '/picture?v=' || cast(apis.updated_at as text)`,
    ),
    pair('has_picture', bool(sql`apis.picture is not null`)),
    pair('manageable', bool(sql`(${manages})`)),
    pair('deployed_at', ref('apis.deployed_at')),
    pair('created_at', ref('apis.created_at')),
    pair('updated_at', ref('apis.updated_at')),
    // Half up to one decimal as the ratings summary rounds: sum * 10 / count is exact at the halves.
    ...(options.ratings
      ? [
          pair(
            'rate',
            sql`cast(round(rating_totals.total * 10.0 / rating_totals.count) / 10.0 as ${sql.raw(pg ? 'double precision' : 'real')})`,
          ),
          pair('numberOfRatings', sql`coalesce(rating_totals.count, 0)`),
        ]
      : []),
  ]);
  const joined = db
    .selectFrom('apis')
    .leftJoin('memberships as owner_membership', (join) =>
      join
        .onRef('owner_membership.reference_id', '=', 'apis.id')
        .on('owner_membership.reference_type', '=', 'API')
        .on('owner_membership.role_scope', '=', 'API')
        .on('owner_membership.role_name', '=', 'PRIMARY_OWNER')
        .on('owner_membership.member_type', '=', 'USER'),
    )
    .leftJoin('users as owner', 'owner.id', 'owner_membership.member_id');
  // The rating totals of every API in one grouped join (no query per API); read by `item` above.
  let q = (
    options.ratings
      ? (joined.leftJoin(
          (eb) =>
            eb
              .selectFrom('ratings')
              .select([
                'ratings.api_id',
                (f) => f.fn.countAll<number>().as('count'),
                (f) => f.fn.sum<number>('ratings.rate').as('total'),
              ])
              .groupBy('ratings.api_id')
              .as('rating_totals'),
          (join) => join.onRef('rating_totals.api_id', '=', 'apis.id'),
        ) as unknown as typeof joined)
      : joined
  ).select((pg ? sql<string>`cast(${item} as text)` : sql<string>`${item}`).as('item'));
  const visible = filter.visibleTo;
  if (visible) q = q.where((eb) => apiVisibleTo(eb, visible));
  if (filter.view !== undefined) q = q.where(jsonListHolds('views', filter.view));
  if (filter.group !== undefined) q = q.where(jsonListHolds('groups', filter.group));
  for (const word of (filter.text ?? '').toLowerCase().split(/\s+/).filter(Boolean)) {
    const like = `%${escapeLike(word)}%`;
    q = q.where((eb) =>
      eb.or([
        ...(['name', 'version', 'description', 'context_path', 'labels', 'tags', 'views'] as const).map(
          (col) => sql<SqlBool>`lower(${eb.ref(`apis.${col}`)}) like ${like} escape '\\'`,
        ),
        // The names of its views and the names and values of its metadata (parameters, never text).
        sql<SqlBool>`exists (select 1 from views v where lower(v.name) like ${like} escape '\\' and apis.views like '%"' || v.id || '"%')`,
        sql<SqlBool>`exists (select 1 from metadata md where md.reference_type = 'API' and md.reference_id = apis.id and (lower(md.name) like ${like} escape '\\' or lower(coalesce(md.value, '')) like ${like} escape '\\'))`,
      ]),
    );
  }
  const order = filter.order ?? 'name';
  const direction = order.startsWith('-') ? 'desc' : 'asc';
  const column = order.replace('-', '') as 'name' | 'context_path';
  const rows = await (
    filter.top
      ? q.innerJoin('top_apis', 'top_apis.api_id', 'apis.id').orderBy('top_apis.order').orderBy('apis.id')
      : q
          .orderBy(sql`lower(${sql.ref(`apis.${column}`)})`, direction)
          .orderBy(`apis.${column === 'name' ? 'version' : 'name'}`, direction)
          .orderBy('apis.id')
  ).execute();
  return `[${rows.map((r) => r.item).join(',')}]`;
}

/**
 * Serialises the transactions that check and write entrypoints, so that two of them cannot both find
 * a path free (PostgreSQL: a transaction-scoped advisory lock; SQLite runs one write at a time).
 */
export async function lockApiContextPaths(db: Executor): Promise<void> {
  if (isPostgres(db)) await sql`select pg_advisory_xact_lock(${CONTEXT_PATHS_LOCK})`.execute(db);
}
const CONTEXT_PATHS_LOCK = 7_412_001;

/** Replaces the entrypoints (context paths, virtual host paths) of an API. */
export async function replaceApiContextPaths(
  db: Executor,
  apiId: string,
  entries: readonly { host: string; path: string }[],
): Promise<void> {
  await db.deleteFrom('api_context_paths').where('api_id', '=', apiId).execute();
  const unique = [...new Map(entries.map((e) => [`${e.host} ${e.path}`, e])).values()];
  if (unique.length === 0) return;
  await db
    .insertInto('api_context_paths')
    .values(unique.map((e) => ({ api_id: apiId, host: e.host, path: e.path })))
    .execute();
}

export async function findApiContextPaths(db: Executor, apiId: string): Promise<ApiContextPathRow[]> {
  return db
    .selectFrom('api_context_paths')
    .selectAll()
    .where('api_id', '=', apiId)
    .orderBy('host')
    .orderBy('path')
    .execute();
}

/**
 * Entrypoints of other APIs that overlap one of these on the same host: the same path, one of its
 * parents (`/a` for `/a/b`) or one of its sub-paths (`/a/b` for `/a`). Paths come without trailing slash.
 */
export async function findContextPathClashes(
  db: Executor,
  entries: readonly { host: string; path: string }[],
  excludeApiId?: string,
): Promise<ApiContextPathRow[]> {
  if (entries.length === 0) return [];
  let q = db.selectFrom('api_context_paths').selectAll();
  if (excludeApiId !== undefined) q = q.where('api_id', '!=', excludeApiId);
  return q
    .where((eb) =>
      eb.or(
        entries.map(({ host, path }) => {
          const parents = ['/'];
          const parts = path.split('/').filter(Boolean);
          for (let i = 1; i <= parts.length; i++) parents.push(`/${parts.slice(0, i).join('/')}`);
          const below = path === '/' ? '/%' : `${escapeLike(path)}/%`;
          return eb.and([
            eb('host', '=', host),
            eb.or([eb('path', 'in', parents), sql<SqlBool>`${eb.ref('path')} like ${below} escape '\\'`]),
          ]);
        }),
      ),
    )
    .orderBy('path')
    .execute();
}

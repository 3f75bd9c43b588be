import type { SelectQueryBuilder } from 'kysely';
import { sql } from 'kysely';
import { invalidField } from '@portico/model';
import type { Database, Executor } from '../database.js';
import { compileFilter } from './analytics-filter.js';
import type { AnalyticsField } from './analytics-fields.js';
import { analyticsField } from './analytics-fields.js';
import type { AnalyticsScope, GroupOrder, MetricType } from './analytics-scope.js';
import {
  rollupCount,
  rollupDimension,
  measuresOf,
  rollupGroups,
  rollupMetric,
  rollupMetricSql,
  rollupSource,
  rollupStats,
  rollupStatusRanges,
} from './analytics-rollups.js';

export type { AnalyticsScope, GroupOrder, MetricType } from './analytics-scope.js';

/** A numeric field an aggregation reads: 400 naming the parameter when unknown or not numeric. */
export function numericField(parameter: string, name: string): AnalyticsField {
  const field = analyticsField(name);
  if (!field) throw invalidField(parameter, `unknown field '${name}'`);
  if (!field.numeric) throw invalidField(parameter, `field '${name}' is not numeric`);
  return field;
}

/** A field a group-by reads: 400 naming the parameter when unknown. */
export function groupField(parameter: string, name: string): AnalyticsField {
  const field = analyticsField(name);
  if (!field) throw invalidField(parameter, `unknown field '${name}'`);
  return field;
}

/**
 * The rows of the scope. Every analytics and log query starts here, so that a later source (per-minute
 * rollups for long windows) can be chosen in one place.
 */
export function scopedRequests(
  db: Executor,
  scope: AnalyticsScope,
): SelectQueryBuilder<Database, 'requests', object> {
  const filter = compileFilter(scope.filter);
  let q = db.selectFrom('requests').where('timestamp', '>=', scope.from).where('timestamp', '<=', scope.to);
  if (scope.apiId !== undefined) q = q.where('api_id', '=', scope.apiId);
  if (scope.applicationId !== undefined) q = q.where('application_id', '=', scope.applicationId);
  if (scope.apiIds !== undefined) {
    q = scope.apiIds.length > 0 ? q.where('api_id', 'in', [...scope.apiIds]) : q.where(sql<boolean>`1 = 0`);
  }
  return filter ? q.where(filter) : q;
}

export async function countRequests(db: Executor, scope: AnalyticsScope): Promise<number> {
  const src = rollupSource(scope, undefined, { dimensions: [], measures: ['count'] });
  if (src) return rollupCount(db, scope, src);
  const row = await scopedRequests(db, scope)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface FieldStats {
  count: number;
  min: number | null;
  max: number | null;
  avg: number | null;
  sum: number | null;
}

/** Count, min, max, average and sum of a numeric field over the scope. */
export async function requestStats(
  db: Executor,
  scope: AnalyticsScope,
  fieldName: string,
): Promise<FieldStats> {
  const column = sql.ref(numericField('field', fieldName).column);
  const metric = rollupMetric(fieldName);
  const src =
    metric &&
    rollupSource(scope, undefined, {
      dimensions: [],
      measures: ['count', `${metric}_sum`, `${metric}_min`, `${metric}_max`],
    });
  if (metric && src) return rollupStats(db, scope, src, metric);
  const row = await scopedRequests(db, scope)
    .select([
      sql<number>`count(${column})`.as('count'),
      sql<number | null>`min(${column})`.as('min'),
      sql<number | null>`max(${column})`.as('max'),
      sql<number | null>`avg(${column})`.as('avg'),
      sql<number | null>`sum(${column})`.as('sum'),
    ])
    .executeTakeFirstOrThrow();
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    count: Number(row.count),
    min: num(row.min),
    max: num(row.max),
    avg: num(row.avg),
    sum: num(row.sum),
  };
}

/** One group: its key (null when the rows have no value) and its count, or its metric when ordered by one. */
export interface GroupValue {
  key: string | null;
  value: number;
}

/**
 * Group-by on a field: the `size` largest groups by count (or by the order's metric), or, with ranges,
 * the count of each [from, to) range of a numeric field in the order given.
 */
export async function groupRequests(
  db: Executor,
  scope: AnalyticsScope,
  q: { field: string; size: number; order?: GroupOrder; ranges?: readonly { from: number; to: number }[] },
): Promise<GroupValue[]> {
  const rolled = groupFromRollups(db, scope, q);
  if (rolled) return rolled;
  if (q.ranges && q.ranges.length > 0) {
    const column = sql.ref(numericField('field', q.field).column);
    const row = await scopedRequests(db, scope)
      .select(
        q.ranges.map((r, i) =>
          sql<number>`sum(case when ${column} >= ${r.from} and ${column} < ${r.to} then 1 else 0 end)`.as(
            `r${i}`,
          ),
        ),
      )
      .executeTakeFirstOrThrow();
    const values = row as Record<string, unknown>;
    return q.ranges.map((r, i) => ({
      key: `${rangeBound(r.from)}-${rangeBound(r.to)}`,
      value: Number(values[`r${i}`] ?? 0),
    }));
  }
  const key = sql.ref(groupField('field', q.field).column);
  const metric = q.order ? metricOf(q.order) : sql<number>`count(*)`;
  const direction = q.order?.ascending ? sql`asc` : sql`desc`;
  const rows = await scopedRequests(db, scope)
    .select([sql<string | number | null>`${key}`.as('key'), metric.as('value')])
    .groupBy(key)
    .orderBy(sql`2 ${direction}`)
    .orderBy(sql`1`)
    .limit(q.size)
    .execute();
  // A metric (an average) is reported as a whole number, as Gravitee's long values.
  return rows.map((r) => ({
    key: r.key === null ? null : String(r.key),
    value: Math.trunc(Number(r.value)),
  }));
}

/** The groups from rollups when the field is a dimension (ranges: the status) and the order a rollup metric. */
function groupFromRollups(
  db: Executor,
  scope: AnalyticsScope,
  q: { field: string; size: number; order?: GroupOrder; ranges?: readonly { from: number; to: number }[] },
): Promise<GroupValue[]> | undefined {
  const dimension = rollupDimension(q.field);
  const metric = q.order && q.order.type !== 'count' ? rollupMetric(q.order.field) : undefined;
  if (!dimension || (q.order && q.order.type !== 'count' && !metric)) return undefined;
  const src = rollupSource(scope, undefined, {
    dimensions: [dimension],
    measures: measuresOf(q.order?.type ?? 'count', metric),
  });
  if (!src) return undefined;
  if (q.ranges && q.ranges.length > 0) {
    if (dimension !== 'status') return undefined;
    const ranges = q.ranges;
    return rollupStatusRanges(db, scope, src, ranges).then((counts) =>
      ranges.map((r, i) => ({ key: `${rangeBound(r.from)}-${rangeBound(r.to)}`, value: counts[i]! })),
    );
  }
  return rollupGroups(db, scope, src, {
    dimension,
    size: q.size,
    metric: rollupMetricSql(q.order?.type ?? 'count', metric),
    ascending: q.order?.ascending ?? false,
  }).then((rows) =>
    rows.map((r) => ({ key: r.key === null ? null : String(r.key), value: Math.trunc(Number(r.value)) })),
  );
}

function metricOf(order: GroupOrder) {
  if (order.type === 'count') return sql<number>`count(*)`;
  const column = sql.ref(numericField('order', order.field).column);
  return metricSql(order.type, column);
}

/** The SQL aggregate of a metric on a column (the metric names are ours, never the client's text). */
export function metricSql(type: MetricType, column: ReturnType<typeof sql.ref>) {
  switch (type) {
    case 'avg':
      return sql<number>`avg(${column})`;
    case 'min':
      return sql<number>`min(${column})`;
    case 'max':
      return sql<number>`max(${column})`;
    case 'sum':
      return sql<number>`sum(${column})`;
    default:
      return sql<number>`count(${column})`;
  }
}

/** Elasticsearch names a range bucket after its bounds as doubles: `100.0-200.0`. */
const rangeBound = (n: number) => (Number.isInteger(n) ? n.toFixed(1) : String(n));

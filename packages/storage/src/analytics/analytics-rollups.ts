import type { RawBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';
import type { Executor } from '../database.js';
import type { RollupDimension, RollupMetric } from '../requests/rollups.js';
import { HISTOGRAM_COLUMNS, LATENCY_BOUNDS, ROLLUP_TIERS, histogramCaseSql } from '../requests/rollups.js';
import { compileFilter, filterFields } from './analytics-filter.js';
import type { AnalyticsScope, MetricType } from './analytics-scope.js';

/** The analytics fields that are rollup dimensions (group-by keys and filters). */
const DIMENSION_FIELDS: Readonly<Record<string, RollupDimension>> = {
  api: 'api_id',
  application: 'application_id',
  plan: 'plan_id',
  tenant: 'tenant',
  status: 'status',
  method: 'method',
};

/** The analytics fields kept as rollup metrics (stats, metric aggregations, orders). */
const METRIC_FIELDS: Readonly<Record<string, RollupMetric>> = {
  'response-time': 'response_time',
  'api-response-time': 'api_response_time',
  'proxy-latency': 'latency',
  'request-content-length': 'request_content_length',
  'response-content-length': 'response_content_length',
};

const own = (record: object, name: string) => Object.prototype.hasOwnProperty.call(record, name);

export const rollupDimension = (field: string): RollupDimension | undefined =>
  own(DIMENSION_FIELDS, field) ? DIMENSION_FIELDS[field] : undefined;
export const rollupMetric = (field: string): RollupMetric | undefined =>
  own(METRIC_FIELDS, field) ? METRIC_FIELDS[field] : undefined;

/** What a query reads from its source: the dimensions it groups by and the measure columns. */
export interface RollupNeeds {
  dimensions: readonly RollupDimension[];
  measures: readonly string[];
}

/** The measure columns a metric reads. */
export function measuresOf(type: MetricType, metric: RollupMetric | undefined): string[] {
  if (type === 'count' || !metric) return ['count'];
  if (type === 'avg') return ['count', `${metric}_sum`];
  return [`${metric}_${type}`];
}

/** A measure of one raw request, as the rollup of that request alone. */
function rawMeasure(column: string): string {
  if (column === 'count') return '1';
  const h = /^h(\d+)$/.exec(column);
  if (h) return histogramCaseSql(Number(h[1]));
  return `"${column.replace(/_(sum|min|max)$/, '')}"`;
}

/**
 * The rows a query reads when rollups can answer it, as a derived table `src` with `ts`, the
 * dimensions and the measures it needs: the rollup rows of the grains wholly inside [from, to], plus
 * the raw requests of the partial grains at both ends as rollups of one request each, so that the
 * answer is the raw rows' exactly. The tier is the one with the fewest dimensions (then the coarsest)
 * that holds those the query groups, filters and is scoped by, and whose grain divides the interval. Undefined when none can:
 * the filter names a field that is not a dimension, or the window holds no whole grain.
 */
export function rollupSource(
  scope: AnalyticsScope,
  interval: number | undefined,
  needs: RollupNeeds,
): RawBuilder<unknown> | undefined {
  if (scope.raw) return undefined;
  const fields = filterFields(scope.filter);
  if (!fields) return undefined;
  const dimensions = new Set<RollupDimension>(needs.dimensions);
  for (const f of fields) {
    const d = rollupDimension(f);
    if (!d) return undefined;
    dimensions.add(d);
  }
  if (scope.apiId !== undefined || scope.apiIds !== undefined) dimensions.add('api_id');
  if (scope.applicationId !== undefined) dimensions.add('application_id');
  const tier = [...ROLLUP_TIERS]
    .sort((a, b) => a.dimensions.length - b.dimensions.length || b.grainMs - a.grainMs)
    .find(
      (t) =>
        [...dimensions].every((d) => t.dimensions.includes(d)) &&
        (interval === undefined || interval % t.grainMs === 0) &&
        Math.ceil(scope.from / t.grainMs) < Math.floor((scope.to + 1) / t.grainMs),
    );
  if (!tier) return undefined;
  const fullStart = Math.ceil(scope.from / tier.grainMs) * tier.grainMs;
  const fullEnd = Math.floor((scope.to + 1) / tier.grainMs) * tier.grainMs;

  const scoped: RawBuilder<SqlBool>[] = [];
  if (scope.apiId !== undefined) scoped.push(sql<SqlBool>`"api_id" = ${scope.apiId}`);
  if (scope.applicationId !== undefined) scoped.push(sql<SqlBool>`"application_id" = ${scope.applicationId}`);
  if (scope.apiIds !== undefined) {
    scoped.push(
      scope.apiIds.length > 0
        ? sql<SqlBool>`"api_id" in (${sql.join([...scope.apiIds])})`
        : sql<SqlBool>`1 = 0`,
    );
  }
  const and = (conditions: RawBuilder<SqlBool>[]) => sql.join(conditions, sql` and `);
  const dims = [...dimensions].map((d) => `"${d}"`);
  const measures = [...new Set(needs.measures)];
  const rolled = sql.raw([...dims, ...measures.map((m) => `"${m}"`)].join(', '));
  const single = sql.raw([...dims, ...measures.map((m) => `${rawMeasure(m)} as "${m}"`)].join(', '));
  const rollupWhere = and([
    sql<SqlBool>`"minute" >= ${fullStart}`,
    sql<SqlBool>`"minute" < ${fullEnd}`,
    ...scoped,
  ]);
  // One branch per end: each a plain range on the timestamp index (an OR would scan the table).
  const head = and([
    sql<SqlBool>`"timestamp" >= ${scope.from}`,
    sql<SqlBool>`"timestamp" < ${fullStart}`,
    ...scoped,
  ]);
  const tail = and([
    sql<SqlBool>`"timestamp" >= ${fullEnd}`,
    sql<SqlBool>`"timestamp" <= ${scope.to}`,
    ...scoped,
  ]);
  return sql`(select "minute" as "ts", ${rolled} from ${sql.table(tier.table)} where ${rollupWhere}
    union all select "timestamp" as "ts", ${single} from requests where ${head}
    union all select "timestamp" as "ts", ${single} from requests where ${tail}) as src`;
}

/** `where <filter>` over the source, or nothing. */
function filtered(scope: AnalyticsScope) {
  const filter = compileFilter(scope.filter);
  return filter ? sql`where ${filter}` : sql``;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The metric's SQL over rollup rows. */
export function rollupMetricSql(type: MetricType, metric: RollupMetric | undefined): RawBuilder<number> {
  if (type === 'count' || !metric) return sql<number>`sum("count")`;
  const column = (suffix: string) => sql.ref(`${metric}_${suffix}`);
  switch (type) {
    case 'avg':
      return sql<number>`cast(sum(${column('sum')}) as double precision) / sum("count")`;
    case 'min':
      return sql<number>`min(${column('min')})`;
    case 'max':
      return sql<number>`max(${column('max')})`;
    default:
      return sql<number>`sum(${column('sum')})`;
  }
}

export async function rollupCount(
  db: Executor,
  scope: AnalyticsScope,
  src: RawBuilder<unknown>,
): Promise<number> {
  const { rows } = await sql<{ n: unknown }>`select sum("count") as n from ${src} ${filtered(scope)}`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}

export async function rollupStats(
  db: Executor,
  scope: AnalyticsScope,
  src: RawBuilder<unknown>,
  metric: RollupMetric,
) {
  const { rows } = await sql<Record<string, unknown>>`select sum("count") as count,
    ${rollupMetricSql('min', metric)} as min, ${rollupMetricSql('max', metric)} as max,
    ${rollupMetricSql('sum', metric)} as sum from ${src} ${filtered(scope)}`.execute(db);
  const row = rows[0] ?? {};
  const count = Number(row.count ?? 0);
  const sum = num(row.sum);
  return {
    count,
    min: num(row.min),
    max: num(row.max),
    avg: count > 0 && sum !== null ? sum / count : null,
    sum,
  };
}

/** Groups by a dimension, ordered by a metric (count by default), the `size` first. */
export async function rollupGroups(
  db: Executor,
  scope: AnalyticsScope,
  src: RawBuilder<unknown>,
  q: { dimension: RollupDimension; size: number; metric: RawBuilder<number>; ascending: boolean },
): Promise<{ key: unknown; value: unknown }[]> {
  const direction = q.ascending ? sql`asc` : sql`desc`;
  const { rows } = await sql<{ key: unknown; value: unknown }>`select ${sql.ref(q.dimension)} as key,
    ${q.metric} as value from ${src} ${filtered(scope)} group by ${sql.ref(q.dimension)}
    order by 2 ${direction}, 1 limit ${q.size}`.execute(db);
  return rows;
}

/** The count of each [from, to) range of the status. */
export async function rollupStatusRanges(
  db: Executor,
  scope: AnalyticsScope,
  src: RawBuilder<unknown>,
  ranges: readonly { from: number; to: number }[],
): Promise<number[]> {
  const sums = ranges.map(
    (r, i) =>
      sql`sum(case when "status" >= ${r.from} and "status" < ${r.to} then "count" else 0 end) as ${sql.ref(`r${i}`)}`,
  );
  const { rows } = await sql<
    Record<string, unknown>
  >`select ${sql.join(sums)} from ${src} ${filtered(scope)}`.execute(db);
  return ranges.map((_, i) => Number(rows[0]?.[`r${i}`] ?? 0));
}

const bucketOf = (interval: number) =>
  sql`("ts" / cast(${interval} as integer)) * cast(${interval} as integer)`;

/** Per interval: a metric (`value`), per term of a dimension when given (`key`). */
export async function rollupHistogram(
  db: Executor,
  scope: AnalyticsScope,
  src: RawBuilder<unknown>,
  interval: number,
  metric: RawBuilder<number>,
  dimension?: RollupDimension,
): Promise<{ bucket: unknown; key?: unknown; value: unknown }[]> {
  const key = dimension ? sql`, ${sql.ref(dimension)} as key` : sql``;
  const group = dimension ? sql`1, 2` : sql`1`;
  const { rows } = await sql<{
    bucket: unknown;
    key?: unknown;
    value: unknown;
  }>`select ${bucketOf(interval)} as bucket
    ${key}, ${metric} as value from ${src} ${filtered(scope)} group by ${group}`.execute(db);
  return rows;
}

/**
 * Response-time percentiles per interval from the histogram buckets: the bucket holding the nearest
 * rank ceil(p * n / 100), interpolated linearly inside it and kept within the interval's min and max.
 * The answer falls in the same bucket as the exact value.
 */
export async function rollupPercentiles(
  db: Executor,
  scope: AnalyticsScope,
  src: RawBuilder<unknown>,
  interval: number,
  percents: readonly number[],
): Promise<{ bucket: number; key: string; value: number }[]> {
  const sums = sql.raw(HISTOGRAM_COLUMNS.map((h) => `sum("${h}") as "${h}"`).join(', '));
  const { rows } = await sql<Record<string, unknown>>`select ${bucketOf(interval)} as bucket, ${sums},
    min("response_time_min") as lo, max("response_time_max") as hi from ${src} ${filtered(scope)}
    group by 1`.execute(db);
  const points: { bucket: number; key: string; value: number }[] = [];
  for (const p of percents) {
    const hundredths = Math.round(p * 100);
    for (const row of rows) {
      const counts = HISTOGRAM_COLUMNS.map((h) => Number(row[h] ?? 0));
      const n = counts.reduce((a, b) => a + b, 0);
      if (n === 0) continue;
      const rank = Math.floor((n * hundredths + 9999) / 10000);
      points.push({
        bucket: Number(row.bucket),
        key: String(p),
        value: interpolate(counts, rank, Number(row.lo), Number(row.hi)),
      });
    }
  }
  return points;
}

function interpolate(counts: number[], rank: number, lo: number, hi: number): number {
  let before = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i]!;
    if (before + c >= rank) {
      const lower = i === 0 ? Math.min(lo, 0) : LATENCY_BOUNDS[i - 1]!;
      const upper = i < LATENCY_BOUNDS.length ? LATENCY_BOUNDS[i]! : hi;
      const value = Math.ceil(lower + ((upper - lower) * (rank - before)) / c);
      return Math.min(Math.max(value, lo), hi);
    }
    before += c;
  }
  return hi;
}

import { sql } from 'kysely';
import type { Executor } from '../database.js';
import type { AnalyticsScope, MetricType } from './analytics.repository.js';
import { HISTOGRAM_COLUMNS } from '../requests/rollups.js';
import {
  measuresOf,
  rollupDimension,
  rollupHistogram,
  rollupMetric,
  rollupMetricSql,
  rollupPercentiles,
  rollupSource,
} from './analytics-rollups.js';
import { groupField, metricSql, numericField, scopedRequests } from './analytics.repository.js';

/** One point of a date histogram: the bucket's start, the term (for a field aggregation) and the value. */
export interface HistogramPoint {
  bucket: number;
  key: string | null;
  value: number;
}

/** The start of the interval holding each request's timestamp, in SQL (the same on both dialects). */
const bucketOf = (interval: number) =>
  sql<number>`(${sql.ref('timestamp')} / cast(${interval} as integer)) * cast(${interval} as integer)`;

const points = (rows: { bucket: unknown; key?: unknown; value: unknown }[]): HistogramPoint[] =>
  rows.map((r) => ({
    bucket: Number(r.bucket),
    key: r.key === null || r.key === undefined ? null : String(r.key),
    value: Number(r.value),
  }));

/** Requests per interval. */
export async function histogramCounts(
  db: Executor,
  scope: AnalyticsScope,
  interval: number,
): Promise<HistogramPoint[]> {
  const src = rollupSource(scope, interval, { dimensions: [], measures: ['count'] });
  if (src)
    return points(await rollupHistogram(db, scope, src, interval, rollupMetricSql('count', undefined)));
  const bucket = bucketOf(interval);
  const rows = await scopedRequests(db, scope)
    .select([bucket.as('bucket'), sql<number>`count(*)`.as('value')])
    .groupBy(sql`1`)
    .execute();
  return points(rows);
}

/** Requests per interval and per value of a field (`field:status`). */
export async function histogramTerms(
  db: Executor,
  scope: AnalyticsScope,
  interval: number,
  fieldName: string,
): Promise<HistogramPoint[]> {
  const key = sql.ref(groupField('aggs', fieldName).column);
  const dimension = rollupDimension(fieldName);
  const src = dimension && rollupSource(scope, interval, { dimensions: [dimension], measures: ['count'] });
  if (dimension && src) {
    return points(
      await rollupHistogram(db, scope, src, interval, rollupMetricSql('count', undefined), dimension),
    );
  }
  const rows = await scopedRequests(db, scope)
    .select([
      bucketOf(interval).as('bucket'),
      sql<unknown>`${key}`.as('key'),
      sql<number>`count(*)`.as('value'),
    ])
    .groupBy([sql`1`, sql`2`])
    .execute();
  return points(rows);
}

/** A metric of a numeric field per interval (`avg:response-time`). */
export async function histogramMetric(
  db: Executor,
  scope: AnalyticsScope,
  interval: number,
  type: MetricType,
  fieldName: string,
): Promise<HistogramPoint[]> {
  const column = sql.ref(numericField('aggs', fieldName).column);
  const metric = rollupMetric(fieldName);
  const src = metric && rollupSource(scope, interval, { dimensions: [], measures: measuresOf(type, metric) });
  if (metric && src)
    return points(await rollupHistogram(db, scope, src, interval, rollupMetricSql(type, metric)));
  const rows = await scopedRequests(db, scope)
    .select([bucketOf(interval).as('bucket'), metricSql(type, column).as('value')])
    .groupBy(sql`1`)
    .execute();
  return points(rows);
}

/**
 * Percentiles of a numeric field per interval, by the nearest-rank method (the value at rank
 * ceil(p * n / 100) of the interval's sorted values), with window functions both databases have.
 * The key of each point is the percentile (`50`, `99`).
 */
export async function histogramPercentiles(
  db: Executor,
  scope: AnalyticsScope,
  interval: number,
  fieldName: string,
  percents: readonly number[],
): Promise<HistogramPoint[]> {
  const column = sql.ref(numericField('aggs', fieldName).column);
  // Approximate from the histogram buckets when rollups answer (the response time has buckets).
  const src =
    fieldName === 'response-time'
      ? rollupSource(scope, interval, {
          dimensions: [],
          measures: [...HISTOGRAM_COLUMNS, 'response_time_min', 'response_time_max'],
        })
      : undefined;
  if (src) return rollupPercentiles(db, scope, src, interval, percents);
  const ranked = scopedRequests(db, scope)
    .where(column, 'is not', null)
    .select([
      bucketOf(interval).as('bucket'),
      sql<number>`${column}`.as('v'),
      sql<number>`row_number() over (partition by ${bucketOf(interval)} order by ${column})`.as('rn'),
      sql<number>`count(*) over (partition by ${bucketOf(interval)})`.as('n'),
    ]);
  const result: HistogramPoint[] = [];
  for (const p of percents) {
    // ceil(p * n / 100) in integers: p is given in hundredths so that 99.9 stays exact.
    const hundredths = Math.round(p * 100);
    const rows = await db
      .selectFrom(ranked.as('ranked'))
      .select(['ranked.bucket as bucket', 'ranked.v as value'])
      .where(sql<boolean>`ranked.rn = (ranked.n * cast(${hundredths} as integer) + 9999) / 10000`)
      .execute();
    result.push(...points(rows).map((point) => ({ ...point, key: String(p) })));
  }
  return result;
}

import { invalidField } from '@portico/model';
import type { AnalyticsScope, Executor, HistogramPoint } from '@portico/storage';
import {
  countRequests,
  groupRequests,
  histogramCounts,
  histogramMetric,
  histogramPercentiles,
  histogramTerms,
  requestStats,
} from '@portico/storage';
import type { Metadata } from './analytics.metadata.js';
import { UNKNOWN_KEY, UNKNOWN_WHEN_MISSING, metadataOf } from './analytics.metadata.js';
import type { Aggregation, AnalyticsQuery } from './analytics.params.js';
import { MAX_HISTOGRAM_BUCKETS, parseAggregations, parseOrder, parseRanges } from './analytics.params.js';

/** Where the requests come from: one API, one application, or the platform (the APIs a user may see). */
export type AnalyticsTarget =
  { apiId: string } | { applicationId: string } | { apiIds: readonly string[] | 'all' };

/** The scope of a target over a window with a filter (shared by analytics and logs). */
export function scopeOf(target: AnalyticsTarget, from: number, to: number, filter?: string): AnalyticsScope {
  const scope: AnalyticsScope = { from, to, filter };
  if ('apiId' in target) scope.apiId = target.apiId;
  else if ('applicationId' in target) scope.applicationId = target.applicationId;
  else if (target.apiIds !== 'all') scope.apiIds = target.apiIds;
  return scope;
}

/** The request rows, brought up to date with what the gateways reported (the `RequestIndexer`). */
export interface RequestRows {
  catchUp(): Promise<void>;
}

interface HistogramBucket {
  name: string;
  field: string;
  buckets: { name: string; data: number[] }[];
  metadata?: Metadata;
}

/**
 * The analytics of `apis/{id}/analytics`, `applications/{id}/analytics` and `platform/analytics`: one
 * query layer for the three scopes, answering in Gravitee 1.x shapes (hits; values and metadata;
 * timestamp and values; stats).
 */
export class AnalyticsService {
  constructor(
    private readonly db: Executor,
    private readonly requests: RequestRows,
  ) {}

  async execute(target: AnalyticsTarget, q: AnalyticsQuery): Promise<object> {
    await this.requests.catchUp();
    const scope = scopeOf(target, q.from, q.to, q.query ?? q.q);
    switch (q.type) {
      case 'count':
        return { hits: await countRequests(this.db, scope) };
      case 'stats':
        return this.stats(scope, q.field!);
      case 'group_by':
        return this.groupBy(scope, q);
      case 'date_histo':
        return this.histogram(scope, q.interval!, parseAggregations(q.aggs));
    }
  }

  private async stats(scope: AnalyticsScope, field: string) {
    const s = await requestStats(this.db, scope, field);
    const seconds = (scope.to - scope.from) / 1000;
    return {
      count: s.count,
      min: s.min,
      max: s.max,
      avg: s.avg,
      sum: s.sum,
      rps: s.count / seconds,
      rpm: (s.count / seconds) * 60,
      rph: (s.count / seconds) * 3600,
    };
  }

  private async groupBy(scope: AnalyticsScope, q: AnalyticsQuery) {
    const field = q.field!.trim();
    const groups = await groupRequests(this.db, scope, {
      field,
      size: q.size || 10,
      order: parseOrder(q.order),
      ranges: parseRanges(q.ranges),
    });
    const values: Record<string, number> = {};
    for (const group of groups) {
      if (group.key !== null) values[group.key] = group.value;
      else if (UNKNOWN_WHEN_MISSING.has(field)) values[UNKNOWN_KEY] = group.value;
    }
    const keys = Object.keys(values);
    const metadata = await metadataOf(this.db, field, keys);
    // Objects do not keep numeric-looking keys in order: `order` tells the rank of each key.
    keys.forEach((key, i) => (metadata[key] = { ...metadata[key], order: String(i) }));
    return { values, metadata };
  }

  private async histogram(scope: AnalyticsScope, interval: number, aggregations: Aggregation[]) {
    const first = Math.floor(scope.from / interval) * interval;
    const last = Math.floor(scope.to / interval) * interval;
    const size = (last - first) / interval + 1;
    if (size > MAX_HISTOGRAM_BUCKETS) {
      throw invalidField('interval', `${size} buckets between from and to; at most ${MAX_HISTOGRAM_BUCKETS}`);
    }
    const series = (points: HistogramPoint[]) => {
      const data = new Array<number>(size).fill(0);
      for (const p of points) data[(p.bucket - first) / interval] = Math.trunc(p.value);
      return data;
    };
    const byKey = (points: HistogramPoint[], keepMissing: boolean) => {
      const groups = new Map<string, HistogramPoint[]>();
      for (const p of points) {
        const key = p.key ?? (keepMissing ? UNKNOWN_KEY : undefined);
        if (key === undefined) continue;
        groups.set(key, [...(groups.get(key) ?? []), p]);
      }
      return [...groups.entries()]
        .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
        .map(([name, pts]) => ({ name, data: series(pts) }));
    };
    const values: HistogramBucket[] = [];
    if (aggregations.length === 0) {
      const hits = await histogramCounts(this.db, scope, interval);
      values.push({ name: 'hits', field: 'hits', buckets: [{ name: 'hits', data: series(hits) }] });
    }
    for (const agg of aggregations) {
      if (agg.type === 'field') {
        const points = await histogramTerms(this.db, scope, interval, agg.field);
        const buckets = byKey(points, UNKNOWN_WHEN_MISSING.has(agg.field));
        const bucket: HistogramBucket = { name: `by_${agg.field}`, field: agg.field, buckets };
        if (['api', 'application', 'plan', 'tenant'].includes(agg.field)) {
          bucket.metadata = await metadataOf(
            this.db,
            agg.field,
            buckets.map((b) => b.name),
          );
        }
        values.push(bucket);
      } else if (agg.type === 'percentiles') {
        const points = await histogramPercentiles(this.db, scope, interval, agg.field, agg.percents);
        values.push({ name: `percentiles_${agg.field}`, field: agg.field, buckets: byKey(points, false) });
      } else {
        const name = `${agg.type}_${agg.field}`;
        const points = await histogramMetric(this.db, scope, interval, agg.type, agg.field);
        values.push({ name, field: agg.field, buckets: [{ name, data: series(points) }] });
      }
    }
    return { timestamp: { from: first, to: last, interval }, values };
  }
}

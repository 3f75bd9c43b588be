import { z } from 'zod';
import { invalidField } from '@portico/model';
import type { GroupOrder, MetricType } from '@portico/storage';

/** Widest date histogram answered from raw rows: more buckets than a chart can draw is a mistake. */
export const MAX_HISTOGRAM_BUCKETS = 10_000;

/** The query string of `analytics` (Gravitee 1.x names); `q` is accepted for `query`. */
export const AnalyticsQuery = z
  .object({
    type: z.enum(['count', 'group_by', 'date_histo', 'stats']),
    from: z.coerce.number().int().min(0),
    to: z.coerce.number().int().min(0),
    interval: z.coerce.number().int().min(1000).max(1_000_000_000).optional(),
    query: z.string().max(4000).optional(),
    q: z.string().max(4000).optional(),
    field: z.string().max(200).optional(),
    size: z.coerce.number().int().min(0).max(10_000).optional(),
    ranges: z.string().max(2000).optional(),
    aggs: z.string().max(2000).optional(),
    order: z.string().max(200).optional(),
  })
  .refine((q) => q.from < q.to, { message: 'from must be before to', path: ['from'] })
  .refine((q) => q.type !== 'group_by' || (q.field ?? '').trim() !== '', {
    message: "field is required for 'group_by' request",
    path: ['field'],
  })
  .refine((q) => q.type !== 'stats' || (q.field ?? '').trim() !== '', {
    message: "field is required for 'stats' request",
    path: ['field'],
  })
  .refine((q) => q.type !== 'date_histo' || q.interval !== undefined, {
    message: "interval is required for 'date_histo' request",
    path: ['interval'],
  });
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

export type Aggregation =
  | { type: 'field'; field: string }
  | { type: 'avg' | 'min' | 'max'; field: string }
  | { type: 'percentiles'; field: string; percents: number[] };

/** Percentiles given when `percentiles:field` names none. */
export const DEFAULT_PERCENTS = [50, 90, 95, 99];

/** `field:status;avg:response-time;percentiles:response-time:50,99` (Gravitee's `aggs`, plus percentiles). */
export function parseAggregations(text: string | undefined): Aggregation[] {
  if (!text || !text.trim()) return [];
  return text.split(';').map((part) => {
    const [type = '', field = '', percents] = part.trim().split(':');
    if (!field) throw invalidField('aggs', `'${part}' is not type:field`);
    switch (type.toLowerCase()) {
      case 'field':
        return { type: 'field', field };
      case 'avg':
      case 'min':
      case 'max':
        return { type: type.toLowerCase() as 'avg' | 'min' | 'max', field };
      case 'percentiles':
        return {
          type: 'percentiles',
          field,
          percents: percents ? parsePercents(percents) : DEFAULT_PERCENTS,
        };
      default:
        throw invalidField('aggs', `unknown aggregation '${type}' (field, avg, min, max, percentiles)`);
    }
  });
}

function parsePercents(text: string): number[] {
  return text.split(',').map((p) => {
    const n = Number(p);
    if (!Number.isFinite(n) || n <= 0 || n > 100) throw invalidField('aggs', `'${p}' is not a percentile`);
    return n;
  });
}

/** `100:199;200:299` into [from, to) ranges. */
export function parseRanges(text: string | undefined): { from: number; to: number }[] | undefined {
  if (!text || !text.trim()) return undefined;
  return text.split(';').map((part) => {
    const [from, to] = part.trim().split(':').map(Number);
    if (
      from === undefined ||
      to === undefined ||
      !Number.isFinite(from) ||
      !Number.isFinite(to) ||
      from > to
    ) {
      throw invalidField('ranges', `'${part}' is not from:to`);
    }
    return { from, to };
  });
}

/** `-avg:response-time` (descending average), `count:api` or `response-time` (ascending average). */
export function parseOrder(text: string | undefined): GroupOrder | undefined {
  if (!text || !text.trim()) return undefined;
  const ascending = !text.startsWith('-');
  const parts = (ascending ? text : text.slice(1)).split(':');
  const [type, field] = parts.length === 2 ? [parts[0]!.toLowerCase(), parts[1]!] : ['avg', parts[0]!];
  if (!['avg', 'min', 'max', 'sum', 'count'].includes(type)) {
    throw invalidField('order', `unknown order type '${type}' (avg, min, max, sum, count)`);
  }
  return { field, type: type as MetricType, ascending };
}

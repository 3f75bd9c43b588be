import type { ApiDefinition } from '@portico/model';
import { invalidField, notFound } from '@portico/model';
import type { Executor, HealthCheckFilter, HealthCheckRow } from '@portico/storage';
import {
  findApiById,
  findHealthCheckById,
  findHealthChecks,
  findInstanceById,
  healthHistogram,
  healthStatsByWindow,
} from '@portico/storage';

/** The windows of the health figures (console-apis.md 3, Health log): last minute to last month. */
export const HEALTH_WINDOWS: Record<string, number> = {
  '1m': 60_000,
  '1h': 3_600_000,
  '1d': 86_400_000,
  '1w': 7 * 86_400_000,
  '1M': 30 * 86_400_000,
};
const MAX_BUCKETS = 10_000;

export type HealthType = 'availability' | 'response_time';
export type HealthField = 'endpoint' | 'gateway';

/** `apis/{id}/health`: a value per window and per endpoint (or gateway), their mean, who they are. */
export interface ApiMetrics {
  global: Record<string, number>;
  buckets: Record<string, Record<string, number>>;
  metadata: Record<string, Record<string, string>>;
}

/** A health check as listed (`health/logs`) and, with its request and response, as detailed. */
export interface HealthLog {
  id: string;
  timestamp: number;
  api: string;
  endpoint: string;
  gateway: string;
  responseTime: number;
  success: boolean;
  /** The endpoint still served the traffic after the check (UP or TRANSITIONALLY_DOWN). */
  available: boolean;
  state: number;
  message: string | null;
  request: { method?: string; uri?: string; headers?: Record<string, unknown>; body?: string | null };
  response: { status?: number; headers?: Record<string, unknown>; body?: string };
}

const parse = <T>(text: string | null): T | undefined => (text ? (JSON.parse(text) as T) : undefined);

function toLog(row: HealthCheckRow, detailed: boolean): HealthLog {
  const request = parse<HealthLog['request']>(row.request) ?? {};
  const response = parse<HealthLog['response']>(row.response) ?? {};
  return {
    id: row.id,
    timestamp: Number(row.timestamp),
    api: row.api_id,
    endpoint: row.endpoint,
    gateway: row.gateway,
    responseTime: Number(row.response_time),
    success: row.success === 1,
    available: row.state === 3 || row.state === 1,
    state: row.state,
    message: row.message,
    request: detailed ? request : { method: request.method, uri: request.uri },
    response: detailed ? response : { status: response.status },
  };
}

const LOG_QUERY_FIELDS = new Set(['endpoint', 'gateway', 'success', 'state']);

/**
 * The text query of the health logs: `endpoint:name`, `gateway:id`, `success:true|false`, `state:0-3`,
 * joined by spaces or AND (all must hold); a bare word is an endpoint name. 400 on another field.
 */
export function parseHealthQuery(query: string | undefined): HealthCheckFilter {
  const filter: HealthCheckFilter = {};
  const terms = (query ?? '')
    .split(/\s+(?:AND\s+)?/i)
    .map((term) => term.trim())
    .filter((term) => term !== '' && term.toUpperCase() !== 'AND');
  for (const term of terms) {
    const colon = term.indexOf(':');
    const field = colon < 0 ? 'endpoint' : term.slice(0, colon);
    const value = (colon < 0 ? term : term.slice(colon + 1))
      .replace(/^"(.*)"$/, '$1')
      .replace(/\\(.)/g, '$1');
    if (!LOG_QUERY_FIELDS.has(field)) throw invalidField('query', `Unknown field [${field}]`);
    if (field === 'endpoint') filter.endpoint = value;
    else if (field === 'gateway') filter.gateway = value;
    else if (field === 'success') {
      if (value !== 'true' && value !== 'false') throw invalidField('query', 'success is true or false');
      filter.success = value === 'true';
    } else {
      const state = Number(value);
      if (!Number.isInteger(state) || state < 0 || state > 3) throw invalidField('query', 'state is 0 to 3');
      filter.state = state;
    }
  }
  return filter;
}

/**
 * The health of an API as its gateways recorded it (console-apis.md 2.5 and 7): availability and
 * response time per endpoint or gateway over the windows of the spec, their evolution per interval,
 * and the checks themselves.
 */
export class HealthApiService {
  constructor(
    private readonly db: Executor,
    private readonly now: () => number = Date.now,
  ) {}

  private async definition(apiId: string): Promise<ApiDefinition> {
    const api = await findApiById(this.db, apiId);
    if (!api) throw notFound('API', apiId);
    return JSON.parse(api.definition) as ApiDefinition;
  }

  private async gatewayMetadata(id: string): Promise<Record<string, string>> {
    const instance = await findInstanceById(this.db, id);
    return instance ? { hostname: instance.hostname, ip: instance.ip } : { deleted: 'true' };
  }

  /**
   * `GET apis/{id}/health?type=&field=`: per endpoint (or gateway) the availability in percent, or the
   * average response time in ms, of each window (-1 without checks), the mean of the known values as
   * `global`, and metadata (an endpoint's target, or `deleted`; a gateway's hostname and ip).
   */
  async metrics(apiId: string, type: HealthType, field: HealthField): Promise<ApiMetrics> {
    const definition = await this.definition(apiId);
    const stats = await healthStatsByWindow(this.db, {
      apiId,
      field,
      now: this.now(),
      windows: HEALTH_WINDOWS,
    });
    const buckets: ApiMetrics['buckets'] = {};
    for (const [key, byWindow] of stats) {
      buckets[key] = Object.fromEntries(
        Object.entries(byWindow).map(([w, s]) => [
          w,
          s.total === 0
            ? -1
            : type === 'availability'
              ? (s.ok * 100) / s.total
              : Math.round(s.avgResponseTime ?? 0),
        ]),
      );
    }
    const global: Record<string, number> = {};
    for (const w of Object.keys(HEALTH_WINDOWS)) {
      const known = Object.values(buckets)
        .map((b) => b[w]!)
        .filter((v) => v >= 0);
      if (known.length > 0) global[w] = known.reduce((a, b) => a + b, 0) / known.length;
    }
    const targets = new Map(
      definition.proxy.groups.flatMap((g) => g.endpoints.map((e) => [e.name, e.target] as const)),
    );
    const metadata: ApiMetrics['metadata'] = {};
    for (const key of Object.keys(buckets)) {
      if (field === 'gateway') metadata[key] = await this.gatewayMetadata(key);
      else {
        const target = targets.get(key);
        metadata[key] = target === undefined ? { deleted: 'true' } : { target };
      }
    }
    return { global, buckets, metadata };
  }

  /**
   * `GET apis/{id}/health/average`: availability (percent of successful checks) or average response
   * time per interval from `from` to `to` (default: the last month), null where no check ran.
   */
  async average(
    apiId: string,
    q: { from?: number | undefined; to?: number | undefined; interval?: number | undefined; type: string },
  ) {
    await this.definition(apiId);
    const to = q.to ?? this.now();
    const from = q.from ?? to - HEALTH_WINDOWS['1M']!;
    if (from >= to) throw invalidField('from', 'from must be before to');
    const interval = q.interval ?? Math.max(1000, Math.ceil((to - from) / 100));
    if (Math.ceil((to - from) / interval) > MAX_BUCKETS)
      throw invalidField('interval', `The interval must leave at most ${MAX_BUCKETS} buckets.`);
    const rows = await healthHistogram(this.db, { apiId, from, to, interval });
    const availability = q.type === 'AVAILABILITY';
    const data: (number | null)[] = Array.from(
      { length: Math.ceil((to - from) / interval) || 1 },
      () => null,
    );
    for (const row of rows) {
      const i = Math.floor((row.bucket - from) / interval);
      if (i >= 0 && i < data.length)
        data[i] = availability ? (row.ok * 100) / row.total : Math.round(row.avgResponseTime);
    }
    const field = availability ? 'available' : 'response-time';
    return {
      timestamp: { from, to, interval },
      values: [
        {
          field,
          name: availability ? 'by_available' : 'avg_response-time',
          buckets: [{ name: field, data }],
        },
      ],
    };
  }

  /** `GET apis/{id}/health/logs`: checks newest first, a page at a time, with their gateways' metadata. */
  async logs(
    apiId: string,
    q: {
      page: number;
      size: number;
      query?: string | undefined;
      transition?: boolean | undefined;
      from?: number | undefined;
      to?: number | undefined;
    },
  ) {
    await this.definition(apiId);
    const filter = parseHealthQuery(q.query);
    const { rows, total } = await findHealthChecks(this.db, {
      apiId,
      from: q.from || undefined,
      to: q.to || undefined,
      transitionsOnly: q.transition === true,
      filter,
      offset: (q.page - 1) * q.size,
      limit: q.size,
    });
    const logs = rows.map((row) => toLog(row, false));
    const metadata: Record<string, Record<string, string>> = {};
    for (const gateway of new Set(logs.map((l) => l.gateway)))
      metadata[gateway] = await this.gatewayMetadata(gateway);
    return { total, logs, metadata };
  }

  /** `GET apis/{id}/health/logs/{logId}`: one check with its request and response; 404 for another API's. */
  async log(apiId: string, logId: string): Promise<HealthLog> {
    await this.definition(apiId);
    const row = await findHealthCheckById(this.db, logId);
    if (!row || row.api_id !== apiId) throw notFound('Health log', logId);
    return toLog(row, true);
  }
}

import { sql } from 'kysely';
import type { Executor } from '../database.js';

/** Health figures of one endpoint or gateway over one time window. */
export interface HealthWindowStats {
  /** Checks run in the window. */
  total: number;
  /** Successful checks in the window. */
  ok: number;
  /** Average response time of the checks in the window, in ms (null without checks). */
  avgResponseTime: number | null;
}

/**
 * Health of an API's checks per endpoint (or per gateway) over windows ending now: for each key, the
 * count of checks, of successful checks and the average response time of each window (one scan of the
 * API's checks since the widest window).
 */
export async function healthStatsByWindow(
  db: Executor,
  q: { apiId: string; field: 'endpoint' | 'gateway'; now: number; windows: Record<string, number> },
): Promise<Map<string, Record<string, HealthWindowStats>>> {
  const names = Object.keys(q.windows);
  const since = (name: string) => q.now - q.windows[name]!;
  const widest = Math.min(...names.map(since));
  const ts = sql.ref('timestamp');
  const columns = names.flatMap((name, i) => {
    const inside = sql`${ts} >= cast(${since(name)} as bigint)`;
    return [
      sql<number>`sum(case when ${inside} then 1 else 0 end)`.as(`t${i}`),
      sql<number>`sum(case when ${inside} then success else 0 end)`.as(`o${i}`),
      sql<number>`avg(case when ${inside} then response_time end)`.as(`r${i}`),
    ];
  });
  const rows = await db
    .selectFrom('health_checks')
    .where('api_id', '=', q.apiId)
    .where('timestamp', '>=', widest)
    .where('timestamp', '<=', q.now)
    .select(q.field === 'endpoint' ? 'endpoint as key' : 'gateway as key')
    .select(columns)
    .groupBy(q.field)
    .execute();
  const out = new Map<string, Record<string, HealthWindowStats>>();
  for (const row of rows as Record<string, unknown>[]) {
    const stats: Record<string, HealthWindowStats> = {};
    names.forEach((name, i) => {
      const avg = row[`r${i}`];
      stats[name] = {
        total: Number(row[`t${i}`] ?? 0),
        ok: Number(row[`o${i}`] ?? 0),
        avgResponseTime: avg === null || avg === undefined ? null : Number(avg),
      };
    });
    out.set(String(row.key), stats);
  }
  return out;
}

/** One interval of an API's checks: its start, the checks run, the successful ones, the average time. */
export interface HealthBucket {
  bucket: number;
  total: number;
  ok: number;
  avgResponseTime: number;
}

/** An API's checks per interval between `from` and `to` (intervals without checks are absent). */
export async function healthHistogram(
  db: Executor,
  q: { apiId: string; from: number; to: number; interval: number },
): Promise<HealthBucket[]> {
  const start = sql<number>`((${sql.ref('timestamp')} - cast(${q.from} as bigint)) / cast(${q.interval} as bigint)) * cast(${q.interval} as bigint) + cast(${q.from} as bigint)`;
  const rows = await db
    .selectFrom('health_checks')
    .where('api_id', '=', q.apiId)
    .where('timestamp', '>=', q.from)
    .where('timestamp', '<=', q.to)
    .select([
      start.as('bucket'),
      sql<number>`count(*)`.as('total'),
      sql<number>`sum(success)`.as('ok'),
      sql<number>`avg(response_time)`.as('rt'),
    ])
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
  return rows.map((r) => ({
    bucket: Number(r.bucket),
    total: Number(r.total),
    ok: Number(r.ok),
    avgResponseTime: Number(r.rt),
  }));
}

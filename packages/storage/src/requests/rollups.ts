/**
 * Per-minute rollups of the request rows (ARCHITECTURE.md "Analytics storage"): one row per minute and
 * combination of the dimensions the dashboards group and filter by, with the count, the sum, min and
 * max of each numeric metric and a histogram of the response time in fixed buckets (percentiles are
 * read from it, approximately). Rows are added to in the transaction that writes the raw requests, so
 * a rollup never misses or doubles a request, whichever gateway wrote it.
 */

/** Every dimension a rollup tier may keep (the `requests` column names); `method`, `status` never null. */
export const ROLLUP_DIMENSIONS = [
  'api_id',
  'application_id',
  'plan_id',
  'tenant',
  'status',
  'method',
] as const;
export type RollupDimension = (typeof ROLLUP_DIMENSIONS)[number];

/**
 * A rollup table: its time grain and the dimensions it keeps. Measured on a day of 1M requests over
 * 40 APIs and 300 applications (bench/analytics.mjs), a grain of one minute with the application as
 * a dimension holds about as many rows as requests (a pair API-application rarely repeats within a
 * minute): the minute tier leaves the application out, and a ten-minute tier keeps it. A query reads
 * the tier with the fewest dimensions that holds its fields (then the coarsest grain).
 */
export interface RollupTier {
  table: 'request_rollups' | 'request_rollups_10m' | 'request_rollups_api';
  grainMs: number;
  dimensions: readonly RollupDimension[];
}

export const ROLLUP_TIERS: readonly RollupTier[] = [
  {
    table: 'request_rollups',
    grainMs: 60_000,
    dimensions: ['api_id', 'plan_id', 'tenant', 'status', 'method'],
  },
  {
    table: 'request_rollups_10m',
    grainMs: 600_000,
    dimensions: ['api_id', 'application_id', 'plan_id', 'tenant', 'status'],
  },
  // The platform and API dashboards' widgets that need only the API and the status: ~40k rows a day.
  { table: 'request_rollups_api', grainMs: 600_000, dimensions: ['api_id', 'status'] },
];

/** The numeric metrics kept as sum, min and max (`<metric>_sum` ...). */
export const ROLLUP_METRICS = [
  'response_time',
  'api_response_time',
  'latency',
  'request_content_length',
  'response_content_length',
] as const;
export type RollupMetric = (typeof ROLLUP_METRICS)[number];

/**
 * Upper bounds (ms, inclusive) of the response-time histogram buckets `h0`.. ; the last bucket `h<n>`
 * holds everything above the last bound. Roughly logarithmic, with the dashboard's 100 ms steps.
 */
export const LATENCY_BOUNDS = [
  1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 2000, 5000, 10000, 30000,
] as const;
export const HISTOGRAM_COLUMNS = Array.from({ length: LATENCY_BOUNDS.length + 1 }, (_, i) => `h${i}`);

/** The histogram bucket of a response time. */
export function latencyBucket(ms: number): number {
  for (let i = 0; i < LATENCY_BOUNDS.length; i++) if (ms <= LATENCY_BOUNDS[i]!) return i;
  return LATENCY_BOUNDS.length;
}

export const MINUTE_MS = 60_000;

/**
 * `=value` per dimension (`~` when null) joined by `|`: unique per combination of values that hold no
 * `|=` (ids are UUIDs, statuses numbers). `rollupKeySql` computes the same text in SQL.
 */
export function rollupKey(values: readonly (string | number | null | undefined)[]): string {
  let key = '';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    key += (i ? '|' : '') + (v === null || v === undefined ? '~' : `=${v}`);
  }
  return key;
}

/** SQL of `rollupKey` over the `requests` columns (the same text on both databases). */
export const rollupKeySql = (tier: RollupTier) =>
  tier.dimensions
    .map((d) => (d === 'status' ? `'=' || cast("status" as text)` : `coalesce('=' || "${d}", '~')`))
    .join(` || '|' || `);

/** The measures of a rollup row, after its time, key and dimensions. */
export const MEASURE_COLUMNS = [
  'count',
  ...ROLLUP_METRICS.flatMap((m) => [`${m}_sum`, `${m}_min`, `${m}_max`]),
  ...HISTOGRAM_COLUMNS,
];

/** The columns of a tier's rows in insert order (`minute` is the start of the grain). */
export const rollupColumns = (tier: RollupTier) => ['minute', 'key', ...tier.dimensions, ...MEASURE_COLUMNS];

/** Reads one column of a request row (compiled once per column: positional rows read by index). */
export type ColumnReader<R> = (row: R) => string | number | null | undefined;

/**
 * Gathers requests into rollup rows (positional, in `rollupColumns` order), one per minute and key.
 * `reader(column)` answers how to read a column of a request, asked once per column here, so that
 * objects and positional rows both fit and adding a request looks nothing up by name. A request of
 * the same minute and dimensions as the one before (most of a batch, under a few busy APIs) goes to
 * the same rollup row without building its key.
 */
export class RollupAccumulator<R> {
  private readonly rows = new Map<string, (string | number | null)[]>();
  private last: (string | number | null)[] | undefined;
  private readonly countAt: number;
  private readonly metricsAt: number;
  private readonly histogramAt: number;
  private readonly timestamp: ColumnReader<R>;
  private readonly responseTime: ColumnReader<R>;
  private readonly dimensions: ColumnReader<R>[];
  private readonly metrics: ColumnReader<R>[];

  constructor(
    private readonly tier: RollupTier,
    reader: (column: string) => ColumnReader<R>,
  ) {
    this.countAt = 2 + tier.dimensions.length;
    this.metricsAt = this.countAt + 1;
    this.histogramAt = this.metricsAt + ROLLUP_METRICS.length * 3;
    this.timestamp = reader('timestamp');
    this.responseTime = reader('response_time');
    this.dimensions = tier.dimensions.map(reader);
    this.metrics = ROLLUP_METRICS.map(reader);
  }

  add(row: R): void {
    const grain = this.tier.grainMs;
    const minute = Math.floor(Number(this.timestamp(row)) / grain) * grain;
    let values = this.last !== undefined && this.sameRow(this.last, minute, row) ? this.last : undefined;
    if (values === undefined) {
      const dims = this.dimensions.map((d) => d(row) ?? null);
      const key = rollupKey(dims);
      const id = `${minute}#${key}`;
      values = this.rows.get(id);
      if (!values) {
        values = [minute, key, ...dims, 0];
        for (let i = 0; i < ROLLUP_METRICS.length; i++) values.push(0, null, null);
        for (let i = 0; i < HISTOGRAM_COLUMNS.length; i++) values.push(0);
        this.rows.set(id, values);
      }
      this.last = values;
    }
    (values[this.countAt] as number) += 1;
    for (let i = 0; i < this.metrics.length; i++) {
      const v = Number(this.metrics[i]!(row) ?? 0);
      const at = this.metricsAt + i * 3;
      (values[at] as number) += v;
      const min = values[at + 1] as number | null;
      const max = values[at + 2] as number | null;
      if (min === null || v < min) values[at + 1] = v;
      if (max === null || v > max) values[at + 2] = v;
    }
    (values[this.histogramAt + latencyBucket(Number(this.responseTime(row) ?? 0))] as number) += 1;
  }

  /** Whether the request falls in this rollup row: same minute, same value of every dimension. */
  private sameRow(values: (string | number | null)[], minute: number, row: R): boolean {
    if (values[0] !== minute) return false;
    for (let i = 0; i < this.dimensions.length; i++) {
      if (values[2 + i] !== (this.dimensions[i]!(row) ?? null)) return false;
    }
    return true;
  }

  /** The rollup rows, sorted by minute and key: concurrent writers lock rows in one order (no deadlock). */
  take(): (string | number | null)[][] {
    const ids = [...this.rows.keys()].sort();
    const out = ids.map((id) => this.rows.get(id)!);
    this.rows.clear();
    this.last = undefined;
    return out;
  }
}

/**
 * The upsert of one rollup row: a new row, or the sums added to and the extremes widened of the
 * existing one. `least`/`greatest` on PostgreSQL, the two-argument `min`/`max` on SQLite.
 */
export function rollupUpsertSql(tier: RollupTier, dialect: 'sqlite' | 'postgres', rows = 1): string {
  const [least, greatest] = dialect === 'postgres' ? ['least', 'greatest'] : ['min', 'max'];
  const t = tier.table;
  const columns = rollupColumns(tier);
  const updates = [
    `"count" = ${t}."count" + excluded."count"`,
    ...ROLLUP_METRICS.flatMap((m) => [
      `"${m}_sum" = ${t}."${m}_sum" + excluded."${m}_sum"`,
      `"${m}_min" = ${least}(${t}."${m}_min", excluded."${m}_min")`,
      `"${m}_max" = ${greatest}(${t}."${m}_max", excluded."${m}_max")`,
    ]),
    ...HISTOGRAM_COLUMNS.map((h) => `"${h}" = ${t}."${h}" + excluded."${h}"`),
  ];
  const placeholders = (offset: number) =>
    `(${columns.map((_, i) => (dialect === 'postgres' ? `$${offset + i + 1}` : '?')).join(', ')})`;
  const values = Array.from({ length: rows }, (_, r) => placeholders(r * columns.length)).join(', ');
  return (
    `insert into ${t} (${columns.map((c) => `"${c}"`).join(', ')}) values ${values} ` +
    `on conflict ("minute", "key") do update set ${updates.join(', ')}`
  );
}

/** The SQL expression of histogram bucket `i` for one request row (1 when its response time falls in it). */
export function histogramCaseSql(i: number, column = '"response_time"'): string {
  const lower = i === 0 ? undefined : LATENCY_BOUNDS[i - 1];
  const upper = LATENCY_BOUNDS[i];
  const parts = [
    lower === undefined ? '' : `${column} > ${lower}`,
    upper === undefined ? '' : `${column} <= ${upper}`,
  ]
    .filter(Boolean)
    .join(' and ');
  return `case when ${parts} then 1 else 0 end`;
}

/**
 * `insert into request_rollups select ...` of the requests matching `where` (SQL text on the requests
 * columns), for the migration that builds rollups of the rows already there.
 */
export function rollupBackfillSql(tier: RollupTier, where = '1 = 1'): string {
  const minute = `("timestamp" / ${tier.grainMs}) * ${tier.grainMs}`;
  const select = [
    `${minute}`,
    rollupKeySql(tier),
    ...tier.dimensions.map((d) => `"${d}"`),
    'count(*)',
    ...ROLLUP_METRICS.flatMap((m) => [`sum("${m}")`, `min("${m}")`, `max("${m}")`]),
    ...HISTOGRAM_COLUMNS.map((_, i) => `sum(${histogramCaseSql(i)})`),
  ];
  const groupBy = [minute, ...tier.dimensions.map((d) => `"${d}"`)];
  return (
    `insert into ${tier.table} (${rollupColumns(tier)
      .map((c) => `"${c}"`)
      .join(', ')}) ` +
    `select ${select.join(', ')} from requests where ${where} group by ${groupBy.join(', ')}`
  );
}

/** A rollup row (read by the analytics layer with SQL of its own; typed for the schema's completeness). */
export type RequestRollupTable = {
  minute: number;
  key: string;
  api_id: string | null;
  /** Only in the ten-minute tier. */
  application_id: string | null;
  plan_id: string | null;
  tenant: string | null;
  status: number;
  /** Only in the minute tier. */
  method: string;
  count: number;
} & Record<`${RollupMetric}_${'sum' | 'min' | 'max'}` | `h${number}`, number>;

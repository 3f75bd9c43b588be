import type { NewRequestRow } from '@portico/storage';
import type { MetricValue } from './registry.js';
import { SnapshotMetric } from './registry.js';

/** Upper bounds of the latency histograms, in seconds (prom-client's defaults). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
const BUCKETS_MS = LATENCY_BUCKETS.map((b) => b * 1000);
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** The label of an absent id (no API matched, keyless plan without application). */
export const NONE = 'none';
/** The label that values beyond the caps fold into. */
export const OTHER = 'other';

/** Caps on distinct label values: beyond them, new values are counted under `other`. */
export interface MetricsLimits {
  apis: number;
  plans: number;
  applications: number;
  /** Distinct (api, plan, application) sets; beyond, requests count under other/other/other. */
  series: number;
}

export const DEFAULT_METRICS_LIMITS: MetricsLimits = {
  apis: 500,
  plans: 1000,
  applications: 1000,
  series: 2000,
};

/** A latency histogram without labels: plain numbers, bucket counts not yet cumulated. */
class Timing {
  count = 0;
  sumMs = 0;
  readonly buckets = new Float64Array(BUCKETS_MS.length);

  observe(ms: number): void {
    this.count++;
    this.sumMs += ms;
    let i = 0;
    while (i < BUCKETS_MS.length && ms > BUCKETS_MS[i]!) i++;
    if (i < BUCKETS_MS.length) this.buckets[i]! += 1;
  }

  values(name: string, labels: Record<string, string>, out: MetricValue[]): void {
    let cumulated = 0;
    for (let i = 0; i < BUCKETS_MS.length; i++) {
      cumulated += this.buckets[i]!;
      out.push({
        labels: { ...labels, le: LATENCY_BUCKETS[i]! },
        value: cumulated,
        metricName: `${name}_bucket`,
      });
    }
    out.push({ labels: { ...labels, le: '+Inf' }, value: this.count, metricName: `${name}_bucket` });
    out.push({ labels, value: this.sumMs / 1000, metricName: `${name}_sum` });
    out.push({ labels, value: this.count, metricName: `${name}_count` });
  }
}

interface Series {
  labels: { api: string; plan: string; application: string };
  /** One histogram per status class (index 0 = 1xx), made on first use. */
  classes: (Timing | undefined)[];
  upstream: Timing;
  rateLimited: number;
  quotaExceeded: number;
}

/**
 * The gateway's request figures per API, plan, application and status class. Recording a request
 * looks its series up in nested maps by the ids already on the request's record (no key string, no
 * labels object) and adds to plain numbers; labels are only built when Prometheus scrapes.
 */
export class RequestMetrics {
  private readonly tree = new Map<string, Map<string, Map<string, Series>>>();
  private readonly byKey = new Map<string, Series>();
  private readonly upstreams = new Map<string, Timing>();
  private readonly seen = {
    apis: new Set<string>(),
    plans: new Set<string>(),
    applications: new Set<string>(),
  };

  constructor(private readonly limits: MetricsLimits = DEFAULT_METRICS_LIMITS) {}

  record(r: NewRequestRow): void {
    const api = r.api_id ?? NONE;
    const plan = r.plan_id ?? NONE;
    const application = r.application_id ?? NONE;
    const series = this.tree.get(api)?.get(plan)?.get(application) ?? this.add(api, plan, application);
    const status = r.status;
    const c = status >= 100 && status < 600 ? ((status / 100) | 0) - 1 : 4;
    (series.classes[c] ??= new Timing()).observe(r.response_time);
    if (r.api_response_time >= 0) series.upstream.observe(r.api_response_time);
    const key = r.error_key;
    if (key !== null) {
      if (key === 'RATE_LIMIT_TOO_MANY_REQUESTS') series.rateLimited++;
      else if (key === 'QUOTA_TOO_MANY_REQUESTS') series.quotaExceeded++;
    }
  }

  /** The prom-client metrics over these figures. */
  metrics(): SnapshotMetric[] {
    return [
      new SnapshotMetric(
        'portico_gateway_requests_total',
        'Requests answered by the gateway, per API, plan, application and status class.',
        'counter',
        () => this.perClass((t) => [{ value: t.count }]),
      ),
      new SnapshotMetric(
        'portico_gateway_request_duration_seconds',
        'Time from request received to response sent, per API, plan, application and status class.',
        'histogram',
        () => {
          const out: MetricValue[] = [];
          for (const s of this.byKey.values())
            s.classes.forEach((t, i) => {
              if (t) t.values('portico_gateway_request_duration_seconds', classLabels(s, i), out);
            });
          return out;
        },
      ),
      new SnapshotMetric(
        'portico_gateway_upstream_duration_seconds',
        'Time the backend took to answer, per API.',
        'histogram',
        () => {
          const out: MetricValue[] = [];
          for (const [api, t] of this.upstreams)
            if (t.count > 0) t.values('portico_gateway_upstream_duration_seconds', { api }, out);
          return out;
        },
      ),
      new SnapshotMetric(
        'portico_gateway_rejections_total',
        'Requests refused by a rate-limit or quota policy (reason), per API, plan and application.',
        'counter',
        () => {
          const out: MetricValue[] = [];
          for (const s of this.byKey.values()) {
            if (s.rateLimited > 0)
              out.push({ labels: { ...s.labels, reason: 'rate_limit' }, value: s.rateLimited });
            if (s.quotaExceeded > 0)
              out.push({ labels: { ...s.labels, reason: 'quota' }, value: s.quotaExceeded });
          }
          return out;
        },
      ),
    ];
  }

  private perClass(value: (t: Timing) => { value: number }[]): MetricValue[] {
    const out: MetricValue[] = [];
    for (const s of this.byKey.values())
      s.classes.forEach((t, i) => {
        if (t) for (const v of value(t)) out.push({ labels: classLabels(s, i), value: v.value });
      });
    return out;
  }

  /** First request of an (api, plan, application): its series, folded into `other` beyond the caps. */
  private add(rawApi: string, rawPlan: string, rawApplication: string): Series {
    const api = admit(this.seen.apis, rawApi, this.limits.apis);
    const plan = admit(this.seen.plans, rawPlan, this.limits.plans);
    const application = admit(this.seen.applications, rawApplication, this.limits.applications);
    let key = `${api}\n${plan}\n${application}`;
    let series = this.byKey.get(key);
    if (!series && this.byKey.size >= this.limits.series) {
      key = `${OTHER}\n${OTHER}\n${OTHER}`;
      series = this.byKey.get(key);
    }
    if (!series) {
      const [a, p, c] = key.split('\n') as [string, string, string];
      let upstream = this.upstreams.get(a);
      if (!upstream) this.upstreams.set(a, (upstream = new Timing()));
      series = {
        labels: { api: a, plan: p, application: c },
        classes: [undefined, undefined, undefined, undefined, undefined],
        upstream,
        rateLimited: 0,
        quotaExceeded: 0,
      };
      this.byKey.set(key, series);
    }
    // Only values that kept their own label get the fast path (the raw ids are bounded by what is
    // deployed, but the tree then never grows past the caps either).
    const l = series.labels;
    if (l.api === rawApi && l.plan === rawPlan && l.application === rawApplication) {
      let byPlan = this.tree.get(rawApi);
      if (!byPlan) this.tree.set(rawApi, (byPlan = new Map()));
      let byApplication = byPlan.get(rawPlan);
      if (!byApplication) byPlan.set(rawPlan, (byApplication = new Map()));
      byApplication.set(rawApplication, series);
    }
    return series;
  }
}

function admit(seen: Set<string>, value: string, limit: number): string {
  if (seen.has(value)) return value;
  if (value === NONE || seen.size < limit) {
    seen.add(value);
    return value;
  }
  return OTHER;
}

const classLabels = (s: Series, i: number) => ({ ...s.labels, status_class: STATUS_CLASSES[i]! });

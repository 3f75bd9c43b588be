/**
 * Tracing's configuration: the standard OpenTelemetry variables (OTEL_*), read from the environment
 * or from the same keys in portico.yml. Tracing is off unless an OTLP endpoint is configured.
 */
export type OtelVariables = Readonly<Record<string, string | undefined>>;

export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

export interface TracingSettings {
  /** Where spans are POSTed (OTLP/HTTP protobuf): the base endpoint with `/v1/traces`, or the traces endpoint. */
  url: string;
  /** OTEL_EXPORTER_OTLP_HEADERS (and _TRACES_HEADERS): sent with every export; never logged. */
  headers: Record<string, string>;
  sampler: SamplerName;
  /** The ratio of the traceidratio samplers (0 to 1). */
  ratio: number;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  /**
   * The batch processor (OTEL_BSP_MAX_QUEUE_SIZE, OTEL_BSP_MAX_EXPORT_BATCH_SIZE, OTEL_BSP_SCHEDULE_DELAY,
   * OTEL_BSP_EXPORT_TIMEOUT).
   */
  batch: {
    maxQueueSize: number;
    maxExportBatchSize: number;
    scheduledDelayMillis: number;
    exportTimeoutMillis: number;
  };
}

function positive(vars: OtelVariables, name: string, fallback: number, warn: (m: string) => void): number {
  const text = set(vars[name]);
  if (text === undefined) return fallback;
  const n = Number(text);
  if (Number.isInteger(n) && n > 0) return n;
  warn(`${name}: ${text} is not a positive integer, ${fallback} is used`);
  return fallback;
}

const set = (v: string | undefined): string | undefined => (v && v.trim() ? v.trim() : undefined);

/** `key1=value1,key2=value2`, values URL-decoded as the OpenTelemetry specification says; bad pairs skipped. */
export function parseKeyValues(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!text) return out;
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      const key = decodeURIComponent(pair.slice(0, at).trim());
      if (key) out[key] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // A malformed escape: the pair is skipped.
    }
  }
  return out;
}

/**
 * The tracing settings the variables describe, or undefined when tracing is off (no OTLP endpoint,
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none). An unknown sampler falls back to the
 * specification's default (parentbased_always_on), a bad ratio to 1; `warn` says so.
 */
export function tracingSettings(
  vars: OtelVariables,
  defaultServiceName: string,
  warn: (message: string) => void = () => {},
): TracingSettings | undefined {
  if (set(vars.OTEL_SDK_DISABLED)?.toLowerCase() === 'true') return undefined;
  const exporter = set(vars.OTEL_TRACES_EXPORTER)?.toLowerCase();
  if (exporter === 'none') return undefined;
  const tracesEndpoint = set(vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const base = set(vars.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (!tracesEndpoint && !base) return undefined;
  const url = tracesEndpoint ?? `${base!.replace(/\/+$/, '')}/v1/traces`;
  let sampler = (set(vars.OTEL_TRACES_SAMPLER)?.toLowerCase() ?? 'parentbased_always_on') as SamplerName;
  if (!SAMPLERS.includes(sampler)) {
    warn(`OTEL_TRACES_SAMPLER: unknown sampler ${sampler}, parentbased_always_on is used`);
    sampler = 'parentbased_always_on';
  }
  let ratio = 1;
  const arg = set(vars.OTEL_TRACES_SAMPLER_ARG);
  if (arg !== undefined && sampler.endsWith('traceidratio')) {
    const n = Number(arg);
    if (Number.isFinite(n) && n >= 0 && n <= 1) ratio = n;
    else warn(`OTEL_TRACES_SAMPLER_ARG: ${arg} is not a ratio from 0 to 1, 1 is used`);
  }
  const resourceAttributes = parseKeyValues(vars.OTEL_RESOURCE_ATTRIBUTES);
  const maxQueueSize = positive(vars, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048, warn);
  // The specification's defaults; an export batch is never larger than the queue.
  let maxExportBatchSize = positive(vars, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, warn);
  if (maxExportBatchSize > maxQueueSize) {
    if (set(vars.OTEL_BSP_MAX_EXPORT_BATCH_SIZE) !== undefined)
      warn(
        `OTEL_BSP_MAX_EXPORT_BATCH_SIZE: ${maxExportBatchSize} is above OTEL_BSP_MAX_QUEUE_SIZE, ${maxQueueSize} is used`,
      );
    maxExportBatchSize = maxQueueSize;
  }
  return {
    url,
    headers: {
      ...parseKeyValues(vars.OTEL_EXPORTER_OTLP_HEADERS),
      ...parseKeyValues(vars.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
    },
    sampler,
    ratio,
    serviceName: set(vars.OTEL_SERVICE_NAME) ?? resourceAttributes['service.name'] ?? defaultServiceName,
    resourceAttributes,
    batch: {
      maxQueueSize,
      maxExportBatchSize,
      scheduledDelayMillis: positive(vars, 'OTEL_BSP_SCHEDULE_DELAY', 1000, warn),
      exportTimeoutMillis: positive(vars, 'OTEL_BSP_EXPORT_TIMEOUT', 10_000, warn),
    },
  };
}

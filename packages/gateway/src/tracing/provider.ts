import type { Attributes, Context, Link, SpanKind, Tracer } from '@opentelemetry/api';
import { createContextKey } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import type { Sampler, SamplingResult, Span } from '@opentelemetry/sdk-trace-base';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { EncodingBatchProcessor } from './encoding-processor.js';
import { PorticoTraceExporter } from './otlp-exporter.js';
import type { TracingSettings } from './settings.js';

/** A context value: the sampling ratio of the API a call belongs to (its own setting). */
export const API_SAMPLING_RATIO = createContextKey('portico.api.sampling_ratio');

/** Spans that wait for export at most; beyond, new ones are dropped and counted. */
export const DEFAULT_MAX_QUEUE = 2048;

export interface TracingOptions {
  maxQueueSize?: number;
  /** Spans per export request, at most (never more than the queue); default 512. */
  maxExportBatchSize?: number;
  /** How often the batch goes out (ms); default 1 s. */
  scheduledDelayMillis?: number;
  /** How long one export may take (ms); default 10 s. */
  exportTimeoutMillis?: number;
  /** Called once per span dropped (queue full, or the collector refused or did not answer). */
  onDropped?: (count: number) => void;
}

function baseSampler(name: string, ratio: number): Sampler {
  const root = name.endsWith('always_off')
    ? new AlwaysOffSampler()
    : name.endsWith('traceidratio')
      ? new TraceIdRatioBasedSampler(ratio)
      : new AlwaysOnSampler();
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

/**
 * The configured sampler, unless the context carries an API's own ratio: then a ratio sampler with that
 * ratio (behind the parent's decision when the configured sampler is parent-based).
 */
export class PorticoSampler implements Sampler {
  private readonly base: Sampler;
  private readonly parentBased: boolean;
  private readonly byRatio = new Map<number, Sampler>();

  constructor(name: string, ratio: number) {
    this.base = baseSampler(name, ratio);
    this.parentBased = name.startsWith('parentbased_');
  }

  shouldSample(
    context: Context,
    traceId: string,
    spanName: string,
    spanKind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    const ratio = context.getValue(API_SAMPLING_RATIO) as number | undefined;
    if (ratio === undefined)
      return this.base.shouldSample(context, traceId, spanName, spanKind, attributes, links);
    let sampler = this.byRatio.get(ratio);
    if (!sampler) {
      const root = new TraceIdRatioBasedSampler(ratio);
      sampler = this.parentBased ? new ParentBasedSampler({ root }) : root;
      this.byRatio.set(ratio, sampler);
    }
    return sampler.shouldSample(context, traceId, spanName, spanKind, attributes, links);
  }

  toString(): string {
    return `PorticoSampler{${this.base.toString()}}`;
  }
}

/** A started tracer provider exporting over OTLP/HTTP protobuf; `dropped` counts spans lost. */
export interface TracingProvider<T = Tracer> {
  tracer: T;
  readonly dropped: number;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** What every provider of Portico is made of: its sampler, resource and batch processor (to OTLP/HTTP). */
export interface TracingPipeline {
  sampler: Sampler;
  resource: Resource;
  processor: EncodingBatchProcessor;
  readonly dropped: number;
}

export function tracingPipeline(
  settings: TracingSettings,
  version: string,
  options: TracingOptions = {},
): TracingPipeline {
  let dropped = 0;
  const exporter = new PorticoTraceExporter({
    url: settings.url,
    headers: settings.headers,
    timeoutMillis: options.exportTimeoutMillis ?? 10_000,
  });
  const maxQueueSize = options.maxQueueSize ?? DEFAULT_MAX_QUEUE;
  const processor = new EncodingBatchProcessor(
    exporter,
    {
      maxQueueSize,
      maxExportBatchSize: Math.min(options.maxExportBatchSize ?? 512, maxQueueSize),
      scheduledDelayMillis: options.scheduledDelayMillis ?? 1000,
      exportTimeoutMillis: options.exportTimeoutMillis ?? 10_000,
    },
    (n) => {
      dropped += n;
      options.onDropped?.(n);
    },
  );
  const resource = defaultResource().merge(
    resourceFromAttributes({
      ...settings.resourceAttributes,
      'service.name': settings.serviceName,
      'service.version': version,
    }),
  );
  return {
    sampler: new PorticoSampler(settings.sampler, settings.ratio),
    resource,
    processor,
    get dropped() {
      return dropped;
    },
  };
}

/** Shutting down flushes what waits, but never longer than a second. */
export function boundedShutdown(shutdown: () => Promise<void>): Promise<void> {
  return Promise.race([
    shutdown().catch(() => {}),
    new Promise<void>((resolve) => setTimeout(resolve, 1000).unref()),
  ]);
}

/** The SDK's tracer provider on Portico's pipeline (the management server's spans). */
export function startTracingProvider(
  settings: TracingSettings,
  version: string,
  options: TracingOptions = {},
): TracingProvider {
  const pipeline = tracingPipeline(settings, version, options);
  const provider = new BasicTracerProvider({
    resource: pipeline.resource,
    sampler: pipeline.sampler,
    spanProcessors: [pipeline.processor],
  });
  return {
    tracer: provider.getTracer('portico', version),
    get dropped() {
      return pipeline.dropped;
    },
    forceFlush: () => provider.forceFlush(),
    shutdown: () => boundedShutdown(() => provider.shutdown()),
  };
}

export type { Span };

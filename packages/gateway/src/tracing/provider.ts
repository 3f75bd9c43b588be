import type { Attributes, Context, Link, SpanKind, Tracer } from '@opentelemetry/api';
import { TraceFlags, createContextKey } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode } from '@opentelemetry/core';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import type {
  ReadableSpan,
  Sampler,
  SamplingResult,
  Span,
  SpanExporter,
  SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { PorticoTraceExporter } from './otlp-exporter.js';
import type { TracingSettings } from './settings.js';

/** A context value: the sampling ratio of the API a call belongs to (its own setting). */
export const API_SAMPLING_RATIO = createContextKey('portico.api.sampling_ratio');

/** Spans that wait for export at most; beyond, new ones are dropped and counted. */
export const DEFAULT_MAX_QUEUE = 2048;

export interface TracingOptions {
  maxQueueSize?: number;
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

/**
 * The batch processor behind a bound: spans waiting for export or being exported are at most
 * maxQueueSize; beyond, a span is dropped and counted, and so are the spans of an export that failed
 * (collector down, refused, timed out). Nothing here ever waits on the collector.
 */
class BoundedBatchProcessor implements SpanProcessor {
  private pending = 0;
  private readonly inner: BatchSpanProcessor;

  constructor(
    exporter: SpanExporter,
    private readonly max: number,
    options: TracingOptions,
    private readonly dropped: (n: number) => void,
  ) {
    const counting: SpanExporter = {
      export: (spans: ReadableSpan[], done: (result: ExportResult) => void) => {
        exporter.export(spans, (result) => {
          this.pending -= spans.length;
          if (result.code !== ExportResultCode.SUCCESS) this.dropped(spans.length);
          done(result);
        });
      },
      shutdown: () => exporter.shutdown(),
      forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
    };
    this.inner = new BatchSpanProcessor(counting, {
      maxQueueSize: max,
      maxExportBatchSize: Math.min(512, max),
      scheduledDelayMillis: options.scheduledDelayMillis ?? 1000,
      exportTimeoutMillis: options.exportTimeoutMillis ?? 10_000,
    });
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.pending >= this.max) return this.dropped(1);
    this.pending++;
    this.inner.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/** A started tracer provider exporting over OTLP/HTTP protobuf; `dropped` counts spans lost. */
export interface TracingProvider {
  tracer: Tracer;
  readonly dropped: number;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

export function startTracingProvider(
  settings: TracingSettings,
  version: string,
  options: TracingOptions = {},
): TracingProvider {
  let dropped = 0;
  const exporter = new PorticoTraceExporter({
    url: settings.url,
    headers: settings.headers,
    timeoutMillis: options.exportTimeoutMillis ?? 10_000,
  });
  const processor = new BoundedBatchProcessor(
    exporter,
    options.maxQueueSize ?? DEFAULT_MAX_QUEUE,
    options,
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
  const provider = new BasicTracerProvider({
    resource,
    sampler: new PorticoSampler(settings.sampler, settings.ratio),
    spanProcessors: [processor],
  });
  return {
    tracer: provider.getTracer('portico', version),
    get dropped() {
      return dropped;
    },
    forceFlush: () => provider.forceFlush(),
    // Shutting down flushes what waits, but never longer than a second.
    shutdown: () =>
      Promise.race([
        provider.shutdown().catch(() => {}),
        new Promise<void>((resolve) => setTimeout(resolve, 1000).unref()),
      ]),
  };
}

export type { Span };

import { ROOT_CONTEXT, TraceFlags, context } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode, suppressTracing } from '@opentelemetry/core';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { EncodedSpans } from './otlp-encoder.js';
import { EncodedSpanBatch } from './otlp-encoder.js';
import { CallSpans } from './call-spans.js';
import { GatewaySpan } from './gateway-span.js';
import { BufferPool } from './protobuf-writer.js';

const MIN_BATCH_BYTES = 64 * 1024;
const MAX_BATCH_BYTES = 4 * 1024 * 1024;
/**
 * Ended spans wait in a small group, encoded together when it is full or at the latest after
 * `GROUP_WAIT_MS`. Encoded one by one, each span met the encoder cold (its code and tables evicted by
 * the rest of the call and the other processes), and cost about four times what it costs in a loop; a
 * group is short-lived enough that its spans still die young.
 */
const GROUP_SIZE = 128;
const GROUP_WAIT_MS = 25;

/** Where encoded batches go: the OTLP exporter (`PorticoTraceExporter`), or a test's. */
export interface EncodedSpanExporter {
  export(batch: EncodedSpans, done: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
}

export interface EncodingBatchOptions {
  /** Spans encoded and not yet exported, at most; beyond, a span is dropped and counted. */
  maxQueueSize: number;
  /** Spans per export request, at most. */
  maxExportBatchSize: number;
  /** How long the first span of a batch waits for others before the batch goes out (ms). */
  scheduledDelayMillis: number;
  /** How long one export may take before its spans count as dropped and the next goes (ms). */
  exportTimeoutMillis: number;
}

/**
 * The gateway's batch span processor. Like the SDK's `BatchSpanProcessor` it sends spans in batches,
 * one export at a time, on a timer or when a batch is full, behind a bounded queue that never waits
 * on the collector; unlike it, sampled spans are encoded (OTLP protobuf) within milliseconds of their
 * end (a group at a time, see `GROUP_SIZE`), so the queue holds bytes. Span objects then die young:
 * held in a queue for up to a second, they outlived the young generation and their collection cost
 * more than creating them.
 * Dropped and counted: spans beyond the bound, and those of an export that failed (collector down,
 * refused, or not answering within the export timeout).
 */
export class EncodingBatchProcessor implements SpanProcessor {
  /** The buffers of exported batches, written again by the next ones. */
  private readonly pool = new BufferPool();
  private batch = new EncodedSpanBatch(MIN_BATCH_BYTES, this.pool);
  /** Bytes to allocate for a batch: a bit more than the last one took, so that it rarely grows. */
  private batchSize = MIN_BATCH_BYTES;
  private readonly waiting: EncodedSpans[] = [];
  /** Ended spans not encoded yet (at most `GROUP_SIZE`); the array is kept from group to group. */
  private readonly group: (ReadableSpan | CallSpans)[] = [];
  /** The spans in the group (a call's entry holds up to three). */
  private groupSpans = 0;
  private groupTimer: NodeJS.Timeout | undefined;
  /** Spans encoded and not yet exported (in the batch, waiting, or being sent). */
  private pending = 0;
  private sending = false;
  private timer: NodeJS.Timeout | undefined;
  private idle: (() => void)[] = [];

  constructor(
    private readonly exporter: EncodedSpanExporter,
    private readonly options: EncodingBatchOptions,
    private readonly dropped: (count: number) => void,
  ) {}

  onStart(): void {}

  onEnd(span: ReadableSpan | CallSpans): void {
    const call = span instanceof CallSpans;
    const flags = call || span instanceof GatewaySpan ? span.traceFlags : span.spanContext().traceFlags;
    if ((flags & TraceFlags.SAMPLED) === 0) return;
    // A call's spans (up to three) are kept or dropped together.
    const count = call ? span.spanCount() : 1;
    if (this.pending + count > this.options.maxQueueSize) return this.dropped(count);
    this.pending += count;
    this.groupSpans += count;
    this.group.push(span);
    // The batch goes once its first span has waited the scheduled delay, encoded or not by then.
    this.timer ??= setTimeout(() => this.sealAll(), this.options.scheduledDelayMillis).unref();
    if (
      this.group.length >= GROUP_SIZE ||
      this.batch.count + this.groupSpans >= this.options.maxExportBatchSize
    )
      this.encodeGroup();
    else this.groupTimer ??= setTimeout(() => this.encodeGroup(), GROUP_WAIT_MS).unref();
  }

  /** Encodes the waiting spans into the batch; a batch that fills goes at once. */
  private encodeGroup(): void {
    clearTimeout(this.groupTimer);
    this.groupTimer = undefined;
    const group = this.group;
    for (let i = 0; i < group.length; i++) {
      const span = group[i]!;
      const count = span instanceof CallSpans ? span.spanCount() : 1;
      // A call's spans go in one batch: it goes first when they would not fit.
      if (this.batch.count > 0 && this.batch.count + count > this.options.maxExportBatchSize) this.seal();
      try {
        this.batch.add(span);
      } catch {
        // Never from the SDK's spans; a span that cannot be encoded is lost, not the batch.
        this.pending -= count;
        this.dropped(count);
        continue;
      }
      if (this.batch.count >= this.options.maxExportBatchSize) this.seal();
    }
    group.length = 0;
    this.groupSpans = 0;
    if (this.batch.count > 0)
      this.timer ??= setTimeout(() => this.sealAll(), this.options.scheduledDelayMillis).unref();
  }

  /** Everything ended so far goes in line for export. */
  private sealAll(): void {
    this.encodeGroup();
    this.seal();
  }

  /** Sends what is encoded, and resolves once every batch is exported (or counted as dropped). */
  forceFlush(): Promise<void> {
    this.sealAll();
    if (!this.sending) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
    await this.exporter.shutdown();
  }

  /** The batch being filled goes in line for export. */
  private seal(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.batch.count === 0) return;
    const sealed = this.batch.finish();
    this.waiting.push(sealed);
    this.batchSize = Math.min(
      Math.max(MIN_BATCH_BYTES, Math.ceil(sealed.bytes.length * 1.25)),
      MAX_BATCH_BYTES,
    );
    this.batch = new EncodedSpanBatch(this.batchSize, this.pool);
    this.sendNext();
  }

  private sendNext(): void {
    if (this.sending) return;
    const next = this.waiting.shift();
    if (!next) {
      for (const resolve of this.idle.splice(0)) resolve();
      return;
    }
    this.sending = true;
    let settled = false;
    const settle = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      this.pending -= next.count;
      if (!ok) this.dropped(next.count);
      this.sending = false;
      this.sendNext();
    };
    const guard = setTimeout(() => settle(false), this.options.exportTimeoutMillis).unref();
    // The export's own work (the HTTP client) is never traced, and runs outside any call's context.
    context.with(suppressTracing(ROOT_CONTEXT), () => {
      try {
        let answered = false;
        this.exporter.export(next, (result) => {
          // Only the exporter's answer frees the bytes for the next batch (it may retry until then);
          // after a timeout they stay with it, and the garbage collector takes them.
          if (!answered) next.release();
          answered = true;
          settle(result.code === ExportResultCode.SUCCESS);
        });
      } catch {
        settle(false);
      }
    });
  }
}

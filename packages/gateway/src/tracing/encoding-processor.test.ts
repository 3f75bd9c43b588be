import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AlwaysOffSampler, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EncodingBatchOptions } from './encoding-processor.js';
import { EncodingBatchProcessor } from './encoding-processor.js';
import type { EncodedSpans } from './otlp-encoder.js';
import { encodeTraceRequest } from './otlp-encoder.js';

/** An exporter that keeps what it is given and answers when the test says. */
class HeldExporter {
  readonly batches: EncodedSpans[] = [];
  readonly answers: ((result: ExportResult) => void)[] = [];
  shutdowns = 0;

  export(batch: EncodedSpans, done: (result: ExportResult) => void): void {
    this.batches.push(batch);
    this.answers.push(done);
  }

  answer(code = ExportResultCode.SUCCESS): void {
    this.answers.shift()!({ code });
  }

  async shutdown(): Promise<void> {
    this.shutdowns++;
  }
}

/** Keeps the ended spans, to compare an export with what the official serializer makes of them. */
class Recorder implements SpanProcessor {
  readonly spans: ReadableSpan[] = [];
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    this.spans.push(span);
  }
  forceFlush = () => Promise.resolve();
  shutdown = () => Promise.resolve();
}

function setUp(options: Partial<EncodingBatchOptions> = {}, sampled = true) {
  const exporter = new HeldExporter();
  let dropped = 0;
  const processor = new EncodingBatchProcessor(
    exporter,
    {
      maxQueueSize: 6,
      maxExportBatchSize: 3,
      scheduledDelayMillis: 60_000,
      exportTimeoutMillis: 60_000,
      ...options,
    },
    (n) => {
      dropped += n;
    },
  );
  const recorder = new Recorder();
  const provider = new BasicTracerProvider({
    spanProcessors: [recorder, processor],
    ...(sampled ? {} : { sampler: new AlwaysOffSampler() }),
  });
  const tracer = provider.getTracer('test', '1.0.0');
  const spans = (n: number) => {
    for (let i = 0; i < n; i++) tracer.startSpan(`span ${i}`, { attributes: { 'test.i': i } }).end();
  };
  return { exporter, processor, recorder, spans, dropped: () => dropped };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('EncodingBatchProcessor: spans encoded as they end, sent in bounded batches', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends a full batch at once, the request that encoding the ended spans together gives', () => {
    const { exporter, recorder, spans } = setUp();
    spans(2);
    expect(exporter.batches).toHaveLength(0);
    spans(1);
    expect(exporter.batches).toHaveLength(1);
    expect(exporter.batches[0]!.count).toBe(3);
    // encodeTraceRequest is read back field by field against the official serializer (otlp-encoder.test.ts).
    const whole = encodeTraceRequest(recorder.spans);
    expect(Buffer.from(exporter.batches[0]!.bytes).equals(Buffer.from(whole))).toBe(true);
  });

  it('sends a batch that is not full once its first span has waited the scheduled delay', async () => {
    vi.useFakeTimers();
    const { exporter, spans } = setUp({ scheduledDelayMillis: 1000 });
    spans(1);
    vi.advanceTimersByTime(999);
    spans(1);
    expect(exporter.batches).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(exporter.batches.map((b) => b.count)).toEqual([2]);
  });

  it('exports one batch at a time; beyond the bound, spans are dropped and counted, never waited for', async () => {
    const { exporter, spans, dropped } = setUp();
    spans(8); // batch 1 is sent, batch 2 waits, 2 more are over the bound of 6
    expect(exporter.batches.map((b) => b.count)).toEqual([3]);
    expect(dropped()).toBe(2);
    exporter.answer();
    await settle();
    expect(exporter.batches.map((b) => b.count)).toEqual([3, 3]);
    spans(3); // room again for 3
    expect(dropped()).toBe(2);
  });

  it('counts the spans of a failed export, and of one that does not answer within the export timeout', () => {
    const failing = setUp();
    failing.spans(3);
    failing.exporter.answer(ExportResultCode.FAILED);
    expect(failing.dropped()).toBe(3);

    vi.useFakeTimers();
    const silent = setUp({ exportTimeoutMillis: 10_000 });
    silent.spans(6);
    expect(silent.exporter.batches).toHaveLength(1);
    vi.advanceTimersByTime(9_999);
    expect(silent.dropped()).toBe(0);
    vi.advanceTimersByTime(1);
    // The first export gave up: its spans are counted and the next batch went out; a late answer changes nothing.
    expect(silent.dropped()).toBe(3);
    expect(silent.exporter.batches).toHaveLength(2);
    silent.exporter.answer();
    expect(silent.dropped()).toBe(3);
  });

  it('encodes a batch into the buffer of one the exporter answered, never of one it may still send', () => {
    const { exporter, recorder, spans } = setUp({ maxQueueSize: 100 });
    spans(3);
    const first = exporter.batches[0]!;
    exporter.answer();
    spans(3);
    const second = exporter.batches[1]!;
    // The answered batch's memory (its pages already mapped) holds the next one, which reads as it should.
    expect(second.bytes.buffer).toBe(first.bytes.buffer);
    const whole = encodeTraceRequest(recorder.spans.slice(3));
    expect(Buffer.from(second.bytes).equals(Buffer.from(whole))).toBe(true);

    vi.useFakeTimers();
    const silent = setUp({ maxQueueSize: 100, exportTimeoutMillis: 1000 });
    silent.spans(3);
    const held = silent.exporter.batches[0]!;
    const sent = Buffer.from(held.bytes);
    vi.advanceTimersByTime(1000); // given up on, but the exporter may still be sending it
    silent.spans(6);
    expect(silent.exporter.batches).toHaveLength(2);
    expect(silent.exporter.batches.every((b, i) => i === 0 || b.bytes.buffer !== held.bytes.buffer)).toBe(
      true,
    );
    expect(Buffer.from(held.bytes).equals(sent)).toBe(true);
  });

  it('flushes on demand and on shutdown, and leaves unsampled spans alone', async () => {
    const { exporter, processor, spans } = setUp();
    spans(2);
    const flushed = processor.forceFlush();
    expect(exporter.batches.map((b) => b.count)).toEqual([2]);
    let done = false;
    void flushed.then(() => (done = true));
    await settle();
    expect(done).toBe(false); // still being exported
    exporter.answer();
    await flushed;
    spans(1);
    const shutdown = processor.shutdown();
    exporter.answer();
    await shutdown;
    expect(exporter.batches.map((b) => b.count)).toEqual([2, 1]);
    expect(exporter.shutdowns).toBe(1);

    const unsampled = setUp({}, false);
    unsampled.spans(5);
    await unsampled.processor.forceFlush();
    expect(unsampled.exporter.batches).toHaveLength(0);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NewRequestRow, RequestColumns } from '@portico/storage';
import { indexRequestSegments } from '@portico/storage';
import { createTestDatabase } from '@portico/storage/testing';
import { sql } from 'kysely';
import { Batcher } from './batcher.js';
import { DirectReportSink } from './report-sink.js';
import { Reporter } from './reporter.js';

function record(apiId: string): NewRequestRow {
  const id = randomUUID();
  return {
    id,
    transaction_id: id,
    timestamp: Date.now(),
    gateway: 'gw',
    api_id: apiId,
    application_id: null,
    plan_id: null,
    subscription_id: null,
    api_key: null,
    user: null,
    tenant: null,
    method: 'GET',
    path: '/x',
    uri: '/x',
    mapped_path: null,
    host: null,
    status: 200,
    request_content_length: 0,
    response_content_length: 2,
    response_time: 3,
    api_response_time: 2,
    latency: 1,
    endpoint: null,
    remote_address: '127.0.0.1',
    user_agent: null,
    security_type: 'KEY_LESS',
    error_key: null,
    message: null,
    has_log: 0,
  };
}

/** Requests of the API in the rows, once the segments written are indexed (as the management server does). */
const count = async (db: Awaited<ReturnType<typeof createTestDatabase>>['storage']['db'], apiId: string) => {
  await indexRequestSegments(db);
  return Number(
    (
      await db
        .selectFrom('requests')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('api_id', '=', apiId)
        .executeTakeFirstOrThrow()
    ).n,
  );
};

describe('reporter', () => {
  it('writes queued records in batches', async () => {
    const t = await createTestDatabase('sqlite');
    try {
      const options = { capacity: 1000, batchSize: 10, flushIntervalMs: 10_000 };
      const reporter = new Reporter(new DirectReportSink(t.storage.db, options), options);
      for (let i = 0; i < 25; i++) reporter.report(record('api-a'));
      await reporter.flush();
      expect(await count(t.storage.db, 'api-a')).toBe(25);
      expect(reporter.written).toBe(25);
      expect(reporter.dropped).toBe(0);
    } finally {
      await t.destroy();
    }
  });

  it('drops and counts the records that do not fit in a full queue', async () => {
    const t = await createTestDatabase('sqlite');
    try {
      const options = { capacity: 5, batchSize: 100, flushIntervalMs: 10_000 };
      const reporter = new Reporter(new DirectReportSink(t.storage.db, options), options);
      for (let i = 0; i < 8; i++) reporter.report(record('api-b'));
      expect(reporter.dropped).toBe(3);
      await reporter.flush();
      expect(await count(t.storage.db, 'api-b')).toBe(5);
    } finally {
      await t.destroy();
    }
  });

  it('counts a batch the database refused as dropped, and goes on', async () => {
    const t = await createTestDatabase('sqlite');
    const errors: unknown[] = [];
    const options = { capacity: 100, batchSize: 100, flushIntervalMs: 10_000 };
    const reporter = new Reporter(new DirectReportSink(t.storage.db, options), options, (e) =>
      errors.push(e),
    );
    // The segments' table is gone for a moment: the batch fails as a whole.
    await sql`alter table request_segments rename to request_segments_away`.execute(t.storage.db);
    reporter.report(record('api-c'));
    reporter.report(record('api-c'));
    await reporter.flush();
    expect(reporter.dropped).toBe(2);
    expect(reporter.failedBatches).toBe(1);
    expect(errors).toHaveLength(1);
    await sql`alter table request_segments_away rename to request_segments`.execute(t.storage.db);
    reporter.report(record('api-c'));
    await reporter.flush();
    expect(await count(t.storage.db, 'api-c')).toBe(1);
    await t.destroy();
  });

  it('hands records over in parts without waiting for earlier writes, and counts them until written', async () => {
    const parts: number[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const sink = {
      add: async (requests: RequestColumns) => {
        parts.push(requests.count);
        await gate;
      },
      close: async () => {},
    };
    // Parts are at most a batch (here 100).
    const reporter = new Reporter(sink, { capacity: 450, batchSize: 100, flushIntervalMs: 1000 });
    for (let i = 0; i < 500; i++) reporter.report(record('api-e'));
    // Parts of 100 went over while none was written; the capacity counts them: 50 dropped.
    expect(parts).toEqual([100, 100, 100, 100]);
    expect(reporter.pending).toBe(450);
    expect(reporter.dropped).toBe(50);
    release();
    await reporter.flush();
    expect(parts).toEqual([100, 100, 100, 100, 50]);
    expect(reporter.written).toBe(450);
    expect(reporter.pending).toBe(0);
  });

  it('gathers parts into whole batches while parts keep coming, and the rest at the flush interval', async () => {
    const sizes: number[] = [];
    const batcher = new Batcher<number, number>(
      async (requests) => {
        sizes.push(requests.length);
        await new Promise((r) => setTimeout(r, 5));
      },
      { batchSize: 100, flushIntervalMs: 1000 },
    );
    // 1050 records, 5 every millisecond or so: a few dozen arrive during each write, less than a batch.
    const parts: Promise<void>[] = [];
    for (let sent = 0; sent < 1050; sent += 5) {
      parts.push(batcher.add([1, 2, 3, 4, 5], [], false));
      await new Promise((r) => setTimeout(r, 1));
    }
    await new Promise((r) => setTimeout(r, 100)); // the whole batches still gathered are written
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(1050); // the rest waits for the interval
    expect(sizes.every((n) => n >= 100)).toBe(true);
    await Promise.all(parts);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1050);
    expect(sizes.slice(0, -1).every((n) => n >= 100)).toBe(true);
  });

  it('settles every part with the transaction that wrote it, refused ones included', async () => {
    const batcher = new Batcher<string, string>(
      (requests) => {
        if (requests.includes('bad')) throw new Error('refused');
      },
      { batchSize: 4, flushIntervalMs: 10_000 },
    );
    const a = batcher.add(['a', 'b'], [], false);
    const b = batcher.add(['bad', 'c'], [], false); // a batch of 4: written, and refused
    await expect(a).rejects.toThrow('refused');
    await expect(b).rejects.toThrow('refused');
    await expect(batcher.add(['d'], [], true)).resolves.toBeUndefined();
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NewRequestRow } from '@portico/storage';
import { createTestDatabase } from '@portico/storage/testing';
import { DirectBatchWriter } from './batch-writer.js';
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

const count = async (db: Awaited<ReturnType<typeof createTestDatabase>>['storage']['db'], apiId: string) =>
  Number(
    (
      await db
        .selectFrom('requests')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('api_id', '=', apiId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('reporter', () => {
  it('writes queued records in batches', async () => {
    const t = await createTestDatabase('sqlite');
    try {
      const reporter = new Reporter(new DirectBatchWriter(t.storage.db), {
        capacity: 1000,
        batchSize: 10,
        flushIntervalMs: 10_000,
      });
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
      const reporter = new Reporter(new DirectBatchWriter(t.storage.db), {
        capacity: 5,
        batchSize: 100,
        flushIntervalMs: 10_000,
      });
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
    const reporter = new Reporter(
      new DirectBatchWriter(t.storage.db),
      { capacity: 100, batchSize: 100, flushIntervalMs: 10_000 },
      (e) => errors.push(e),
    );
    const duplicate = record('api-c');
    reporter.report(duplicate);
    reporter.report(duplicate); // same primary key: the batch fails as a whole
    await reporter.flush();
    expect(reporter.dropped).toBe(2);
    expect(reporter.failedBatches).toBe(1);
    expect(errors).toHaveLength(1);
    reporter.report(record('api-c'));
    await reporter.flush();
    expect(await count(t.storage.db, 'api-c')).toBe(1);
    await t.destroy();
  });

  it('writes only full batches while records keep coming, and the rest at the flush interval', async () => {
    const sizes: number[] = [];
    const writer = {
      write: async (requests: NewRequestRow[]) => {
        sizes.push(requests.length);
        await new Promise((r) => setTimeout(r, 5));
      },
      close: async () => {},
    };
    const reporter = new Reporter(writer, { capacity: 10_000, batchSize: 100, flushIntervalMs: 1000 });
    // 1050 records, 5 every millisecond or so: a few dozen arrive during each write, less than a batch.
    for (let sent = 0; sent < 1050; sent += 5) {
      for (let i = 0; i < 5; i++) reporter.report(record('api-d'));
      await new Promise((r) => setTimeout(r, 1));
    }
    await new Promise((r) => setTimeout(r, 100)); // the full batches still queued are written
    expect(reporter.pending).toBe(50); // the partial batch waits for the interval
    await new Promise((r) => setTimeout(r, 1200));
    expect(sizes.slice(0, -1).every((n) => n === 100)).toBe(true);
    expect(sizes.at(-1)).toBe(50);
    expect(reporter.written).toBe(1050);
    expect(reporter.pending).toBe(0);
  });
});

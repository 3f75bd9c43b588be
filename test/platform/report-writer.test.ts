import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewRequestLogRow, NewRequestRow } from '@portico/storage';
import { encodeRequests, indexRequestSegments, openStorage } from '@portico/storage';
import { sql } from 'kysely';
// The compiled writer, as the product runs it: its thread loads the compiled worker script.
import { WorkerReportSink } from '../../packages/gateway/dist/reporting/report-sink.js';
import { indexPassesFor } from '../../packages/management/dist/features/analytics/request-indexer-thread.js';

/** The names of this process's threads, as the system shows them (Linux). */
const threadNames = () =>
  readdirSync('/proc/self/task').map((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim());

function record(apiId: string, i: number): NewRequestRow {
  const id = randomUUID();
  return {
    id,
    transaction_id: id,
    timestamp: Date.now() + i,
    gateway: 'gw',
    api_id: apiId,
    application_id: 'app',
    plan_id: 'plan',
    subscription_id: 'sub',
    api_key: 'key',
    user: null,
    tenant: null,
    method: 'GET',
    path: `/r/${i}`,
    uri: `/r/${i}?q=1`,
    mapped_path: null,
    host: 'localhost',
    status: 200,
    request_content_length: 0,
    response_content_length: 12,
    response_time: 3,
    api_response_time: 2,
    latency: 1,
    endpoint: 'default:backend',
    remote_address: '127.0.0.1',
    user_agent: 'test',
    security_type: 'API_KEY',
    error_key: null,
    message: null,
    has_log: 0,
  };
}

/** The SQLite writer thread: parts handed over land together, in one transaction, or not at all. */
describe('report writer thread', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-writer-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes the parts of a batch as segments with their logs, and refuses a failed batch as a whole', async () => {
    const storage = await openStorage({ dataDir });
    const writer = new WorkerReportSink(storage.sqlitePath!, { batchSize: 1000, flushIntervalMs: 10_000 });
    try {
      const batch = Array.from({ length: 250 }, (_, i) => record('api-w', i));
      const logs: NewRequestLogRow[] = [batch[3]!, batch[249]!].map((r) => ({
        id: r.id,
        timestamp: r.timestamp,
        api_id: r.api_id,
        application_id: r.application_id,
        client_request: '{"method":"GET"}',
        proxy_request: null,
        client_response: '{"status":200}',
        proxy_response: null,
      }));
      // Parts as the reporter hands them over; the last asks for the write.
      await Promise.all([
        writer.add(encodeRequests(batch.slice(0, 100)), [], false),
        writer.add(encodeRequests(batch.slice(100, 200)), [], false),
        writer.add(encodeRequests(batch.slice(200)), logs, true),
      ]);
      // A segment per part, in one transaction; the indexer makes the rows from them.
      const segments = await storage.db
        .selectFrom('request_segments')
        .select(['count'])
        .orderBy('id')
        .execute();
      expect(segments.map((s) => s.count)).toEqual([100, 100, 50]);
      await indexRequestSegments(storage.db);
      const rows = await storage.db
        .selectFrom('requests')
        .selectAll()
        .where('api_id', '=', 'api-w')
        .execute();
      expect(rows).toHaveLength(250);
      // Every column as reported, after the trip to the thread (encoded by column, stored, read back).
      for (const i of [0, 99, 100, 249])
        expect(rows.find((r) => r.id === batch[i]!.id)).toMatchObject(batch[i]!);
      expect(await storage.db.selectFrom('request_logs').selectAll().execute()).toHaveLength(2);

      // The segments' table gone for a moment: the transaction fails, both parts are told so, and
      // none of their records is written.
      await sql`alter table request_segments rename to request_segments_away`.execute(storage.db);
      const fresh = writer.add(
        encodeRequests(Array.from({ length: 150 }, (_, i) => record('api-x', i))),
        [],
        false,
      );
      const again = writer.add(encodeRequests([record('api-x', 200)]), [], true);
      await expect(fresh).rejects.toThrow();
      await expect(again).rejects.toThrow();
      await sql`alter table request_segments_away rename to request_segments`.execute(storage.db);
      expect(await storage.db.selectFrom('request_segments').select('id').execute()).toHaveLength(0);

      // And the thread goes on with the next batch.
      await writer.add(encodeRequests([record('api-x', 1)]), [], true);
      await indexRequestSegments(storage.db);
      expect(
        await storage.db.selectFrom('requests').select('id').where('api_id', '=', 'api-x').execute(),
      ).toHaveLength(1);

      // The thread carries its own name, so that its CPU time shows apart from the event loop's.
      expect(threadNames()).toContain('report-writer');
    } finally {
      await writer.close();
      await storage.close();
    }
  });

  it('tells the commits of other connections, never its own batches, and when its thread has ended', async () => {
    const storage = await openStorage({ dataDir });
    const writer = new WorkerReportSink(storage.sqlitePath!, { batchSize: 1000, flushIntervalMs: 10_000 });
    let commits = 0;
    let lost = 0;
    writer.commits.watch(
      () => commits++,
      () => lost++,
    );
    const settle = () => new Promise((r) => setTimeout(r, 400)); // several of the thread's 100 ms looks
    try {
      await settle();
      const before = commits;
      for (let i = 0; i < 3; i++) {
        await writer.add(encodeRequests([record('api-c', i)]), [], true);
        await settle();
      }
      expect(commits).toBe(before);

      // Another connection (the management server's indexer, here this test's) commits: the gateway is told.
      expect((await indexRequestSegments(storage.db)).requests).toBe(3);
      await settle();
      expect(commits).toBe(before + 1);
      expect(lost).toBe(0);
    } finally {
      await writer.close();
      await storage.close();
    }
    expect(lost).toBe(1);
  });

  it('refuses parts at once once its thread has ended, instead of leaving them waiting', async () => {
    const storage = await openStorage({ dataDir });
    const writer = new WorkerReportSink(storage.sqlitePath!, { batchSize: 1000, flushIntervalMs: 10_000 });
    try {
      const waiting = writer.add(encodeRequests([record('api-y', 1)]), [], false); // held for a batch, not written yet
      await writer.close();
      await expect(waiting).rejects.toThrow(/ended/);
      await expect(writer.add(encodeRequests([record('api-y', 2)]), [], true)).rejects.toThrow(/ended/);
    } finally {
      await storage.close();
    }
  });

  it("is read by the management server's indexer thread, which writes the rows from the segments", async () => {
    const storage = await openStorage({ dataDir });
    const writer = new WorkerReportSink(storage.sqlitePath!, { batchSize: 1000, flushIntervalMs: 10_000 });
    const passes = indexPassesFor(storage, storage.db, undefined);
    try {
      await writer.add(encodeRequests(Array.from({ length: 120 }, (_, i) => record('api-i', i))), [], true);
      const result = await passes.pass();
      expect(result).toMatchObject({ segments: 1, requests: 120, rejected: { segments: 0 } });
      expect(
        await storage.db.selectFrom('requests').select('id').where('api_id', '=', 'api-i').execute(),
      ).toHaveLength(120);
      // Its own thread, named apart from the event loop.
      expect(threadNames()).toContain('request-indexer');
      // Closed, it starts no thread again: a read that comes while the server stops is refused.
      await passes.close();
      await expect(passes.pass()).rejects.toThrow('the request indexer is closed');
    } finally {
      await passes.close();
      await writer.close();
      await storage.close();
    }
  });
});

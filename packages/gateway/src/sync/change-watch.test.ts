import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus, openStorage, type Storage } from '@portico/storage';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import type { CommitSignal } from '../reporting/report-sink.js';
import { eventually } from '../test-support/policy-harness.js';
import { watchForChanges } from './change-watch.js';
import type { SyncService } from './sync.service.js';

/**
 * SQLite: with the report writer's commit signal the gateway syncs when it is told, and polls its own
 * connection once the signal is lost (the writer's thread ended); after the watch stops, nothing.
 */
describe('sqlite: waking the sync on commits of other connections', () => {
  let t: TestDatabase;
  let other: Storage;
  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
    other = await openStorage({ dataDir: t.dataDir });
  });
  afterAll(async () => {
    await other.close();
    await t.destroy();
  });

  /** A commit by another connection (a management server's, here a second one of the test). */
  const commitElsewhere = async () => {
    await sql`create table if not exists watch_probe (x integer)`.execute(other.db);
    await sql`insert into watch_probe values (1)`.execute(other.db);
  };

  it('syncs when told, polls once the signal is lost, and stops', async () => {
    let syncs = 0;
    const sync = { sync: async () => void syncs++ } as unknown as SyncService;
    let told: { onCommit(): void; onLost(): void } | undefined;
    const commits: CommitSignal = { watch: (onCommit, onLost) => (told = { onCommit, onLost }) };
    const stop = await watchForChanges(t.storage, new EventBus(), sync, { log: console }, commits);

    // With the signal, the gateway's connection is not polled: a commit elsewhere wakes nothing by itself.
    await commitElsewhere();
    await new Promise((r) => setTimeout(r, 300));
    expect(syncs).toBe(0);
    told!.onCommit();
    expect(syncs).toBe(1);

    // The signal is lost: one sync at once, then the gateway's own connection is polled.
    told!.onLost();
    expect(syncs).toBe(2);
    await new Promise((r) => setTimeout(r, 300));
    await commitElsewhere();
    await eventually(() => expect(syncs).toBe(3), 2000);

    stop();
    await commitElsewhere();
    await new Promise((r) => setTimeout(r, 300));
    told!.onLost();
    expect(syncs).toBe(3);
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './testing.js';

/**
 * SQLite only: while another connection (the report writer thread, another process) holds the
 * write lock, this process's writes wait for it, without stalling the event loop, and then succeed.
 */
describe('sqlite: writes while another connection writes', () => {
  let t: TestDatabase;
  let other: SQLite.Database;

  beforeEach(async () => {
    t = await createTestDatabase('sqlite');
    other = new SQLite(t.storage.sqlitePath!);
  });
  afterEach(async () => {
    other.close();
    await t.destroy();
  });

  const tag = (id: string) => ({ id, name: id, description: null, restricted_groups: '[]' });
  const otherWrites = () => {
    other.exec('begin immediate');
    other.prepare(`insert into tags (id, name, restricted_groups) values ('other', 'other', '[]')`).run();
  };

  /** Counts event loop turns until the promise settles: the wait must not block the thread. */
  const turnsWhile = async (work: Promise<unknown>) => {
    let turns = 0;
    const timer = setInterval(() => turns++, 5);
    try {
      await work;
    } finally {
      clearInterval(timer);
    }
    return turns;
  };

  it('a transaction that reads, then writes, waits for the other writer instead of failing', async () => {
    otherWrites();
    const transaction = t.storage.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('tags').selectAll().execute();
      await trx
        .insertInto('tags')
        .values(tag(`mine-${before.length}`))
        .execute();
    });
    const committed = sleep(200).then(() => other.exec('commit'));
    const turns = await turnsWhile(Promise.all([transaction, committed]));
    expect(turns).toBeGreaterThan(10);
    const ids = (await t.storage.db.selectFrom('tags').select('id').execute()).map((r) => r.id);
    // It began once the other writer had committed: it saw that writer's row.
    expect(ids.sort()).toEqual(['mine-1', 'other']);
  });

  it('a write outside a transaction waits for the other writer instead of failing', async () => {
    otherWrites();
    const insert = t.storage.db.insertInto('tags').values(tag('mine')).execute();
    const committed = sleep(200).then(() => other.exec('commit'));
    const turns = await turnsWhile(Promise.all([insert, committed]));
    expect(turns).toBeGreaterThan(10);
    const ids = (await t.storage.db.selectFrom('tags').select('id').execute()).map((r) => r.id);
    expect(ids.sort()).toEqual(['mine', 'other']);
  });

  it('a read only transaction does not wait for the other writer', async () => {
    otherWrites();
    try {
      const rows = await t.storage.db
        .transaction()
        .setAccessMode('read only')
        .execute((trx) => trx.selectFrom('tags').selectAll().execute());
      expect(rows).toEqual([]);
    } finally {
      other.exec('commit');
    }
  });
});

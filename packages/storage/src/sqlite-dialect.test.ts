import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PREPARED_STATEMENTS } from './sqlite-dialect.js';
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

/** SQLite only: statements are prepared once per connection and kept (`runStatement`). */
describe('sqlite: statements kept prepared', () => {
  let t: TestDatabase;

  beforeEach(async () => {
    t = await createTestDatabase('sqlite');
  });
  afterEach(() => t.destroy());

  const tagNames = async () =>
    (await t.storage.db.selectFrom('tags').select('name').orderBy('name').execute()).map((r) => r.name);

  it('a query run again reads what was written meanwhile, by this connection or another', async () => {
    expect(await tagNames()).toEqual([]);
    const inserted = await t.storage.db
      .insertInto('tags')
      .values({ id: 'a', name: 'a', description: null, restricted_groups: '[]' })
      .executeTakeFirst();
    expect(inserted.numInsertedOrUpdatedRows).toBe(1n);
    const other = new SQLite(t.storage.sqlitePath!);
    other.prepare(`insert into tags (id, name, restricted_groups) values ('b', 'b', '[]')`).run();
    other.close();
    expect(await tagNames()).toEqual(['a', 'b']);
    const updated = await t.storage.db.updateTable('tags').set({ description: 'd' }).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
  });

  it('more distinct queries than it keeps all run, and a kept one sees a column added since', async () => {
    for (let i = 0; i < PREPARED_STATEMENTS + 10; i++)
      await sql`select ${sql.lit(i)} as n from tags`.execute(t.storage.db);
    const star = () => sql<Record<string, unknown>>`select * from tags`.execute(t.storage.db);
    await t.storage.db
      .insertInto('tags')
      .values({ id: 'a', name: 'a', description: null, restricted_groups: '[]' })
      .execute();
    expect(Object.keys((await star()).rows[0]!)).not.toContain('extra');
    await sql`alter table tags add column extra text default 'x'`.execute(t.storage.db);
    expect((await star()).rows[0]).toMatchObject({ id: 'a', extra: 'x' });
  });
});

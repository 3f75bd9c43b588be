import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { AddressInfo, Socket } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, openStorage } from './database.js';

describe('PostgreSQL connection timeout', () => {
  // A host that accepts connections and never answers (a black hole, as a dropped route behind a proxy).
  const held: Socket[] = [];
  const silent = createServer((socket) => void held.push(socket));
  afterAll(async () => {
    for (const s of held) s.destroy();
    silent.close();
    await once(silent, 'close');
  });

  it('fails a connection to a host that does not answer after connectTimeoutMs, not the system TCP timeout', async () => {
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    const storage = connect({
      databaseUrl: `postgres://postgres@127.0.0.1:${port}/portico`,
      dataDir: '.',
      connectTimeoutMs: 300,
    });
    const started = Date.now();
    await expect(storage.ping()).rejects.toThrow(/timeout/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(held.length).toBeGreaterThan(0);
    await storage.close();
  });
});

describe('SQLite page size', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const pageSize = (file: string) => {
    const database = new SQLite(file, { readonly: true });
    try {
      return database.pragma('page_size', { simple: true });
    } finally {
      database.close();
    }
  };

  it('makes a new database with pages of 16 KiB, and leaves an existing one its own', async () => {
    const fresh = mkdtempSync(path.join(os.tmpdir(), 'portico-pages-'));
    const older = mkdtempSync(path.join(os.tmpdir(), 'portico-pages-'));
    dirs.push(fresh, older);
    const made = await openStorage({ dataDir: fresh });
    await made.close();
    expect(pageSize(made.sqlitePath!)).toBe(16384);

    // A database made before (SQLite's default pages of 4 KiB) opens, migrates and keeps them.
    const before = new SQLite(path.join(older, 'portico.db'));
    before.pragma('journal_mode = WAL');
    before.exec('create table kept (x integer)');
    before.close();
    const opened = await openStorage({ dataDir: older });
    await opened.db.selectFrom('apis').select('id').execute();
    await opened.close();
    expect(pageSize(opened.sqlitePath!)).toBe(4096);
  });
});

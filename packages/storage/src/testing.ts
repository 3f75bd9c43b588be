import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database, Dialect, Executor, Storage } from './database.js';
import { openStorage } from './database.js';
import { postgresTemplate, sqliteTemplateFile, withDatabase } from './testing-templates.js';

export { sqliteTemplateFile } from './testing-templates.js';
export { testRequest } from './requests/test-requests.js';

/**
 * Test support: a fresh database per call, on SQLite (a temporary file) or PostgreSQL (a new database
 * on the server of TEST_DATABASE_URL, dropped afterwards).
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let postgresReachable: Promise<boolean> | undefined;

async function canReachPostgres(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The dialects to test on: both, unless TEST_DIALECTS filters them. When PostgreSQL is unreachable the
 * suite prints a visible skip line, except under CI=true where it fails.
 */
export async function testDialects(): Promise<Dialect[]> {
  const wanted = (process.env.TEST_DIALECTS ?? 'sqlite,postgres').split(',') as Dialect[];
  if (!wanted.includes('postgres')) return wanted;
  postgresReachable ??= canReachPostgres();
  if (await postgresReachable) return wanted;
  if (process.env.CI === 'true') {
    throw new Error(
      `PostgreSQL is unreachable at ${TEST_DATABASE_URL} and CI=true: failing instead of skipping`,
    );
  }
  console.warn(`\n*** SKIPPED: PostgreSQL tests, ${TEST_DATABASE_URL} is unreachable ***\n`);
  return wanted.filter((d) => d !== 'postgres');
}

export interface TestDatabase {
  storage: Storage;
  /** SQLite data folder, or the PostgreSQL URL of the new database. */
  dataDir: string;
  databaseUrl?: string;
  /** Closes and deletes the database. */
  destroy(): Promise<void>;
}

/**
 * Creates an empty database of the dialect, migrated to the latest schema (a copy of a template migrated
 * once, see testing-templates.ts).
 */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const template = await sqliteTemplateFile();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-test-'));
    copyFileSync(template, path.join(dataDir, 'portico.db'));
    const storage = await openStorage({ dataDir });
    return {
      storage,
      dataDir,
      destroy: async () => {
        await storage.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const template = await postgresTemplate(TEST_DATABASE_URL);
  const name = `portico_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name} template ${template}`);
  const databaseUrl = withDatabase(TEST_DATABASE_URL, name);
  const storage = await openStorage({ databaseUrl, dataDir: os.tmpdir(), poolSize: 4 });
  return {
    storage,
    dataDir: os.tmpdir(),
    databaseUrl,
    destroy: async () => {
      await storage.close();
      await dropTestDatabase(name);
    },
  };
}

/** Creates an empty PostgreSQL database and returns its URL (for tests that run a server process). */
export async function createEmptyPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portico_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  return { url: withDatabase(TEST_DATABASE_URL, name), drop: () => dropTestDatabase(name) };
}

async function dropTestDatabase(name: string): Promise<void> {
  await adminQuery(`drop database if exists ${name} with (force)`);
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** The rows of a table (tests of what a write left). */
export async function countRows(db: Executor, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

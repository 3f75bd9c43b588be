import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openStorage } from './database.js';

/**
 * Test support: a database migrated once and copied for every test that needs a fresh one. Running the
 * migrations took about 0.3 s on SQLite and 1.5 s on PostgreSQL per database, on a quiet machine, and the
 * suite creates several hundred; a copy takes a few milliseconds (SQLite: the file; PostgreSQL: CREATE
 * DATABASE ... TEMPLATE). The template's name carries a fingerprint of the migration files, so a changed
 * or added migration builds a new template instead of handing out a stale schema.
 */

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const MIGRATION_FILE = /^\d{4}-\d{2}-\d{2}-\d{4}-[\w-]+\.(ts|js)$/;
/** Templates of older migration sets kept on the PostgreSQL server (other checkouts may still use them). */
const KEPT_POSTGRES_TEMPLATES = 4;
/** pg_advisory_lock key: one builder of a template at a time, across processes. */
const TEMPLATE_LOCK = 7_406_112_001;

let fingerprintCache: string | undefined;

/** A short hash of the migration files' names and contents. */
export function schemaFingerprint(): string {
  if (fingerprintCache) return fingerprintCache;
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR)
    .filter((f) => MIGRATION_FILE.test(f))
    .sort()) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(MIGRATIONS_DIR, file)))
      .update('\0');
  }
  fingerprintCache = hash.digest('hex').slice(0, 12);
  return fingerprintCache;
}

/**
 * The path of a migrated, empty SQLite database file to copy (in the system's temporary folder, built by
 * the first caller; a rename makes it appear whole to concurrent callers).
 */
export async function sqliteTemplateFile(): Promise<string> {
  const file = path.join(os.tmpdir(), `portico-template-${schemaFingerprint()}.db`);
  if (existsSync(file)) return file;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portico-template-'));
  try {
    const storage = await openStorage({ dataDir: dir });
    await storage.close();
    // Closing the last connection checkpoints the write-ahead log into the file and removes it.
    if (existsSync(path.join(dir, 'portico.db-wal'))) throw new Error('SQLite template kept its WAL file');
    renameSync(path.join(dir, 'portico.db'), file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return file;
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * The name of a migrated, empty PostgreSQL database on the server of `adminUrl` to create test databases
 * from. Built once per migration set under an advisory lock; only the newest few templates are kept.
 */
export async function postgresTemplate(adminUrl: string): Promise<string> {
  const name = `portico_template_${schemaFingerprint()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return name;
    const building = `${name}_building`;
    await admin.query(`drop database if exists ${building} with (force)`);
    await admin.query(`create database ${building}`);
    const storage = await openStorage({
      databaseUrl: withDatabase(adminUrl, building),
      dataDir: os.tmpdir(),
      poolSize: 1,
    });
    await storage.close();
    await admin.query(`alter database ${building} rename to ${name}`);
    const older = await admin.query<{ datname: string }>(
      `select datname from pg_database
        where datname like 'portico\\_template\\_%' and datname not like '%\\_building' and datname <> $1
        order by oid desc offset $2`,
      [name, KEPT_POSTGRES_TEMPLATES - 1],
    );
    for (const { datname } of older.rows)
      await admin.query(`drop database if exists ${datname} with (force)`);
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => undefined);
    await admin.end();
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, type Dialect, type Storage } from '@portico/storage';
import { createEmptyPostgresDatabase } from '@portico/storage/testing';
import { login, startPortico, type PorticoProcess } from './portico-process.js';

/** A `portico start` process on its own data (and database), the admin's token, and a connection to its storage. */
export interface StartedPortico {
  portico: PorticoProcess;
  /** Reads what the process stored. */
  storage: Storage;
  token: string;
  /** Stops the process, then drops its data. */
  close(): Promise<void>;
}

/**
 * Starts `portico start` on a fresh data directory named after `prefix` and, on PostgreSQL, a fresh
 * empty database; signs the admin in.
 */
export async function startPorticoOn(
  dialect: Dialect,
  prefix: string,
  /** More environment for the process (an SMTP server, outbound settings...). */
  env: Record<string, string> = {},
): Promise<StartedPortico> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const database = dialect === 'postgres' ? await createEmptyPostgresDatabase() : undefined;
  const portico = await startPortico('start', {
    PORTICO_DATA_DIR: dataDir,
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const token = await login(portico.managementUrl, 'admin', 'admin');
  const storage = connect({ dataDir, ...(database ? { databaseUrl: database.url, poolSize: 2 } : {}) });
  return {
    portico,
    storage,
    token,
    close: async () => {
      await portico.kill();
      await storage.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { Dialect, Storage } from '@portico/storage';
import { openStorage } from '@portico/storage';
import type { TestDatabase } from '@portico/storage/testing';
import { createTestDatabase } from '@portico/storage/testing';
import type { TestApp, TestAppOptions } from './app.js';
import { TestClock, startTestApp } from './app.js';
import type { TestSession } from './http.js';
import { login } from './http.js';

/** A provider the management API polls (dictionaries, dynamic properties): the answer each test sets. */
export interface PolledProvider {
  answer: { status: number; body: string };
  /** Calls received; tests reset it. */
  hits: number;
  /** The provider's URL on 127.0.0.1. */
  url: string;
}

/**
 * A real local HTTP server standing for a polled provider, started before the file's tests and
 * stopped after them; it listens on every address of the machine (a test may call it on another).
 */
export function usePolledProvider(path: string): PolledProvider {
  const provider: PolledProvider = { answer: { status: 200, body: '{}' }, hits: 0, url: '' };
  const server = http.createServer((_req, res) => {
    provider.hits++;
    res.writeHead(provider.answer.status, { 'content-type': 'application/json' }).end(provider.answer.body);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return provider;
}

/** Two management processes on one fresh database, each with its own connection, as in a cluster. */
export interface TwoProcesses {
  database: TestDatabase;
  clock: TestClock;
  one: TestApp;
  two: TestApp;
  /** The admin, signed in on the first. */
  admin: TestSession;
  close(): Promise<void>;
}

/** Starts two management processes sharing a database and a clock (the scheduler ticks by hand). */
export async function startTwoProcesses(
  dialect: Dialect,
  options: Omit<TestAppOptions, 'database' | 'clock'>,
): Promise<TwoProcesses> {
  const database = await createTestDatabase(dialect);
  const clock = new TestClock();
  const one = await startTestApp(dialect, { ...options, database, clock });
  const secondStorage: Storage = database.databaseUrl
    ? await openStorage({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, poolSize: 2 })
    : await openStorage({ dataDir: database.dataDir });
  const two = await startTestApp(dialect, {
    ...options,
    database: { ...database, storage: secondStorage, destroy: async () => {} },
    clock,
  });
  const admin = await login(one.app, 'admin', 'admin');
  return {
    database,
    clock,
    one,
    two,
    admin,
    close: async () => {
      await two.close();
      await one.close();
      await secondStorage.close();
      await database.destroy();
    },
  };
}

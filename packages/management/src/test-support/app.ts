import type { FastifyServerOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, Dialect, Storage } from '@portico/storage';
import { EventBus } from '@portico/storage';
import type { TestDatabase } from '@portico/storage/testing';
import { createTestDatabase } from '@portico/storage/testing';
import type { ManagementApp } from '../app.js';
import { buildManagementApp } from '../app.js';
import type { ManagementOptions } from '../context.js';

/** 2026-01-01T00:00:00Z: tests run on their own clock, far from the real one. */
export const START_OF_TESTS = Date.UTC(2026, 0, 1);

/**
 * The clock handed to the app as `now`: it moves one millisecond at every reading (so that rows
 * written one after the other have distinct, ordered instants) and jumps when a test says so.
 */
export class TestClock {
  constructor(private current = START_OF_TESTS) {}

  readonly now = (): number => this.current++;

  /** The next instant `now()` will answer, without moving. */
  peek(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

export interface TestApp extends ManagementApp {
  db: Kysely<Database>;
  storage: Storage;
  clock: TestClock;
  /** Closes the app; destroys the database unless it was handed in. */
  close(): Promise<void>;
}

export interface TestAppOptions {
  options?: Partial<ManagementOptions>;
  clock?: TestClock;
  /** Build on this database (and leave it alone at close) instead of a new one. */
  database?: TestDatabase;
  /** Fastify's logger option (default: no log). */
  logger?: FastifyServerOptions['logger'];
}

/** Builds the management app on a fresh migrated database of the dialect (or the one given). */
export async function startTestApp(dialect: Dialect, given: TestAppOptions = {}): Promise<TestApp> {
  const database = given.database ?? (await createTestDatabase(dialect));
  const clock = given.clock ?? new TestClock();
  try {
    const built = await buildManagementApp({
      storage: database.storage,
      bus: new EventBus(),
      // The cheapest bcrypt cost: every app hashes the administrator's password, tests sign in by the hundred.
      options: { passwordHashCost: 4, ...given.options },
      now: clock.now,
      logger: given.logger ?? false,
    });
    return {
      ...built,
      db: database.storage.db,
      storage: database.storage,
      clock,
      close: async () => {
        await built.app.close();
        if (!given.database) await database.destroy();
      },
    };
  } catch (error) {
    if (!given.database) await database.destroy();
    throw error;
  }
}

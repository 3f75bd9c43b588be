import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult, TransactionSettings } from 'kysely';
import { SqliteDialect, SqliteDriver } from 'kysely';

/**
 * How long a write waits for the database while another connection (the report writer thread,
 * another process) writes, before it gives up: long enough that under any sane load a write
 * queues and never fails.
 */
export const SQLITE_WRITE_WAIT_MS = 30_000;

/**
 * SQLite through better-sqlite3 where writes queue instead of failing with SQLITE_BUSY.
 *
 * SQLite lets one connection write at a time. Kysely's dialect begins transactions with a plain
 * (deferred) `BEGIN`: such a transaction reads first and takes the write lock only at its first
 * write; when another connection wrote in between, SQLite answers SQLITE_BUSY at once, without
 * waiting (under WAL waiting could not help: the transaction's snapshot is stale). So:
 *
 * - write transactions begin with `BEGIN IMMEDIATE`: the write lock is taken first, and once taken
 *   nothing in the transaction can be refused for another writer; only `read only` transactions
 *   begin deferred;
 * - the wait for the lock (at `BEGIN IMMEDIATE`, or a write outside a transaction) is asynchronous:
 *   better-sqlite3 is synchronous and SQLite's busy handler would stall the event loop (the gateway
 *   and the management API share it), so the connection's busy_timeout is 0 and the attempt is
 *   repeated after a short pause, up to {@link SQLITE_WRITE_WAIT_MS};
 * - within this process, Kysely's driver already lends its single connection to one transaction
 *   at a time: transactions and queries outside them queue for it.
 */
export class QueuedWriteSqliteDialect extends SqliteDialect {
  readonly #database: SQLite.Database;

  constructor(database: SQLite.Database) {
    super({ database });
    this.#database = database;
  }

  override createDriver(): Driver {
    return new QueuedWriteSqliteDriver(this.#database);
  }
}

class QueuedWriteSqliteDriver extends SqliteDriver {
  readonly #database: SQLite.Database;
  readonly #statements = new Map<string, SQLite.Statement>();

  constructor(database: SQLite.Database) {
    super({ database });
    this.#database = database;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    const database = this.#database;
    const statements = this.#statements;
    const run = <R>(query: CompiledQuery) => Promise.resolve(runStatement<R>(statements, database, query));
    return {
      // A statement outside a transaction that meets another writer made no change: it is repeated.
      // Inside a transaction begun IMMEDIATE no statement meets one.
      executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        if (database.inTransaction) return run<R>(query);
        return whileBusy(() => run<R>(query));
      },
      streamQuery: <R>(query: CompiledQuery, chunkSize?: number) =>
        connection.streamQuery<R>(query, chunkSize),
    };
  }

  override async beginTransaction(
    _connection: DatabaseConnection,
    settings?: TransactionSettings,
  ): Promise<void> {
    const begin = settings?.accessMode === 'read only' ? 'begin deferred' : 'begin immediate';
    await whileBusy(() => this.#database.exec(begin));
  }
}

function isBusy(error: unknown): boolean {
  return error instanceof SQLite.SqliteError && error.code.startsWith('SQLITE_BUSY');
}

/** Runs the attempt, and again after a pause while the database is busy with another writer. */
async function whileBusy<T>(attempt: () => T | Promise<T>): Promise<T> {
  const deadline = Date.now() + SQLITE_WRITE_WAIT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 16)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error) || Date.now() + pause > deadline) throw error;
    }
    await sleep(pause);
  }
}

/** Statements kept prepared per connection, the least recently used dropped first beyond this. */
export const PREPARED_STATEMENTS = 256;

/**
 * Runs a query with its statement prepared once per connection and kept (Kysely's own SQLite connection
 * prepares every query again: SQLite parses and plans it each time, and the gateway's sync, whose reads
 * run on the event loop every time another process commits, spent most of its time there). The result
 * is the one Kysely's connection gives.
 */
function runStatement<R>(
  statements: Map<string, SQLite.Statement>,
  database: SQLite.Database,
  { sql, parameters }: CompiledQuery,
): QueryResult<R> {
  let statement = statements.get(sql);
  if (statement) {
    // Most recently used last: the Map's first entry is the one to drop.
    statements.delete(sql);
  } else {
    statement = database.prepare(sql);
    if (statements.size >= PREPARED_STATEMENTS) statements.delete(statements.keys().next().value!);
  }
  statements.set(sql, statement);
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/** The database was migrated by a newer Portico: this process must not run on it. */
export class SchemaTooNewError extends Error {
  constructor(readonly unknownMigrations: string[]) {
    super(
      `The database schema is newer than this version of Portico understands: it has ` +
        `${unknownMigrations.length === 1 ? 'migration' : 'migrations'} ${unknownMigrations.join(', ')}, ` +
        `which this version does not know. Run the version that applied ${
          unknownMigrations.length === 1 ? 'it' : 'them'
        } or a later one (README, "Upgrading").`,
    );
    this.name = 'SchemaTooNewError';
  }
}

/**
 * A migration that takes something away which older versions read (the contract step of an
 * expand-then-contract change) has `-contract-` in its name; every other migration only adds.
 */
const CONTRACTING = /-contract-/;

/**
 * Refuses a schema newer than the code understands: an applied migration this version does not know
 * and that contracts the schema. Unknown additive migrations pass, so that during a rolling upgrade the
 * old version keeps serving on the schema the new one expanded. A database without the migrations table
 * yet (a new one) passes.
 */
export async function assertSchemaKnown(
  db: Kysely<any>,
  migrationTable: string,
  known: readonly string[],
): Promise<void> {
  let applied: string[];
  try {
    const result = await sql<{ name: string }>`select name from ${sql.table(migrationTable)}`.execute(db);
    applied = result.rows.map((r) => r.name);
  } catch {
    // No migrations table (a new database), or no database: the migration says which, if it fails.
    return;
  }
  const knownNames = new Set(known);
  const unknown = applied.filter((name) => !knownNames.has(name) && CONTRACTING.test(name)).sort();
  if (unknown.length > 0) throw new SchemaTooNewError(unknown);
}

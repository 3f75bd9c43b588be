import type { Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

/** Migrations branch on the dialect only where the two SQL dialects differ. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

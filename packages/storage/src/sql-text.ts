import type { RawBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';

/** LIKE pattern text with its wildcards escaped (the queries say `escape '\'`, which SQLite needs). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Whether a JSON list column (`["g1","g2"]`, given as `table.column`) holds the value, as JSON writes
 * it: the same SQL on SQLite and PostgreSQL.
 */
export function jsonListHolds(column: string, value: string): RawBuilder<SqlBool> {
  const like = `%${escapeLike(JSON.stringify(value))}%`;
  return sql<SqlBool>`${sql.ref(column)} like ${like} escape '\\'`;
}

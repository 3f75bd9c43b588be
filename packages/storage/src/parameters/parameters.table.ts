import type { Selectable } from 'kysely';

/** One setting (dotted key, text value) or one internal secret (key under `portico.internal.`). */
export interface ParameterTable {
  key: string;
  value: string;
  updated_at: number;
}
export type ParameterRow = Selectable<ParameterTable>;

import type { JsonSchema } from './schema';

/** What every field of a schema form shares: state of the form, labels, the id prefix. */

export type Path = (string | number)[];

export interface FormContext {
  disabled: boolean;
  errorOf: (path: Path) => string | undefined;
  touch: (path: Path) => void;
  label: (name: string, schema: JsonSchema) => string;
  option: (value: unknown) => string;
  idPrefix: string;
}

/** The key of a field in the touched set and the validation issues. */
export const key = (path: Path) => path.join('.');

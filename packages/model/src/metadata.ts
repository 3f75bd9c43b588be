import { z } from 'zod';

/** Metadata formats; the console spells them in lower case, both are accepted. */
export const METADATA_FORMATS = ['STRING', 'NUMERIC', 'BOOLEAN', 'DATE', 'MAIL', 'URL'] as const;
export type MetadataFormat = (typeof METADATA_FORMATS)[number];
export const MetadataFormat = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(METADATA_FORMATS));

/** `${...}`: an expression resolved when the metadata is read, accepted in every format. */
const EXPRESSION = /^\$\{.+\}$/s;
const NUMERIC = /^-?\d+(\.\d{1,2})?$/;
const BOOLEAN = /^(true|false)$/;
const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const MAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_PATTERN = /^(https?:\/\/)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?(\/\S*)?$/;

export const METADATA_MESSAGES: Record<Exclude<MetadataFormat, 'STRING'>, string> = {
  NUMERIC: 'must be a number with at most 2 decimals, or an expression ${...}',
  BOOLEAN: 'must be true or false, or an expression ${...}',
  DATE: 'must be a date (YYYY-MM-DD), or an expression ${...}',
  MAIL: 'must be an email address, or an expression ${...}',
  URL: 'must be an http(s) URL, or an expression ${...}',
};

/** Why a value does not fit its format, or undefined when it does (an empty value always fits). */
export function metadataValueError(
  format: MetadataFormat,
  value: string | null | undefined,
): string | undefined {
  if (value === null || value === undefined || value === '' || format === 'STRING') return undefined;
  if (EXPRESSION.test(value)) return undefined;
  const ok = {
    NUMERIC: () => NUMERIC.test(value),
    BOOLEAN: () => BOOLEAN.test(value),
    DATE: () => DATE.test(value) && !Number.isNaN(Date.parse(value)),
    MAIL: () => MAIL.test(value),
    URL: () => URL_PATTERN.test(value),
  }[format]();
  return ok ? undefined : METADATA_MESSAGES[format];
}

/** `POST apis/{id}/metadata`, `PUT apis/{id}/metadata/{key}`. */
export const MetadataInput = z
  .object({
    key: z.string().trim().max(64).optional(),
    name: z
      .string({ error: (i) => (i.input === undefined ? 'Name is required.' : undefined) })
      .trim()
      .min(1, 'Name is required.')
      .max(64),
    format: MetadataFormat.default('STRING'),
    value: z.string().max(4000).nullable().optional(),
  })
  .superRefine((m, ctx) => {
    const error = metadataValueError(m.format, m.value);
    if (error) ctx.addIssue({ code: 'custom', path: ['value'], message: error });
  });
export type MetadataInput = z.infer<typeof MetadataInput>;

/** The key of a metadata named `name`: lower case, words joined by dashes. */
export function metadataKeyOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

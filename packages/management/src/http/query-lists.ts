import { z } from 'zod';

const items = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * A comma-separated query list of values of a schema (`status=published,deprecated`), each parsed by
 * it (upper-cased enums accept lower case); empty when absent. An unknown value is a 400 naming the
 * parameter.
 */
export const csvOf = <T extends string>(schema: z.ZodType<T>, names: readonly string[], what = 'value') =>
  z
    .string()
    .max(10_000)
    .optional()
    .transform((text, ctx) => {
      const out: T[] = [];
      for (const value of items(text)) {
        const parsed = schema.safeParse(value);
        if (!parsed.success) {
          ctx.addIssue({
            code: 'custom',
            message: `unknown ${what} [${value}], expected one of ${names.join(', ')}`,
          });
          return z.NEVER;
        }
        out.push(parsed.data);
      }
      return out;
    });

/** A comma-separated query list of ids (`application=a,b`), without repeats; empty when absent. */
export const idList = z
  .string()
  .max(10_000)
  .optional()
  .transform((text) => [...new Set(items(text))]);

import { z } from 'zod';
import type { MetadataFormat } from './api/types';

/**
 * The rules of the API screens (console-apis.md sections 5 and 9). Messages are translation keys; the
 * forms translate them when they show them.
 */
export const Messages = {
  nameRequired: 'apis.validation.nameRequired',
  nameTooLong: 'apis.validation.nameTooLong',
  versionRequired: 'apis.validation.versionRequired',
  versionTooLong: 'apis.validation.versionTooLong',
  descriptionRequired: 'apis.validation.descriptionRequired',
  contextPathRequired: 'apis.validation.contextPathRequired',
  contextPathTooShort: 'apis.validation.contextPathTooShort',
  contextPathInvalid: 'apis.validation.contextPathInvalid',
  endpointRequired: 'apis.validation.endpointRequired',
  endpointInvalid: 'apis.validation.endpointInvalid',
  planNameRequired: 'apis.validation.planNameRequired',
  planNameTooShort: 'apis.validation.planNameTooShort',
  planNameTooLong: 'apis.validation.planNameTooLong',
  securityRequired: 'apis.validation.securityRequired',
  limitRequired: 'apis.validation.limitRequired',
  positive: 'apis.validation.positive',
  atLeastOne: 'apis.validation.atLeastOne',
  maxAgeMin: 'apis.validation.maxAgeMin',
  required: 'validation.required',
} as const;

export const API_NAME_MAX = 512;
export const API_VERSION_MAX = 32;
export const CONTEXT_PATH_MIN = 3;
export const PLAN_NAME_MIN = 4;
export const PLAN_NAME_MAX = 50;
export const DESCRIPTION_SHOWN = 150;
export const INFINITE_SCROLL_STEP = 20;
export const MAX_PICTURE_BYTES = 1024 * 1024;

const CONTEXT_PATH = /^\/[A-Za-z0-9./_-]*$/;

export const contextPathSchema = z
  .string()
  .trim()
  .min(1, { message: Messages.contextPathRequired, abort: true })
  .min(CONTEXT_PATH_MIN, { message: Messages.contextPathTooShort, abort: true })
  .regex(CONTEXT_PATH, Messages.contextPathInvalid);

export const apiNameSchema = z
  .string()
  .trim()
  .min(1, Messages.nameRequired)
  .max(API_NAME_MAX, Messages.nameTooLong);
export const apiVersionSchema = z
  .string()
  .trim()
  .min(1, Messages.versionRequired)
  .max(API_VERSION_MAX, Messages.versionTooLong);
export const apiDescriptionSchema = z.string().trim().min(1, Messages.descriptionRequired);

/** The wizard's General step. */
export const generalStepSchema = z.object({
  name: apiNameSchema,
  version: apiVersionSchema,
  description: apiDescriptionSchema,
  context_path: contextPathSchema,
});

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
};

/** The wizard's Gateway step: 'Endpoint is required.' / 'Endpoint is not a valid URL.' */
export const gatewayStepSchema = z.object({
  endpoint: z
    .string()
    .trim()
    .min(1, { message: Messages.endpointRequired, abort: true })
    .refine(isHttpUrl, Messages.endpointInvalid),
});

/** A number field of a Mantine form: '' while empty. */
const optionalNumber = z.union([z.number(), z.literal('')]);

/** A limit block (rate limit or quota): limit, period time and unit are required together. */
const limitBlock = z
  .object({ limit: optionalNumber, periodTime: optionalNumber, periodTimeUnit: z.string().nullable() })
  .superRefine((block, ctx) => {
    const given = [block.limit !== '', block.periodTime !== '', !!block.periodTimeUnit];
    if (!given.some(Boolean)) return;
    if (block.limit === '')
      ctx.addIssue({ code: 'custom', path: ['limit'], message: Messages.limitRequired });
    else if (block.limit < 0) ctx.addIssue({ code: 'custom', path: ['limit'], message: Messages.positive });
    if (block.periodTime === '')
      ctx.addIssue({ code: 'custom', path: ['periodTime'], message: Messages.limitRequired });
    else if (block.periodTime < 1)
      ctx.addIssue({ code: 'custom', path: ['periodTime'], message: Messages.atLeastOne });
    if (!block.periodTimeUnit)
      ctx.addIssue({ code: 'custom', path: ['periodTimeUnit'], message: Messages.limitRequired });
  });

/** The wizard's Plan step. */
export const planStepSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, Messages.planNameRequired)
    .min(PLAN_NAME_MIN, Messages.planNameTooShort)
    .max(PLAN_NAME_MAX, Messages.planNameTooLong),
  security: z
    .string()
    .nullable()
    .refine((s) => !!s, Messages.securityRequired),
  description: z.string().trim().min(1, Messages.descriptionRequired),
  rateLimit: limitBlock,
  quota: limitBlock,
  paths: z.array(z.object({ pattern: z.string(), methods: z.array(z.string()) })),
});
export type PlanStepValues = z.input<typeof planStepSchema>;

/** Documentation files of the wizard: Markdown, or OpenAPI in YAML or JSON. */
export function pageTypeOf(fileName: string): 'MARKDOWN' | 'SWAGGER' | undefined {
  const extension = fileName.toLowerCase().split('.').pop() ?? '';
  if (extension === 'md') return 'MARKDOWN';
  if (['yaml', 'yml', 'json'].includes(extension)) return 'SWAGGER';
  return undefined;
}

/** The page name a file gives: its name without the extension. */
export const pageNameOf = (fileName: string) => fileName.replace(/\.[^.]+$/, '') || fileName;

export type ImportFileKind = 'swagger' | 'native';

/**
 * What an import file is: yml/yaml go to the swagger import; json is Swagger/OpenAPI when it holds a
 * swagger, swaggerVersion or openapi key, else a native definition. Any other file is refused.
 */
export function importFileKind(
  fileName: string,
  text: string,
): { kind: ImportFileKind } | { error: 'invalidFile' | 'invalidJson' } {
  const extension = fileName.toLowerCase().split('.').pop() ?? '';
  if (extension === 'yml' || extension === 'yaml') return { kind: 'swagger' };
  if (extension !== 'json') return { error: 'invalidFile' };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { error: 'invalidJson' };
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { error: 'invalidFile' };
  const keys = Object.keys(doc);
  return {
    kind: ['swagger', 'swaggerVersion', 'openapi'].some((k) => keys.includes(k)) ? 'swagger' : 'native',
  };
}

/** Quality score: percent floor of 100 times the score; bad below 50, medium below 80, good from 80. */
export function qualityOf(score: number): { percent: number; level: 'bad' | 'medium' | 'good' } {
  const percent = Math.floor(score * 100);
  return { percent, level: percent < 50 ? 'bad' : percent < 80 ? 'medium' : 'good' };
}

/** A description cut at 150 characters. */
export const truncate = (text: string | null | undefined, max = DESCRIPTION_SHOWN) =>
  !text ? '' : text.length > max ? `${text.slice(0, max)}…` : text;

const EXPRESSION = /^\$\{.+\}$/s;
const FORMATS: Record<Exclude<MetadataFormat, 'STRING'>, RegExp> = {
  NUMERIC: /^-?\d+(\.\d{1,2})?$/,
  BOOLEAN: /^(true|false)$/,
  DATE: /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/,
  MAIL: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  URL: /^(https?:\/\/)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?(\/\S*)?$/,
};

/** Whether a metadata value fits its format (an empty value or an expression `${...}` always does). */
export function metadataValueFits(format: MetadataFormat, value: string): boolean {
  if (value === '' || format === 'STRING' || EXPRESSION.test(value)) return true;
  const pattern = FORMATS[format];
  if (!pattern.test(value)) return false;
  return format !== 'DATE' || !Number.isNaN(Date.parse(value));
}

export const metadataSchema = z
  .object({
    name: z.string().trim().min(1, Messages.nameRequired).max(64),
    format: z.string(),
    value: z.string(),
  })
  .superRefine((m, ctx) => {
    if (!metadataValueFits(m.format as MetadataFormat, m.value.trim())) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `apis.metadata.formatError.${m.format}` });
    }
  });

/** JSON with sorted keys and two-space indentation: two equal values give the same text (diffs). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
          )
        : v,
    2,
  );
}

import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import {
  ApiLifecycleState,
  ApiName,
  ApiVersion,
  ApiVisibility,
  MetadataFormat,
  Paths,
  PlanSecurity,
  PlanStatus,
  PlanValidation,
  Property,
  Proxy,
  Resource,
  ResponseTemplates,
  Services,
} from '@portico/model';

/** The bounds of what `portico apply` reads. */
export const FILE_LIMITS = { maxBytes: 5 * 1024 * 1024, maxDepth: 8, maxFiles: 1000 };

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

export type Json = Record<string, unknown>;

/** One API definition read from a file: the document as written and its key (the context path). */
export interface ApiFile {
  file: string;
  key: string;
  doc: Json;
}

/** A file refused before anything is changed: its path, the field and why. */
export class FileError extends Error {
  constructor(
    readonly file: string,
    readonly field: string | undefined,
    reason: string,
  ) {
    super(`${file}${field ? `: ${field}` : ''}: ${reason}`);
  }
}

const unique = <T>(items: T[], keyOf: (item: T) => string) =>
  items.every((item, i) => items.findIndex((other) => keyOf(other) === keyOf(item)) === i);

const ApiPlanFile = z.looseObject({
  id: z.string().min(1).optional(),
  name: z.string().trim().min(1, 'a plan needs a name'),
  security: PlanSecurity,
  validation: PlanValidation.optional(),
  status: PlanStatus.optional(),
  order: z.number().int().optional(),
  characteristics: z.array(z.string()).optional(),
  paths: Paths.optional(),
  excluded_groups: z.array(z.string()).optional(),
});

const ApiPageFile = z.looseObject({
  id: z.string().min(1).optional(),
  name: z.string().trim().min(1, 'a page needs a name'),
  type: z.string().min(1),
  content: z.string().nullable().optional(),
  order: z.number().int().optional(),
  published: z.boolean().optional(),
  parentId: z.string().nullable().optional(),
});

const ApiMetadataFile = z.looseObject({
  key: z.string().min(1),
  name: z.string().min(1),
  format: MetadataFormat.optional(),
  value: z.string().nullable().optional(),
});

/** What a file must hold: the export format (current shape), plus the optional running `state`. */
const ApiFileSchema = z
  .looseObject({
    id: z.string().min(1).optional(),
    name: ApiName,
    version: ApiVersion,
    description: z.string().nullable().optional(),
    visibility: ApiVisibility.optional(),
    lifecycle_state: ApiLifecycleState.optional(),
    state: z.enum(['STARTED', 'STOPPED']).optional(),
    labels: z.array(z.string()).optional(),
    views: z.array(z.string()).optional(),
    tags: z.array(z.string()).optional(),
    groups: z.array(z.string()).optional(),
    proxy: Proxy,
    paths: Paths.optional(),
    properties: z.array(Property).optional(),
    services: Services.optional(),
    resources: z.array(Resource).optional(),
    path_mappings: z.array(z.string()).optional(),
    response_templates: ResponseTemplates.optional(),
    plans: z
      .array(ApiPlanFile)
      .refine((plans) => unique(plans, (p) => p.name), 'two plans have the same name')
      .optional(),
    pages: z
      .array(ApiPageFile)
      .refine(
        (pages) => unique(pages, (p) => `${p.type.toUpperCase()} ${p.name}`),
        'two pages of one type have the same name',
      )
      .optional(),
    metadata: z
      .array(ApiMetadataFile)
      .refine((items) => unique(items, (m) => m.key), 'two metadata have the same key')
      .optional(),
  })
  .superRefine((api, ctx) => {
    if (!api.proxy.context_path && !api.proxy.virtual_hosts?.[0]?.path)
      ctx.addIssue({
        code: 'custom',
        path: ['proxy', 'context_path'],
        message: 'a context path is required',
      });
  });

/** The key of an API: its context path (the first virtual host's path without one), no trailing slash. */
export function contextPathKey(proxy: { context_path?: string | null; virtual_hosts?: { path?: string }[] }) {
  const raw = proxy.context_path ?? proxy.virtual_hosts?.[0]?.path ?? '';
  return raw.length > 1 ? raw.replace(/\/+$/, '') : raw;
}

/** Parses one file; the first problem throws a FileError naming the file and the field. */
export function parseApiFile(file: string, text: string): ApiFile {
  let doc: unknown;
  try {
    doc = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new FileError(
      file,
      undefined,
      `not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
    );
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new FileError(file, undefined, 'an API definition must be an object (one API per file)');
  const parsed = ApiFileSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new FileError(file, issue.path.join('.') || undefined, issue.message);
  }
  return { file, key: contextPathKey(parsed.data.proxy), doc: doc as Json };
}

/** The definition files of a folder (sub-folders too, bounded) or the one file given, sorted. */
export function listFiles(target: string): string[] {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) throw new FileError(target, undefined, 'no such file or folder');
  if (stat.isFile()) return [target];
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > FILE_LIMITS.maxDepth)
      throw new FileError(dir, undefined, `folders nest deeper than ${FILE_LIMITS.maxDepth} levels`);
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, depth + 1);
      else if (entry.isFile() && EXTENSIONS.has(path.extname(entry.name).toLowerCase())) {
        found.push(full);
        if (found.length > FILE_LIMITS.maxFiles)
          throw new FileError(target, undefined, `more than ${FILE_LIMITS.maxFiles} definition files`);
      }
    }
  };
  walk(target, 0);
  return found;
}

/** Reads and checks every file before anything changes; two files on one context path are refused. */
export function readApiFiles(target: string): ApiFile[] {
  const files: ApiFile[] = [];
  for (const file of listFiles(target)) {
    const size = statSync(file).size;
    if (size > FILE_LIMITS.maxBytes)
      throw new FileError(file, undefined, `larger than ${FILE_LIMITS.maxBytes} bytes`);
    const api = parseApiFile(file, readFileSync(file, 'utf8'));
    const twin = files.find((f) => f.key === api.key);
    if (twin)
      throw new FileError(file, 'proxy.context_path', `${api.key} is also the context path of ${twin.file}`);
    files.push(api);
  }
  return files;
}

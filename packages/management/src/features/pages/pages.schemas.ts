import { z } from 'zod';

/** The page types (console-apis.md 3): ROOT holds the portal's root pages, RAML is deprecated. */
export const PAGE_TYPES = ['FOLDER', 'MARKDOWN', 'SWAGGER', 'RAML', 'ROOT'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

/** Largest page content, as the largest file an import reads (5 MB). */
export const MAX_PAGE_CONTENT_BYTES = 5 * 1024 * 1024;
/** The body limit of the page calls: a content of the largest size fits, escaped as a JSON string. */
export const PAGE_BODY_LIMIT = Math.ceil(MAX_PAGE_CONTENT_BYTES * 1.5) + 64 * 1024;

export const RAML_DEPRECATED = 'RAML is no longer supported and is to be removed: prefer OpenAPI.';

const TRUE_FALSE = ['true', 'false'] as const;

/**
 * The Swagger configuration of a page, with the string values 'true'/'false' the spec gives them
 * (booleans are accepted too and stored as strings); unknown keys are refused.
 */
export const PageConfiguration = z
  .object({
    tryIt: z.enum(TRUE_FALSE),
    tryItAnonymous: z.enum(TRUE_FALSE),
    tryItURL: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(2048)]),
    showURL: z.enum(TRUE_FALSE),
    displayOperationId: z.enum(TRUE_FALSE),
    docExpansion: z.enum(['full', 'none', 'list']),
    enableFiltering: z.enum(TRUE_FALSE),
    showExtensions: z.enum(TRUE_FALSE),
    showCommonExtensions: z.enum(TRUE_FALSE),
    maxDisplayedTags: z.string().regex(/^(-1|\d{1,4})$/, 'a number, -1 for all'),
  })
  .partial()
  .strict();

/** Booleans and numbers sent by clients become the strings the configuration holds. */
const configurationInput = z.preprocess(
  (value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value).map(([k, v]) => [
            k,
            typeof v === 'boolean' || typeof v === 'number' ? String(v) : v,
          ]),
        )
      : value,
  PageConfiguration,
);

/** Where a page's content comes from: a fetcher (`http`, `github`, `gitlab`, `bitbucket`) and its settings. */
export const PageSource = z.object({
  type: z.string().trim().min(1, 'A source type is required.').max(64),
  configuration: z.record(z.string(), z.unknown()).default({}),
});
export type PageSource = z.infer<typeof PageSource>;

const name = z.string().trim().min(1, 'A name is required.').max(512);
const groups = z.array(z.string().min(1).max(64)).max(200);

export const NewPageBody = z.object({
  name,
  type: z.enum(PAGE_TYPES),
  description: z.string().max(4096).nullish(),
  content: z.string().nullish(),
  order: z.number().int().min(0).max(100_000).optional(),
  published: z.boolean().optional(),
  homepage: z.boolean().optional(),
  parentId: z.string().max(64).nullish(),
  source: PageSource.nullish(),
  configuration: configurationInput.optional(),
  excluded_groups: groups.optional(),
  lastContributor: z.string().nullish(),
});
export type NewPageInput = z.infer<typeof NewPageBody>;

/** `PUT`: the whole page but its type. */
export const UpdatePageBody = NewPageBody.omit({ type: true }).extend({
  type: z.enum(PAGE_TYPES).optional(),
});
export type UpdatePageInput = z.infer<typeof UpdatePageBody>;

/** `PATCH`: some of name, parentId, published, order (and the other fields of PUT). */
export const PatchPageBody = UpdatePageBody.partial();
export type PatchPageInput = z.infer<typeof PatchPageBody>;

export const PageListQuery = z.object({
  homepage: z.enum(TRUE_FALSE).optional(),
  root: z.enum(TRUE_FALSE).optional(),
  parent: z.string().max(64).optional(),
  published: z.enum(TRUE_FALSE).optional(),
  type: z.enum(PAGE_TYPES).optional(),
  name: z.string().max(512).optional(),
  flatMode: z.enum(TRUE_FALSE).optional(),
});
export type PageListQuery = z.infer<typeof PageListQuery>;

/**
 * `POST _import`: pages made from the files of a repository folder, under folders recreating its
 * sub-folders. `type` ROOT keeps the import on the documentation's ROOT page (as Gravitee 1.x: the
 * ROOT page holds the folder's source, fetching it imports the folder again) and puts the tree under
 * it; MARKDOWN or SWAGGER import those files only; FOLDER, or none, imports every file at the root.
 */
export const ImportPagesBody = z.object({
  type: z.enum(['MARKDOWN', 'SWAGGER', 'FOLDER', 'ROOT']).optional(),
  published: z.boolean().optional(),
  lastContributor: z.string().nullish(),
  source: PageSource,
  configuration: configurationInput.optional(),
  excluded_groups: groups.optional(),
});
export type ImportPagesInput = z.infer<typeof ImportPagesBody>;

export interface PageJson {
  id: string;
  name: string;
  type: string;
  description: string | null;
  content: string | null;
  contentType: string;
  order: number;
  published: boolean;
  homepage: boolean;
  parentId: string | null;
  lastContributor: string | null;
  lastModificationDate: number;
  source: PageSource | null;
  configuration: Record<string, string>;
  excluded_groups: string[];
  metadata: Record<string, string>;
  /** Set on RAML pages: the format is deprecated. */
  messages?: string[];
}

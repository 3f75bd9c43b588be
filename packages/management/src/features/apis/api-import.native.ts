import { z } from 'zod';
import {
  ApiLifecycleState,
  ApiName,
  ApiVersion,
  ApiVisibility,
  IMPORT_INVALID_FILE,
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
  invalidField,
} from '@portico/model';
import { importRefused } from './apis.errors.js';

/** Native definitions (our export of any target version, or a Gravitee 1.x API definition): their shape. */

type Json = Record<string, unknown>;

const lenient = <T extends z.ZodType>(schema: T, fallback: z.output<T>) => schema.catch(fallback);

/** A plan of an export file (ours, or a Gravitee 1.x one). */
const ImportedPlan = z.looseObject({
  id: z.string().optional(),
  name: z.string().min(1),
  description: z.string().nullable().optional(),
  validation: lenient(PlanValidation, 'MANUAL').default('MANUAL'),
  security: lenient(PlanSecurity, 'KEY_LESS').default('KEY_LESS'),
  securityDefinition: z.string().nullable().optional(),
  type: z.string().default('API'),
  status: lenient(PlanStatus, 'STAGING').default('STAGING'),
  order: z.number().int().default(0),
  characteristics: z.array(z.string()).default([]),
  paths: Paths.default({}),
  excluded_groups: z.array(z.string()).default([]),
  comment_required: z.boolean().default(false),
  comment_message: z.string().nullable().optional(),
  published_at: z.number().nullable().optional(),
  closed_at: z.number().nullable().optional(),
});

const ImportedPage = z.looseObject({
  id: z.string().optional(),
  name: z.string().min(1),
  type: z.string().transform((s) => s.toUpperCase()),
  content: z.string().nullable().optional(),
  order: z.number().int().default(0),
  published: z.boolean().default(false),
  homepage: z.boolean().default(false),
  parentId: z.string().nullable().optional(),
  source: z.unknown().optional(),
  configuration: z.record(z.string(), z.unknown()).default({}),
  excluded_groups: z.array(z.string()).default([]),
  metadata: z.record(z.string(), z.unknown()).default({}),
});

const ImportedMember = z.looseObject({
  source: z.string().optional(),
  sourceId: z.string().optional(),
  username: z.string().optional(),
  role: z.string().optional(),
  roles: z.array(z.string()).optional(),
});

const ImportedMetadata = z.looseObject({
  key: z.string().min(1),
  name: z.string().min(1),
  format: lenient(MetadataFormat, 'STRING').default('STRING'),
  value: z.string().nullable().optional(),
});

/** A native definition: our export (any target version) or a Gravitee 1.x API definition. */
export const NativeApi = z.object({
  id: z.string().optional(),
  name: ApiName,
  version: ApiVersion,
  description: z.string().nullable().optional(),
  visibility: lenient(ApiVisibility, 'PRIVATE').default('PRIVATE'),
  lifecycle_state: lenient(ApiLifecycleState, 'CREATED').optional(),
  labels: z.array(z.string()).default([]),
  views: z.array(z.string()).default([]),
  tags: z.array(z.string()).default([]),
  groups: z.array(z.string()).default([]),
  picture: z.string().nullable().optional(),
  proxy: Proxy,
  paths: Paths.default({}),
  properties: z.array(Property).default([]),
  services: Services.default({}),
  resources: z.array(Resource).default([]),
  path_mappings: z.array(z.string()).default([]),
  response_templates: ResponseTemplates.default({}),
  members: z.array(ImportedMember).default([]),
  pages: z.array(ImportedPage).default([]),
  plans: z.array(ImportedPlan).default([]),
  metadata: z.array(ImportedMetadata).default([]),
});
export type NativeApi = z.infer<typeof NativeApi>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Brings the older shapes to ours: a proxy with `endpoints` (1.15) gets one endpoint group, a
 * properties map becomes a list, a health check with `interval`/`unit` gets a trigger.
 */
export function normalizeNative(doc: Json): Json {
  const out: Json = { ...doc };
  if (isObject(doc.proxy)) {
    const proxy: Json = { ...doc.proxy };
    const loadBalancing = proxy.load_balancing ?? proxy.loadBalancing;
    if (!Array.isArray(proxy.groups) && Array.isArray(proxy.endpoints)) {
      proxy.groups = [
        {
          name: 'default-group',
          endpoints: proxy.endpoints,
          ...(isObject(loadBalancing) ? { load_balancing: loadBalancing } : {}),
        },
      ];
    }
    delete proxy.endpoints;
    delete proxy.load_balancing;
    delete proxy.loadBalancing;
    if (Array.isArray(proxy.groups)) {
      proxy.groups = proxy.groups.map((g: unknown) =>
        isObject(g) && Array.isArray(g.endpoints)
          ? {
              ...g,
              endpoints: g.endpoints.map((e: unknown) =>
                isObject(e) && typeof e.type === 'string' ? { ...e, type: e.type.toUpperCase() } : e,
              ),
            }
          : g,
      );
    }
    out.proxy = proxy;
  }
  if (isObject(doc.properties)) {
    out.properties = Object.entries(doc.properties).map(([key, value]) => ({ key, value: String(value) }));
  }
  if (isObject(doc.services) && isObject(doc.services['health-check'])) {
    const check: Json = { ...doc.services['health-check'] };
    if (check.trigger === undefined && typeof check.interval === 'number' && typeof check.unit === 'string') {
      check.trigger = { rate: check.interval, unit: check.unit };
    }
    out.services = { ...doc.services, 'health-check': check };
  }
  return out;
}

/** Reads a native definition, refusing a bad field by name. */
export function parseNative(doc: Json): NativeApi {
  if (!isObject(doc.proxy)) throw importRefused(IMPORT_INVALID_FILE);
  const parsed = NativeApi.safeParse(normalizeNative(doc));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidField(issue.path.join('.') || 'payload', issue.message);
  }
  return parsed.data;
}

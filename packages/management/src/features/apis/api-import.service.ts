import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { ApiImportRequest } from '@portico/model';
import {
  ApiDefinition as ApiDefinitionSchema,
  ApiLifecycleState,
  ApiName,
  ApiVersion,
  ApiVisibility,
  IMPORT_INVALID_FILE,
  IMPORT_INVALID_JSON,
  MetadataFormat,
  PRIMARY_OWNER,
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
import type { ApiRow, Database, Executor, UserRow } from '@portico/storage';
import {
  findApiById,
  findDefaultRole,
  findGroupById,
  findGroupByName,
  findMembershipsOfReference,
  findMetadata,
  findPageById,
  findPagesOfReference,
  findPlanById,
  findRole,
  findUserBySource,
  insertGroup,
  insertMetadata,
  insertPage,
  insertPlan,
  updateMetadata,
  updatePage,
  updatePlan,
  upsertMembership,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import { newId } from '../../http/ids.js';
import { newDefinition } from './apis.definition.js';
import {
  IMPORT_FETCH_FAILED,
  IMPORT_TIMEOUT,
  IMPORT_TOO_LARGE,
  IMPORT_URL_SCHEME,
  importRefused,
} from './apis.errors.js';
import type { ApiService } from './apis.service.js';
import { isSwaggerDocument, readSwagger } from './apis.swagger.js';

type Json = Record<string, unknown>;

/** Where an import comes from: the options of the dialogs, or a definition object sent as the body. */
export type ImportSource = { request: ApiImportRequest } | { document: Json };

export interface ImportLimits {
  /** How long a URL may take to answer (default 30 s). */
  fetchTimeoutMs: number;
  /** Largest file read from a URL (default 5 MB). */
  maxBytes: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = { fetchTimeoutMs: 30_000, maxBytes: 5 * 1024 * 1024 };

/** Ids kept from a file: they appear in URLs as they are. */
const SAFE_ID = /^[A-Za-z0-9._~-]{1,128}$/;

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
const NativeApi = z.object({
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
type NativeApi = z.infer<typeof NativeApi>;

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

/** Parses a file's text: JSON when it looks like JSON, YAML otherwise; it must hold an object. */
export function parseDocument(text: string): Json {
  const trimmed = text.trim();
  let value: unknown;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      value = JSON.parse(trimmed);
    } catch {
      throw importRefused(IMPORT_INVALID_JSON);
    }
  } else {
    try {
      value = parseYaml(trimmed, { maxAliasCount: 100 });
    } catch {
      throw importRefused(IMPORT_INVALID_FILE);
    }
  }
  if (!isObject(value)) throw importRefused(IMPORT_INVALID_FILE);
  return value;
}

/** Reads an http(s) URL within the time and size limits. */
export async function fetchDocument(address: string, limits: ImportLimits): Promise<string> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw importRefused(IMPORT_URL_SCHEME);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw importRefused(IMPORT_URL_SCHEME);
  const signal = AbortSignal.timeout(limits.fetchTimeoutMs);
  const timedOut = () => importRefused(IMPORT_TIMEOUT(limits.fetchTimeoutMs / 1000));
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow' });
  } catch (error) {
    if (signal.aborted) throw timedOut();
    throw importRefused(IMPORT_FETCH_FAILED(error instanceof Error ? error.message : 'unknown error'));
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw importRefused(IMPORT_FETCH_FAILED(`the server answered ${response.status}`));
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limits.maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw importRefused(IMPORT_TOO_LARGE(limits.maxBytes));
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > limits.maxBytes) {
        await response.body?.cancel().catch(() => {});
        throw importRefused(IMPORT_TOO_LARGE(limits.maxBytes));
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (signal.aborted) throw timedOut();
    throw error;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseNative(doc: Json): NativeApi {
  if (!isObject(doc.proxy)) throw importRefused(IMPORT_INVALID_FILE);
  const parsed = NativeApi.safeParse(normalizeNative(doc));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidField(issue.path.join('.') || 'payload', issue.message);
  }
  return parsed.data;
}

export interface ApiImportDeps {
  db: Kysely<Database>;
  apis: ApiService;
  audit: AuditService;
  now: () => number;
  limits?: ImportLimits;
}

/**
 * Imports: `POST apis/import` (our export or a Gravitee 1.x definition, or a Swagger/OpenAPI file),
 * `POST apis/import/swagger`, and `POST apis/{id}/import` over an existing API (which keeps its id).
 */
export class ApiImportService {
  private readonly db: Kysely<Database>;
  private readonly limits: ImportLimits;

  constructor(private readonly deps: ApiImportDeps) {
    this.db = deps.db;
    this.limits = deps.limits ?? DEFAULT_IMPORT_LIMITS;
  }

  private async load(source: ImportSource): Promise<{ doc: Json; text: string; options: ApiImportRequest }> {
    if ('document' in source) {
      return {
        doc: source.document,
        text: JSON.stringify(source.document, null, 2),
        options: {
          type: 'INLINE',
          payload: '',
          with_documentation: false,
          with_path_mapping: false,
          with_policy_paths: false,
          with_policy_mocks: false,
        },
      };
    }
    const { request } = source;
    const text = request.type === 'URL' ? await fetchDocument(request.payload, this.limits) : request.payload;
    return { doc: parseDocument(text), text, options: request };
  }

  /** A new API from a file; `swaggerOnly` refuses native definitions (`import/swagger`). */
  async importNew(actor: UserRow, source: ImportSource, swaggerOnly = false): Promise<ApiRow> {
    const { doc, text, options } = await this.load(source);
    if (isSwaggerDocument(doc)) return this.newFromSwagger(actor, doc, text, options);
    if (swaggerOnly) throw importRefused(IMPORT_INVALID_FILE);
    const api = parseNative(doc);
    return this.db.transaction().execute(async (trx) => {
      const keep = api.id !== undefined && SAFE_ID.test(api.id) && !(await findApiById(trx, api.id));
      const id = keep ? api.id! : newId();
      const definition = ApiDefinitionSchema.parse({ ...api, id });
      const row = await this.deps.apis.insertNew(trx, actor, {
        id,
        definition,
        description: api.description ?? null,
        visibility: api.visibility,
        ...(api.lifecycle_state ? { lifecycle_state: api.lifecycle_state } : {}),
        labels: api.labels,
        views: api.views,
        groups: await this.resolveGroups(trx, actor, api.groups),
        picture: api.picture ?? null,
      });
      await this.importParts(trx, actor, id, api);
      return row;
    });
  }

  private async newFromSwagger(
    actor: UserRow,
    doc: Json,
    text: string,
    options: ApiImportRequest,
  ): Promise<ApiRow> {
    const swagger = await readSwagger(doc, {
      withPathMapping: options.with_path_mapping,
      withPolicyPaths: options.with_policy_paths,
      withPolicyMocks: options.with_policy_mocks,
    });
    const name = ApiName.safeParse(swagger.name);
    if (!name.success) throw invalidField('name', name.error.issues[0]!.message);
    const version = ApiVersion.safeParse(swagger.version);
    if (!version.success) throw invalidField('version', version.error.issues[0]!.message);
    const id = newId();
    const base = newDefinition({
      id,
      name: name.data,
      version: version.data,
      contextPath: swagger.contextPath,
      endpoint: swagger.endpoint,
    });
    const definition = { ...base, paths: swagger.paths, path_mappings: swagger.pathMappings };
    return this.db.transaction().execute(async (trx) => {
      const row = await this.deps.apis.insertNew(trx, actor, {
        id,
        definition,
        description: swagger.description,
        visibility: 'PRIVATE',
      });
      if (options.with_documentation) await this.saveSwaggerPage(trx, actor, id, swagger.title, text);
      return row;
    });
  }

  /**
   * `POST apis/{id}/import`: a native definition replaces the API's definition and settings and adds
   * or updates its plans, pages, metadata and members; a Swagger file updates the version, the
   * description and, when asked, the path mappings, the policy paths and the documentation.
   */
  async importOver(actor: UserRow, apiId: string, source: ImportSource): Promise<ApiRow> {
    await this.deps.apis.get(apiId);
    const { doc, text, options } = await this.load(source);
    const mayChangeContextPath = await this.deps.apis.mayChangeContextPath(actor, apiId);
    const apply = { mayChangeContextPath, event: 'API_UPDATED' as const };
    if (isSwaggerDocument(doc)) {
      const swagger = await readSwagger(doc, {
        withPathMapping: options.with_path_mapping,
        withPolicyPaths: options.with_policy_paths,
        withPolicyMocks: options.with_policy_mocks,
      });
      const version = ApiVersion.safeParse(swagger.version);
      if (!version.success) throw invalidField('version', version.error.issues[0]!.message);
      return this.db.transaction().execute(async (trx) => {
        const row = await this.deps.apis.applyChanges(
          trx,
          actor,
          apiId,
          {
            version: version.data,
            description: swagger.description,
            ...(options.with_path_mapping ? { path_mappings: swagger.pathMappings } : {}),
            ...(options.with_policy_paths ? { paths: swagger.paths } : {}),
          },
          apply,
        );
        if (options.with_documentation) await this.saveSwaggerPage(trx, actor, apiId, swagger.title, text);
        return row;
      });
    }
    const api = parseNative(doc);
    return this.db.transaction().execute(async (trx) => {
      const row = await this.deps.apis.applyChanges(
        trx,
        actor,
        apiId,
        {
          name: api.name,
          version: api.version,
          ...(api.description !== undefined && api.description !== null
            ? { description: api.description }
            : {}),
          visibility: api.visibility,
          ...(api.lifecycle_state ? { lifecycle_state: api.lifecycle_state } : {}),
          labels: api.labels,
          views: api.views,
          tags: api.tags,
          groups: await this.resolveGroups(trx, actor, api.groups),
          ...(api.picture !== undefined ? { picture: api.picture } : {}),
          proxy: api.proxy,
          paths: api.paths,
          properties: api.properties,
          services: api.services,
          resources: api.resources,
          path_mappings: api.path_mappings,
          response_templates: api.response_templates,
        },
        apply,
      );
      await this.importParts(trx, actor, apiId, api);
      return row;
    });
  }

  /** The groups of a file, by id or by name; a name unknown here becomes a new group. */
  private async resolveGroups(trx: Executor, actor: UserRow, groups: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const entry of groups) {
      const group = (await findGroupById(trx, entry)) ?? (await findGroupByName(trx, entry));
      if (group) {
        ids.push(group.id);
        continue;
      }
      const id = newId();
      const now = this.deps.now();
      await insertGroup(trx, {
        id,
        name: entry,
        event_rules: '[]',
        max_invitation: null,
        lock_api_role: 0,
        lock_application_role: 0,
        system_invitation: 0,
        email_invitation: 0,
        created_at: now,
        updated_at: now,
      });
      await this.deps.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: actor.id,
        event: 'GROUP_CREATED',
        properties: { GROUP: id },
        after: { id, name: entry },
      });
      ids.push(id);
    }
    return ids;
  }

  private async saveSwaggerPage(trx: Executor, actor: UserRow, apiId: string, name: string, content: string) {
    const now = this.deps.now();
    const existing = (await findPagesOfReference(trx, 'API', apiId, { type: 'SWAGGER' })).find(
      (p) => p.name === name,
    );
    if (existing) {
      await updatePage(trx, existing.id, { content, last_contributor: actor.id, updated_at: now });
      await this.auditPage(trx, actor, apiId, existing.id, 'PAGE_UPDATED');
      return;
    }
    const id = newId();
    await insertPage(trx, {
      id,
      reference_type: 'API',
      reference_id: apiId,
      name,
      type: 'SWAGGER',
      content,
      last_contributor: actor.id,
      order: 0,
      published: 0,
      homepage: 0,
      parent_id: null,
      source: null,
      configuration: '{}',
      excluded_groups: '[]',
      metadata: '{}',
      created_at: now,
      updated_at: now,
    });
    await this.auditPage(trx, actor, apiId, id, 'PAGE_CREATED');
  }

  private auditPage(trx: Executor, actor: UserRow, apiId: string, pageId: string, event: string) {
    return this.deps.audit.record(trx, {
      referenceType: 'API',
      referenceId: apiId,
      userId: actor.id,
      event,
      properties: { PAGE: pageId },
    });
  }

  /** Plans, pages, metadata and members of a file: added, or updated when they already belong here. */
  private async importParts(trx: Executor, actor: UserRow, apiId: string, api: NativeApi): Promise<void> {
    const now = this.deps.now();
    for (const plan of api.plans) {
      const existing = plan.id ? await findPlanById(trx, plan.id) : undefined;
      const columns = {
        name: plan.name,
        description: plan.description ?? null,
        security: plan.security,
        security_definition: plan.securityDefinition ?? null,
        validation: plan.security === 'KEY_LESS' ? 'AUTO' : plan.validation,
        type: plan.type.toUpperCase(),
        status: plan.status,
        order: plan.order,
        characteristics: JSON.stringify(plan.characteristics),
        paths: JSON.stringify(plan.paths),
        excluded_groups: JSON.stringify(plan.excluded_groups),
        comment_required: plan.comment_required ? 1 : 0,
        comment_message: plan.comment_message ?? null,
        published_at: plan.published_at ?? null,
        closed_at: plan.closed_at ?? null,
        updated_at: now,
      };
      if (existing && existing.api_id === apiId) {
        await updatePlan(trx, existing.id, columns);
        await this.auditPart(trx, actor, apiId, 'PLAN_UPDATED', { PLAN: existing.id });
      } else {
        const id = plan.id && SAFE_ID.test(plan.id) && !existing ? plan.id : newId();
        await insertPlan(trx, { id, api_id: apiId, ...columns, created_at: now });
        await this.auditPart(trx, actor, apiId, 'PLAN_CREATED', { PLAN: id });
      }
    }

    const pageIds = new Map<string, string>();
    for (const page of api.pages) {
      const existing = page.id ? await findPageById(trx, page.id) : undefined;
      const mine = existing && existing.reference_type === 'API' && existing.reference_id === apiId;
      pageIds.set(
        page.id ?? '',
        mine ? existing.id : page.id && SAFE_ID.test(page.id) && !existing ? page.id : newId(),
      );
    }
    for (const page of api.pages) {
      const id = pageIds.get(page.id ?? '')!;
      const columns = {
        name: page.name,
        type: page.type,
        content: page.content ?? null,
        order: page.order,
        published: page.published ? 1 : 0,
        homepage: page.homepage ? 1 : 0,
        parent_id: page.parentId ? (pageIds.get(page.parentId) ?? page.parentId) : null,
        source: page.source === undefined || page.source === null ? null : JSON.stringify(page.source),
        configuration: JSON.stringify(page.configuration),
        excluded_groups: JSON.stringify(page.excluded_groups),
        metadata: JSON.stringify(page.metadata),
        last_contributor: actor.id,
        updated_at: now,
      };
      if (await findPageById(trx, id)) {
        await updatePage(trx, id, columns);
        await this.auditPart(trx, actor, apiId, 'PAGE_UPDATED', { PAGE: id });
      } else {
        await insertPage(trx, {
          id,
          reference_type: 'API',
          reference_id: apiId,
          ...columns,
          created_at: now,
        });
        await this.auditPart(trx, actor, apiId, 'PAGE_CREATED', { PAGE: id });
      }
    }

    for (const m of api.metadata) {
      const ref = { referenceType: 'API', referenceId: apiId, key: m.key };
      const value = m.value ?? null;
      if (await findMetadata(trx, 'API', apiId, m.key)) {
        await updateMetadata(trx, ref, { name: m.name, format: m.format, value, updated_at: now });
        await this.auditPart(trx, actor, apiId, 'METADATA_UPDATED', { METADATA: m.key });
      } else {
        await insertMetadata(trx, {
          reference_type: 'API',
          reference_id: apiId,
          key: m.key,
          name: m.name,
          format: m.format,
          value,
          created_at: now,
          updated_at: now,
        });
        await this.auditPart(trx, actor, apiId, 'METADATA_CREATED', { METADATA: m.key });
      }
    }

    const current = await findMembershipsOfReference(trx, 'API', apiId);
    const defaultRole = (await findDefaultRole(trx, 'API'))?.name ?? 'USER';
    for (const member of api.members) {
      const username = member.sourceId ?? member.username;
      if (!username) continue;
      const user = await findUserBySource(trx, member.source ?? 'portico', username);
      if (!user || user.id === actor.id) continue;
      const existing = current.find((m) => m.member_type === 'USER' && m.member_id === user.id);
      if (existing?.role_name === PRIMARY_OWNER) continue;
      const wanted = (member.role ?? member.roles?.[0] ?? defaultRole).toUpperCase();
      const role = await findRole(trx, 'API', wanted);
      const roleName = role && role.is_system === 0 ? role.name : defaultRole;
      await upsertMembership(trx, {
        id: newId(),
        member_id: user.id,
        member_type: 'USER',
        reference_type: 'API',
        reference_id: apiId,
        role_scope: 'API',
        role_name: roleName,
        created_at: now,
        updated_at: now,
      });
      await this.deps.audit.record(trx, {
        referenceType: 'API',
        referenceId: apiId,
        userId: actor.id,
        event: existing ? 'MEMBERSHIP_UPDATED' : 'MEMBERSHIP_CREATED',
        properties: { USER: user.id },
        after: { member: user.id, role: roleName },
      });
    }
  }

  private auditPart(
    trx: Executor,
    actor: UserRow,
    apiId: string,
    event: string,
    properties: Record<string, string>,
  ) {
    return this.deps.audit.record(trx, {
      referenceType: 'API',
      referenceId: apiId,
      userId: actor.id,
      event,
      properties,
    });
  }
}

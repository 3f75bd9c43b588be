import type { ApiImportRequest } from '@portico/model';
import {
  ApiDefinition as ApiDefinitionSchema,
  ApiName,
  ApiVersion,
  IMPORT_INVALID_FILE,
  invalidField,
} from '@portico/model';
import type { OutboundPolicy } from '@portico/outbound';
import type { ApiRow, Database, Executor, UserRow } from '@portico/storage';
import {
  findApiById,
  findGroupById,
  findGroupByName,
  findPagesOfReference,
  insertGroup,
  insertPage,
  updatePage,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import { newId } from '../../http/ids.js';
import { newDefinition } from './apis.definition.js';
import { SAFE_ID, importParts } from './api-import.parts.js';
import { parseNative } from './api-import.native.js';
import type { ImportLimits, ImportLog, ImportSource } from './api-import.source.js';
import { DEFAULT_IMPORT_LIMITS, checkDocumentSize, importText, parseDocument } from './api-import.source.js';
import { importRefused } from './apis.errors.js';
import type { ApiService } from './apis.service.js';
import { isSwaggerDocument, readSwagger } from './apis.swagger.js';

type Json = Record<string, unknown>;

export type { ImportLimits, ImportSource } from './api-import.source.js';

export interface ApiImportDeps {
  db: Kysely<Database>;
  apis: ApiService;
  audit: AuditService;
  now: () => number;
  limits?: ImportLimits;
  /** What a URL to import from may reach (default: public addresses only). */
  outbound?: OutboundPolicy;
  /** Where the detail of a refused URL is written. */
  log?: ImportLog;
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
      checkDocumentSize(source.document, this.limits);
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
    const text = await importText(request, this.limits, this.deps.outbound, this.deps.log);
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
      await importParts(this.deps, trx, actor, id, api);
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
      await importParts(this.deps, trx, actor, apiId, api);
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
}

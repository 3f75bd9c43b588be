import type { ApiDefinition, ApiExportField, ApiExportVersion, Proxy } from '@portico/model';
import type { ApiRow, Executor, GroupRow, MetadataRow, PageRow, PlanRow, UserRow } from '@portico/storage';
import {
  findGroupsByIds,
  findMembershipsOfReference,
  findMetadataOfReference,
  findPagesOfReference,
  findPlansByApi,
  findUsersByIds,
} from '@portico/storage';
import { parsePermission } from '@portico/model';
import type { PermissionService } from '../permissions/permissions.service.js';
import { definitionOf } from './apis.definition.js';
import type { ApiService } from './apis.service.js';
import { maskedSource } from '../pages/pages.mapper.js';
import type { PageSource } from '../pages/pages.schemas.js';

const maskedSourceOrNull = (source: PageSource | null) => source && maskedSource(source);

const UPDATE_MEMBERS = parsePermission('api-member-u');

/**
 * The parts left out of an export: those asked, plus the members for a caller who may not manage
 * them (their usernames are often emails; only holders of api-member-u, administrators included,
 * may see who the members are and how to reach them).
 */
export async function exportExclusions(
  permissions: Pick<PermissionService, 'has'>,
  userId: string,
  apiId: string,
  asked: readonly string[],
): Promise<Set<ApiExportField>> {
  const exclude = new Set(asked.map((f) => f.toLowerCase()) as ApiExportField[]);
  if (!exclude.has('members') && !(await permissions.has(userId, UPDATE_MEMBERS, apiId)))
    exclude.add('members');
  return exclude;
}

/**
 * The export file of an API: the definition the gateway runs plus the API's settings and, unless
 * excluded, its groups (by name), members, pages, plans and metadata. Older target versions drop what
 * they cannot hold (1.20: virtual hosts, response templates; 1.15: endpoint groups become one list of
 * endpoints, path mappings, metadata and the members' sources go).
 */

export interface ExportSource {
  row: ApiRow;
  groups: GroupRow[];
  members: { user: UserRow; role: string }[];
  pages: PageRow[];
  plans: PlanRow[];
  metadata: MetadataRow[];
}

const parse = (json: string | null, fallback: unknown): unknown => {
  if (json === null) return fallback;
  try {
    return JSON.parse(json);
  } catch {
    return fallback;
  }
};

export function toExportedPage(page: PageRow) {
  return {
    id: page.id,
    name: page.name,
    type: page.type,
    content: page.content,
    order: page.order,
    published: page.published === 1,
    homepage: page.homepage === 1,
    parentId: page.parent_id,
    // Secrets of the source (tokens, passwords) as `********`, as Gravitee exports them.
    source: maskedSourceOrNull(parse(page.source, null) as PageSource | null),
    configuration: parse(page.configuration, {}),
    excluded_groups: parse(page.excluded_groups, []),
    metadata: parse(page.metadata, {}),
  };
}

export function toExportedPlan(plan: PlanRow) {
  return {
    id: plan.id,
    name: plan.name,
    description: plan.description,
    validation: plan.validation,
    security: plan.security,
    securityDefinition: plan.security_definition,
    type: plan.type,
    status: plan.status,
    order: plan.order,
    characteristics: parse(plan.characteristics, []),
    paths: parse(plan.paths, {}),
    excluded_groups: parse(plan.excluded_groups, []),
    comment_required: plan.comment_required === 1,
    comment_message: plan.comment_message,
    created_at: plan.created_at,
    updated_at: plan.updated_at,
    published_at: plan.published_at,
    closed_at: plan.closed_at,
  };
}

/** The 1.15 proxy: one list of endpoints (every group's), the first group's load balancing. */
function proxy115(proxy: Proxy) {
  return {
    context_path: proxy.context_path ?? proxy.virtual_hosts?.[0]?.path,
    strip_context_path: proxy.strip_context_path,
    preserve_host: proxy.preserve_host,
    endpoints: proxy.groups.flatMap((g) =>
      g.endpoints.map((e) => ({
        ...e,
        http: e.http ?? g.http,
        ssl: e.ssl ?? g.ssl,
        proxy: e.proxy ?? g.proxy,
      })),
    ),
    load_balancing: proxy.groups[0]?.load_balancing ?? { type: 'ROUND_ROBIN' },
    ...(proxy.failover ? { failover: proxy.failover } : {}),
    ...(proxy.cors ? { cors: proxy.cors } : {}),
  };
}

/** The 1.20 proxy: a context path and endpoint groups, no virtual hosts. */
function proxy120(proxy: Proxy) {
  const { virtual_hosts: _v, ...rest } = proxy;
  return { ...rest, context_path: proxy.context_path ?? proxy.virtual_hosts?.[0]?.path };
}

export function buildExport(
  source: ExportSource,
  version: ApiExportVersion,
  exclude: ReadonlySet<ApiExportField>,
) {
  const { row } = source;
  const definition: ApiDefinition = definitionOf(row);
  const out: Record<string, unknown> = {
    id: row.id,
    name: row.name,
    version: row.version,
    description: row.description,
    visibility: row.visibility,
    ...(version === 'current' ? { lifecycle_state: row.lifecycle_state } : {}),
    labels: parse(row.labels, []),
    views: parse(row.views, []),
    tags: definition.tags,
    picture: row.picture,
    proxy:
      version === 'current'
        ? definition.proxy
        : version === '1.20'
          ? proxy120(definition.proxy)
          : proxy115(definition.proxy),
    paths: definition.paths,
    properties: definition.properties,
    services: definition.services,
    resources: definition.resources,
  };
  if (version !== '1.15') out.path_mappings = definition.path_mappings;
  if (version === 'current') out.response_templates = definition.response_templates;
  if (!exclude.has('groups')) out.groups = source.groups.map((g) => g.name);
  if (!exclude.has('members')) {
    out.members = source.members.map(({ user, role }) =>
      version === '1.15'
        ? { username: user.source_id, role }
        : { source: user.source, sourceId: user.source_id, role },
    );
  }
  if (!exclude.has('pages')) out.pages = source.pages.map(toExportedPage);
  if (!exclude.has('plans')) {
    out.plans = source.plans.map((p) => {
      const plan = toExportedPlan(p);
      if (version !== '1.15') return plan;
      const { comment_required: _r, comment_message: _m, excluded_groups: _g, ...rest } = plan;
      return rest;
    });
  }
  if (!exclude.has('metadata') && version !== '1.15') {
    out.metadata = source.metadata.map((m) => ({
      key: m.key,
      name: m.name,
      format: m.format,
      value: m.value,
    }));
  }
  return out;
}

/** The download name: `<name>-<version>.json`, in characters every file system takes. */
export function exportFileName(name: string, version: string): string {
  const clean = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'api';
  return `${clean(name)}-${clean(version)}.json`;
}

/** Everything an export holds about one API. */
export async function loadExportSource(
  db: Executor,
  apis: Pick<ApiService, 'get'>,
  apiId: string,
): Promise<ExportSource> {
  const row = await apis.get(apiId, db);
  const [groups, memberships, pages, plans, metadata] = await Promise.all([
    findGroupsByIds(db, JSON.parse(row.groups) as string[]),
    findMembershipsOfReference(db, 'API', apiId),
    findPagesOfReference(db, 'API', apiId),
    findPlansByApi(db, apiId),
    findMetadataOfReference(db, 'API', apiId),
  ]);
  const direct = memberships.filter((m) => m.member_type === 'USER' && m.role_scope === 'API');
  const users = new Map(
    (
      await findUsersByIds(
        db,
        direct.map((m) => m.member_id),
      )
    ).map((u) => [u.id, u]),
  );
  return {
    row,
    groups,
    members: direct
      .filter((m) => users.has(m.member_id))
      .map((m) => ({ user: users.get(m.member_id)!, role: m.role_name })),
    pages,
    plans,
    metadata,
  };
}

import { createHash } from 'node:crypto';
import type { ApiDefinition, DeployedApi, DeployedPlan, PlanSecurity, PlanStatus } from '@portico/model';
import { DeployedApi as DeployedApiSchema, Paths, PLAN_SECURITY_TYPES } from '@portico/model';
import type { ApiRow, EventRow, PlanRow, UserRow } from '@portico/storage';
import { displayName } from '../users/users.mapper.js';
import { definitionOf } from './apis.definition.js';

/** The owner of an API on the wire. */
export interface OwnerJson {
  id: string;
  username: string;
  displayName: string;
  email: string | null;
}

export const toOwnerJson = (user: UserRow): OwnerJson => ({
  id: user.id,
  username: user.source_id,
  displayName: displayName(user),
  email: user.email,
});

/** Builds the address of an API's picture (absolute: the web app calls the API from another origin). */
export type PictureUrl = (apiId: string, version: number) => string;

const list = (json: string): string[] => {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as string[]) : [];
  } catch {
    return [];
  }
};

/** An API on the wire (`GET apis/{id}`): the entity and its definition, snake_case; no etag. */
export function toApiJson(row: ApiRow, owner: OwnerJson | null, pictureUrl: PictureUrl) {
  const definition = definitionOf(row);
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    description: row.description,
    context_path: row.context_path,
    proxy: definition.proxy,
    paths: definition.paths,
    properties: definition.properties,
    services: definition.services,
    resources: definition.resources,
    path_mappings: definition.path_mappings,
    response_templates: definition.response_templates,
    tags: list(row.tags),
    labels: list(row.labels),
    views: list(row.views),
    groups: list(row.groups),
    visibility: row.visibility,
    state: row.state,
    lifecycle_state: row.lifecycle_state,
    owner,
    picture_url: pictureUrl(row.id, row.updated_at),
    deployed_at: row.deployed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type ApiJson = ReturnType<typeof toApiJson>;

/**
 * What the portal shows of a PUBLIC API to a visitor who may not read its definition: no backend
 * endpoints, no policies, no properties.
 */
export function toPublicApiJson(row: ApiRow, owner: OwnerJson | null, pictureUrl: PictureUrl) {
  const full = toApiJson(row, owner, pictureUrl);
  const {
    proxy,
    paths: _p,
    properties: _pr,
    services: _s,
    resources: _r,
    response_templates: _t,
    path_mappings: _m,
    ...rest
  } = full;
  return {
    ...rest,
    owner: owner ? { id: owner.id, displayName: owner.displayName } : null,
    proxy: { context_path: proxy.context_path, virtual_hosts: proxy.virtual_hosts },
  };
}

/** The entity tag of an API: changes with any stored column. */
export function apiEtag(row: ApiRow): string {
  return `"${createHash('sha1').update(JSON.stringify(row)).digest('base64url')}"`;
}

/** What an audit entry keeps of an API: the definition as an object, not the picture bytes. */
export function auditedApi(row: ApiRow): Record<string, unknown> {
  const { picture, definition: _definition, ...rest } = row;
  return {
    ...rest,
    labels: list(row.labels),
    views: list(row.views),
    groups: list(row.groups),
    tags: list(row.tags),
    picture: picture ? 'set' : null,
    definition: definitionOf(row),
  };
}

function securityOf(plan: PlanRow): PlanSecurity {
  const value = plan.security.toUpperCase().replace('KEYLESS', 'KEY_LESS').replace('APIKEY', 'API_KEY');
  return ((PLAN_SECURITY_TYPES as readonly string[]).includes(value) ? value : 'KEY_LESS') as PlanSecurity;
}

/** A plan as the gateway enforces it. */
export function toDeployedPlan(plan: PlanRow): DeployedPlan {
  const paths = Paths.safeParse(JSON.parse(plan.paths || '{}'));
  return {
    id: plan.id,
    name: plan.name,
    security: securityOf(plan),
    securityDefinition: plan.security_definition,
    status: plan.status.toUpperCase() as PlanStatus,
    order: plan.order,
    paths: paths.success ? paths.data : {},
    tags: list(plan.tags),
  };
}

/** The payload of a PUBLISH_API event: the API as it is now, with its published and deprecated plans. */
export function toDeployedApi(row: ApiRow, plans: PlanRow[], deployedAt: number): DeployedApi {
  const definition: ApiDefinition = definitionOf(row);
  return DeployedApiSchema.parse({
    id: row.id,
    name: row.name,
    version: row.version,
    description: row.description,
    visibility: row.visibility,
    state: row.state,
    deployed_at: deployedAt,
    definition,
    plans: plans.map(toDeployedPlan),
  });
}

/** JSON with its object keys sorted: two equal values give the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

/**
 * What makes two deployments the same for `is_synchronized`: everything but the instants and the
 * running state (START/STOP apply at once, they need no deployment); plans by id.
 */
export function deploymentFingerprint(api: DeployedApi): string {
  const { deployed_at: _at, state: _state, plans, ...rest } = api;
  return canonicalJson({ ...rest, plans: [...plans].sort((a, b) => a.id.localeCompare(b.id)) });
}

/** An event on the wire: newest first in lists; the payload parsed. */
export function toEventJson(row: EventRow, users: Map<string, UserRow>) {
  const user = row.user_id ? users.get(row.user_id) : undefined;
  let payload: unknown;
  try {
    payload = row.payload === null ? null : JSON.parse(row.payload);
  } catch {
    payload = row.payload;
  }
  return {
    id: row.id,
    type: row.type,
    created_at: row.created_at,
    updated_at: row.updated_at,
    payload,
    properties: JSON.parse(row.properties || '{}') as Record<string, string>,
    user: user ? { id: user.id, username: user.source_id, displayName: displayName(user) } : null,
  };
}

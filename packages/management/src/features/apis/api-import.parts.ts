import { PRIMARY_OWNER, invalidField } from '@portico/model';
import type { Executor, PageRow, UserRow } from '@portico/storage';
import {
  findDefaultRole,
  findMembershipsOfReference,
  findMetadata,
  findPageById,
  findPlanById,
  findRole,
  findUserBySource,
  insertMetadata,
  insertPage,
  insertPlan,
  updateMetadata,
  updatePage,
  updatePlan,
  upsertMembership,
} from '@portico/storage';
import type { AuditService } from '../audit/audit.service.js';
import { newId } from '../../http/ids.js';
import { checkPageContent } from '../pages/pages.content.js';
import { sourceOf, withStoredSecrets } from '../pages/pages.mapper.js';
import type { PageSource } from '../pages/pages.schemas.js';
import { PAGE_TYPES } from '../pages/pages.schemas.js';
import type { NativeApi } from './api-import.native.js';

/** The parts of a native definition besides the API itself: its plans, pages, metadata and members. */

export interface ImportPartsDeps {
  audit: AuditService;
  now: () => number;
}

/**
 * The source of an imported page as stored: a secret exported as `********` keeps the one the page
 * already holds (re-importing an export does not lose the tokens).
 */
function importedSource(source: unknown, existing: PageRow | undefined): string | null {
  if (source === undefined || source === null) return null;
  const given = source as PageSource;
  if (!existing || typeof given !== 'object' || typeof given.type !== 'string' || !given.configuration)
    return JSON.stringify(source);
  return JSON.stringify(withStoredSecrets(given, sourceOf(existing)));
}

/** Ids kept from a file: they appear in URLs as they are. */
export const SAFE_ID = /^[A-Za-z0-9._~-]{1,128}$/;

/** Plans, pages, metadata and members of a file: added, or updated when they already belong here. */
export async function importParts(
  deps: ImportPartsDeps,
  trx: Executor,
  actor: UserRow,
  apiId: string,
  api: NativeApi,
): Promise<void> {
  const now = deps.now();
  // Pages hold what their type allows (the creation wizard's and an import's, as the pages API checks).
  for (const [index, page] of api.pages.entries()) {
    if (!(PAGE_TYPES as readonly string[]).includes(page.type))
      throw invalidField(`pages.${index}.type`, `the page type must be one of ${PAGE_TYPES.join(', ')}`);
    await checkPageContent(page.type, page.content, `pages.${index}.content`);
  }
  if (api.pages.filter((p) => p.type === 'ROOT').length > 1)
    throw invalidField('pages', 'a documentation has one ROOT page at most');
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
      await auditPart(deps, trx, actor, apiId, 'PLAN_UPDATED', { PLAN: existing.id });
    } else {
      const id = plan.id && SAFE_ID.test(plan.id) && !existing ? plan.id : newId();
      await insertPlan(trx, { id, api_id: apiId, ...columns, created_at: now });
      await auditPart(deps, trx, actor, apiId, 'PLAN_CREATED', { PLAN: id });
    }
  }

  // Ids by position: pages without an id (the creation wizard's) each get their own new id.
  const pageIds = new Map<string, string>();
  const idAt: string[] = [];
  for (const page of api.pages) {
    const existing = page.id ? await findPageById(trx, page.id) : undefined;
    const mine = existing && existing.reference_type === 'API' && existing.reference_id === apiId;
    const fresh = page.id && SAFE_ID.test(page.id) && !existing && !idAt.includes(page.id);
    const id = mine && !idAt.includes(existing.id) ? existing.id : fresh ? page.id! : newId();
    idAt.push(id);
    if (page.id) pageIds.set(page.id, id);
  }
  for (const [index, page] of api.pages.entries()) {
    const id = idAt[index]!;
    const columns = {
      name: page.name,
      type: page.type,
      content: page.content ?? null,
      order: page.order,
      published: page.published ? 1 : 0,
      homepage: page.homepage ? 1 : 0,
      parent_id: page.parentId ? (pageIds.get(page.parentId) ?? page.parentId) : null,
      source: importedSource(page.source, await findPageById(trx, id)),
      configuration: JSON.stringify(page.configuration),
      excluded_groups: JSON.stringify(page.excluded_groups),
      metadata: JSON.stringify(page.metadata),
      last_contributor: actor.id,
      updated_at: now,
    };
    if (await findPageById(trx, id)) {
      await updatePage(trx, id, columns);
      await auditPart(deps, trx, actor, apiId, 'PAGE_UPDATED', { PAGE: id });
    } else {
      await insertPage(trx, {
        id,
        reference_type: 'API',
        reference_id: apiId,
        ...columns,
        created_at: now,
      });
      await auditPart(deps, trx, actor, apiId, 'PAGE_CREATED', { PAGE: id });
    }
  }

  for (const m of api.metadata) {
    const ref = { referenceType: 'API', referenceId: apiId, key: m.key };
    const value = m.value ?? null;
    if (await findMetadata(trx, 'API', apiId, m.key)) {
      await updateMetadata(trx, ref, { name: m.name, format: m.format, value, updated_at: now });
      await auditPart(deps, trx, actor, apiId, 'METADATA_UPDATED', { METADATA: m.key });
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
      await auditPart(deps, trx, actor, apiId, 'METADATA_CREATED', { METADATA: m.key });
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
    await deps.audit.record(trx, {
      referenceType: 'API',
      referenceId: apiId,
      userId: actor.id,
      event: existing ? 'MEMBERSHIP_UPDATED' : 'MEMBERSHIP_CREATED',
      properties: { USER: user.id },
      after: { member: user.id, role: roleName },
    });
  }
}

function auditPart(
  deps: ImportPartsDeps,
  trx: Executor,
  actor: UserRow,
  apiId: string,
  event: string,
  properties: Record<string, string>,
) {
  return deps.audit.record(trx, {
    referenceType: 'API',
    referenceId: apiId,
    userId: actor.id,
    event,
    properties,
  });
}

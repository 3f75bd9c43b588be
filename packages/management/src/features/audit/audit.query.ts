import type { Executor, AuditQuery, AuditRow } from '@portico/storage';
import { findApisByIds, findApplicationsByIds, findUsersByIds, searchAudits } from '@portico/storage';
import { displayName } from '../users/users.mapper.js';

export interface AuditSearch {
  page: number;
  size: number;
  event?: string | undefined;
  api?: string | undefined;
  application?: string | undefined;
  /** Only platform-wide entries (not those of an API or application). */
  mgmt?: boolean | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

/** The audit page of the spec: content, metadata, pageNumber, pageElements, totalElements. */
export interface AuditPage {
  content: AuditJson[];
  metadata: Record<string, string>;
  pageNumber: number;
  pageElements: number;
  totalElements: number;
}

export interface AuditJson {
  id: string;
  createdAt: number;
  user: string | null;
  referenceType: string;
  referenceId: string;
  event: string;
  properties: Record<string, string>;
  patch: string | null;
}

function toAuditJson(row: AuditRow): AuditJson {
  return {
    id: row.id,
    createdAt: row.created_at,
    user: row.user_id,
    referenceType: row.reference_type,
    referenceId: row.reference_id,
    event: row.event,
    properties: JSON.parse(row.properties) as Record<string, string>,
    patch: row.patch,
  };
}

/** Searches the audit trail and names the users, APIs and applications it mentions. */
export async function searchAuditPage(db: Executor, search: AuditSearch): Promise<AuditPage> {
  const references: AuditQuery['references'] = [];
  if (search.api) references.push({ type: 'API', ids: [search.api] });
  if (search.application) references.push({ type: 'APPLICATION', ids: [search.application] });
  if (search.mgmt) references.push({ type: 'ENVIRONMENT' });
  const { rows, total } = await searchAudits(db, {
    references: references.length > 0 ? references : undefined,
    event: search.event,
    from: search.from,
    to: search.to,
    offset: (search.page - 1) * search.size,
    limit: search.size,
  });
  const ids = (type: string) => [
    ...new Set(rows.filter((r) => r.reference_type === type).map((r) => r.reference_id)),
  ];
  const [users, apis, applications] = await Promise.all([
    findUsersByIds(db, [...new Set(rows.map((r) => r.user_id).filter((u): u is string => !!u))]),
    findApisByIds(db, ids('API')),
    findApplicationsByIds(db, ids('APPLICATION')),
  ]);
  const metadata: Record<string, string> = {};
  for (const u of users) metadata[`USER:${u.id}:name`] = displayName(u);
  for (const a of apis) metadata[`API:${a.id}:name`] = a.name;
  for (const a of applications) metadata[`APPLICATION:${a.id}:name`] = a.name;
  return {
    content: rows.map(toAuditJson),
    metadata,
    pageNumber: search.page,
    pageElements: rows.length,
    totalElements: total,
  };
}

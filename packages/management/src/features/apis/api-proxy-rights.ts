import type { ApiDefinition, ResponseTemplates } from '@portico/model';
import { forbidden, invalidField, parsePermission } from '@portico/model';
import type { Executor } from '@portico/storage';
import { findAllTags, findMembershipsOfMember } from '@portico/storage';
import type { PermissionService } from '../permissions/permissions.service.js';
import { discoveryChanged } from './api-discovery.js';

/**
 * Rules of the proxy screens that depend on who saves (console-apis.md 2.5 and 6): the sharding tags a
 * user may put on or take off an API, and the response-template rights a change of templates needs;
 * plus the CORS origin format the gateway can apply.
 */

/**
 * The existing sharding tags the user may not use: restricted to groups the user is not in (an
 * administrator may use every tag). A tag that does not exist is not here: the definition's check
 * refuses it as unknown.
 */
export async function forbiddenTags(db: Executor, userId: string, isAdmin: boolean): Promise<Set<string>> {
  if (isAdmin) return new Set();
  const [tags, memberships] = await Promise.all([
    findAllTags(db),
    findMembershipsOfMember(db, 'USER', userId),
  ]);
  const groups = new Set(memberships.filter((m) => m.reference_type === 'GROUP').map((m) => m.reference_id));
  return new Set(
    tags
      .filter((t) => {
        const restricted = JSON.parse(t.restricted_groups) as string[];
        return restricted.length > 0 && !restricted.some((g) => groups.has(g));
      })
      .map((t) => t.id),
  );
}

/** 400 on `tags` when a tag added or removed is one the user may not use (others' tags stay untouched). */
export function assertTagsUsable(
  before: readonly string[],
  after: readonly string[],
  forbidden: Set<string>,
) {
  const changed = [...after.filter((t) => !before.includes(t)), ...before.filter((t) => !after.includes(t))];
  const refused = changed.filter((t) => forbidden.has(t));
  if (refused.length > 0)
    throw invalidField('tags', `the sharding tags [${refused.join(', ')}] are not allowed for you`);
}

/** The rights a change of response templates needs: c for a new key, u for a changed one, d for a removed one. */
export function templateRightsNeeded(
  before: ResponseTemplates,
  after: ResponseTemplates,
): ('c' | 'u' | 'd')[] {
  const needed = new Set<'c' | 'u' | 'd'>();
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[key];
    const now = after[key];
    if (!was) needed.add('c');
    else if (!now) needed.add('d');
    else if (JSON.stringify(sorted(was)) !== JSON.stringify(sorted(now))) needed.add('u');
  }
  return [...needed];
}

const sorted = (byType: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(byType).sort(([a], [b]) => a.localeCompare(b)));

/** An origin as a URL (`scheme://host[:port]`), `*` or `null`: anything else must be a regular expression. */
const ORIGIN = /^((\*)|(null)|(([^:/?#]+):)?(\/\/([^/?#]*))?)$/;
const REGEX_CHARS = ['{', '[', '(', '*'];

/** The allowed-origin entry's problem: neither an origin nor a valid regular expression. */
export function allowOriginProblem(origin: string): string | undefined {
  if (ORIGIN.test(origin)) return undefined;
  if (REGEX_CHARS.some((c) => origin.includes(c))) {
    try {
      new RegExp(origin);
      return undefined;
    } catch {
      return `Allow origin '${origin}' is not a valid regular expression.`;
    }
  }
  return `Allow origin '${origin}' is not allowed.`;
}

const DISCOVERY_C = parsePermission('api-discovery-c');
const TEMPLATES = {
  c: parsePermission('api-response_templates-c'),
  u: parsePermission('api-response_templates-u'),
  d: parsePermission('api-response_templates-d'),
} as const;

/** What the saver of an API may change beyond api-definition-u. */
export interface SaverRights {
  /** api-discovery-c: may change a group's service discovery. */
  discovery: boolean;
  /** The api-response_templates rights held (c, u, d). */
  templates: ReadonlySet<string>;
  /** The existing sharding tags the user may not add or remove; undefined when the tags are not changed. */
  tags: Set<string> | undefined;
}

/** The saver's rights on the API, read before the saving transaction (SQLite has one connection). */
export async function saverRights(
  permissions: PermissionService,
  db: Executor,
  who: { actor: string; api: string; isAdmin: boolean },
  changes: { tags?: string[] | undefined },
): Promise<SaverRights> {
  const holds = async (p: ReturnType<typeof parsePermission>) =>
    who.isAdmin || (await permissions.has(who.actor, p, who.api));
  const templates = new Set<string>();
  for (const right of ['c', 'u', 'd'] as const) if (await holds(TEMPLATES[right])) templates.add(right);
  return {
    discovery: await holds(DISCOVERY_C),
    templates,
    tags: changes.tags ? await forbiddenTags(db, who.actor, who.isAdmin) : undefined,
  };
}

/** 403 naming the permission a change needs and the saver lacks; 400 on tags the saver may not use. */
export function assertSaverRights(rights: SaverRights, current: ApiDefinition, next: ApiDefinition): void {
  if (!rights.discovery && discoveryChanged(current.proxy.groups, next.proxy.groups))
    throw forbidden('api-discovery-c');
  const missing = templateRightsNeeded(current.response_templates, next.response_templates).find(
    (right) => !rights.templates.has(right),
  );
  if (missing) throw forbidden(`api-response_templates-${missing}`);
  if (rights.tags) assertTagsUsable(current.tags, next.tags, rights.tags);
}

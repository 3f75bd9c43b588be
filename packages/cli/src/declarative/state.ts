import type { ManagementClient } from './client.js';
import type { Json } from './files.js';
import { contextPathKey } from './files.js';

/** The platform as `apply` and `dump` see it: every API in the export format, without volatile fields. */

export interface CurrentApi {
  id: string;
  key: string;
  name: string;
  /** The canonical document (what `dump` writes). */
  doc: Json;
  /** The export as the server answered it. */
  exported: Json;
}

/** The order of the top-level fields of a written file. */
const TOP_ORDER = [
  'id',
  'name',
  'version',
  'description',
  'visibility',
  'lifecycle_state',
  'state',
  'labels',
  'views',
  'tags',
  'groups',
  'picture',
  'proxy',
  'paths',
  'properties',
  'services',
  'resources',
  'path_mappings',
  'response_templates',
  'plans',
  'pages',
  'metadata',
];

/** Fields that change without the definition changing: never written, never compared. */
const VOLATILE_PLAN_FIELDS = ['created_at', 'updated_at', 'published_at', 'closed_at'];

const byOrderThenName = (a: Json, b: Json) =>
  Number(a.order ?? 0) - Number(b.order ?? 0) || String(a.name).localeCompare(String(b.name));

/** An export made canonical: members left out, volatile fields dropped, parts sorted, keys in order. */
export function canonicalApi(exported: Json, state: string | undefined): Json {
  const source: Json = { ...exported, ...(state ? { state } : {}) };
  const out: Json = {};
  for (const key of TOP_ORDER) if (source[key] !== undefined) out[key] = source[key];
  if (Array.isArray(out.plans)) {
    out.plans = (out.plans as Json[])
      .map((plan) =>
        Object.fromEntries(Object.entries(plan).filter(([k]) => !VOLATILE_PLAN_FIELDS.includes(k))),
      )
      .sort(byOrderThenName);
  }
  if (Array.isArray(out.pages)) out.pages = [...(out.pages as Json[])].sort(byOrderThenName);
  if (Array.isArray(out.metadata))
    out.metadata = [...(out.metadata as Json[])].sort((a, b) => String(a.key).localeCompare(String(b.key)));
  return out;
}

interface ListedApi {
  id: string;
  name: string;
  state?: string;
  context_path?: string | null;
  proxy?: { context_path?: string; virtual_hosts?: { path?: string }[] };
}

const EXPORTS_AT_ONCE = 8;

async function exportOf(client: ManagementClient, api: ListedApi): Promise<CurrentApi> {
  const exported = await client.get<Json>(`/apis/${encodeURIComponent(api.id)}/export?exclude=members`);
  const doc = canonicalApi(exported, api.state);
  const proxy = (doc.proxy ?? {}) as { context_path?: string; virtual_hosts?: { path?: string }[] };
  return { id: api.id, key: contextPathKey(proxy), name: api.name, doc, exported };
}

/** Every API the caller may see, exported (members excluded: they belong to each installation). */
export async function loadCurrent(client: ManagementClient): Promise<CurrentApi[]> {
  await client.signIn();
  const listed = await client.get<ListedApi[]>('/apis?order=context_path');
  // A few exports at a time: quick on hundreds of APIs, gentle on the server.
  const out: CurrentApi[] = [];
  for (let i = 0; i < listed.length; i += EXPORTS_AT_ONCE) {
    const batch = listed.slice(i, i + EXPORTS_AT_ONCE);
    out.push(...(await Promise.all(batch.map((api) => exportOf(client, api)))));
  }
  return out;
}

import type { ApiFile, Json } from './files.js';
import { FileError } from './files.js';
import type { CurrentApi } from './state.js';

/**
 * What `apply` would change: for each file, the API it matches (by context path), the fields that
 * differ, its plans (by id, else by name), pages (by id, else by type and name) and metadata (by key).
 * A field the file leaves out is not compared (the server keeps or defaults it).
 */

export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
}

export type PartKind = 'plan' | 'page' | 'metadata';

export interface PartChange {
  kind: '+' | '~' | '-';
  part: PartKind;
  label: string;
  /** The current id (plans and pages) or key (metadata) of a changed or removed part. */
  ref?: string;
  /** A removed plan's status (closed before deletion unless CLOSED). */
  status?: string;
  fields: FieldChange[];
}

export interface ApiChange {
  kind: '+' | '~' | '-' | '=';
  key: string;
  name: string;
  file?: string;
  current?: CurrentApi;
  fields: FieldChange[];
  parts: PartChange[];
  state?: { before: string | undefined; after: string };
  /** Plans the file closes: closed through `_close` (their subscriptions end), not by the import. */
  closes?: string[];
  /** The document sent to `apis/import` or `apis/{id}/import`. */
  body?: Json;
}

const ENUM_FIELDS = new Set([
  'visibility',
  'lifecycle_state',
  'security',
  'status',
  'validation',
  'type',
  'format',
]);
const NOT_COMPARED = new Set(['id', 'state', 'plans', 'pages', 'metadata', 'members']);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/** Adds to `out` where `want` (the file) differs from `have` (the platform); absent keys are not compared. */
export function compare(want: unknown, have: unknown, path: string, out: FieldChange[]): void {
  if (isObject(want)) {
    if (have !== undefined && !isObject(have)) out.push({ path, before: have, after: want });
    else for (const [k, v] of Object.entries(want)) compare(v, (have ?? {})[k], join(path, k), out);
    return;
  }
  if (Array.isArray(want)) {
    if (have === undefined && want.length === 0) return;
    if (!Array.isArray(have) || have.length !== want.length) out.push({ path, before: have, after: want });
    else want.forEach((w, i) => compare(w, have[i], join(path, i), out));
    return;
  }
  if (want === have) return;
  if (have === undefined && (want === null || want === false)) return;
  const field = path.slice(path.lastIndexOf('.') + 1);
  if (typeof want === 'string' && typeof have === 'string' && ENUM_FIELDS.has(field))
    if (want.toUpperCase() === have.toUpperCase()) return;
  out.push({ path, before: have, after: want });
}

const pageKey = (p: Json) => `${String(p.type).toUpperCase()} ${String(p.name)}`;

interface PartsResult {
  changes: PartChange[];
  body: Json[];
  ids: Map<string, string>;
}

/** Matches the parts of a file to the current ones, giving the file's parts the current ids. */
function diffParts(
  part: PartKind,
  want: Json[],
  have: Json[],
  keyOf: (p: Json) => string,
  prune: boolean,
  idMap: Map<string, string> = new Map(),
): PartsResult {
  const changes: PartChange[] = [];
  const ids = new Map<string, string>();
  const used = new Set<Json>();
  const idField = part === 'metadata' ? 'key' : 'id';
  const body = want.map((w) => {
    const byId =
      part !== 'metadata' && typeof w.id === 'string' ? have.find((h) => h.id === w.id) : undefined;
    const match = byId ?? have.find((h) => !used.has(h) && keyOf(h) === keyOf(w));
    const label = String(part === 'metadata' ? w.key : w.name);
    const parent = typeof w.parentId === 'string' ? { parentId: idMap.get(w.parentId) ?? w.parentId } : {};
    if (!match) {
      changes.push({ kind: '+', part, label, fields: [] });
      return { ...w, ...parent };
    }
    used.add(match);
    const resolved: Json = { ...w, ...parent, [idField]: match[idField] };
    if (typeof w.id === 'string' && part !== 'metadata') ids.set(w.id, String(match.id));
    const fields: FieldChange[] = [];
    const { [idField]: _id, ...compared } = resolved;
    compare(compared, match, '', fields);
    if (fields.length > 0) changes.push({ kind: '~', part, label, ref: String(match[idField]), fields });
    return resolved;
  });
  if (prune) {
    for (const h of have.filter((h) => !used.has(h)))
      changes.push({
        kind: '-',
        part,
        label: String(part === 'metadata' ? h.key : h.name),
        ref: String(h[idField]),
        status: typeof h.status === 'string' ? h.status : undefined,
        fields: [],
      });
  }
  return { changes, body, ids };
}

/** The change one file asks of the API on its context path (or a new API). */
export function diffApi(file: ApiFile, current: CurrentApi | undefined, prune: boolean): ApiChange {
  const { doc } = file;
  const { state, members, ...rest } = doc;
  const have = current?.doc ?? {};
  const fields: FieldChange[] = [];
  if (current)
    for (const [k, v] of Object.entries(rest)) if (!NOT_COMPARED.has(k)) compare(v, have[k], k, fields);
  // Members are not compared: they go with the definition when it is sent (added, never removed).
  const body: Json = { ...rest, ...(members !== undefined ? { members } : {}) };
  const parts: PartChange[] = [];
  const closes: string[] = [];
  const list = (v: unknown) => (Array.isArray(v) ? (v as Json[]) : []);
  if (Array.isArray(doc.pages)) {
    // Page ids first: a page names its folder by the file's id, which may become the current one.
    const first = diffParts('page', list(doc.pages), list(have.pages), pageKey, prune);
    const pages = diffParts('page', list(doc.pages), list(have.pages), pageKey, prune, first.ids);
    parts.push(...pages.changes);
    body.pages = pages.body;
  }
  if (Array.isArray(doc.plans)) {
    const plans = diffParts('plan', list(doc.plans), list(have.plans), (p) => String(p.name), prune);
    parts.push(...plans.changes);
    // Publication and closing instants are kept as they are (they are not in the files).
    const raw = list(current?.exported.plans);
    const upper = (v: unknown) => String(v).toUpperCase();
    body.plans = plans.body.map((p) => {
      const old = raw.find((r) => r.id === p.id);
      if (!old) return p;
      const kept = { published_at: old.published_at, closed_at: old.closed_at, ...p };
      if (upper(p.status) !== 'CLOSED' || upper(old.status) === 'CLOSED') return kept;
      closes.push(String(old.id));
      return { ...kept, status: old.status };
    });
  }
  if (Array.isArray(doc.metadata)) {
    const metadata = diffParts(
      'metadata',
      list(doc.metadata),
      list(have.metadata),
      (m) => String(m.key),
      prune,
    );
    parts.push(...metadata.changes);
    body.metadata = metadata.body;
  }
  if (current && typeof current.doc.id === 'string') body.id = current.doc.id;
  const before = current ? (have.state as string | undefined) : 'STOPPED';
  const stateChange = typeof state === 'string' && state !== before ? { before, after: state } : undefined;
  const kind = !current ? '+' : fields.length || parts.length || stateChange ? '~' : '=';
  return {
    kind,
    key: file.key,
    name: String(doc.name),
    file: file.file,
    current,
    fields,
    parts,
    ...(stateChange ? { state: stateChange } : {}),
    ...(closes.length > 0 ? { closes } : {}),
    body,
  };
}

/**
 * The API a file describes: the one with the file's `id` when there is one (a context path may then
 * change), else the one on the file's context path. Refused: an id and a context path naming two
 * different APIs, two files naming one API.
 */
function matchFiles(files: ApiFile[], current: CurrentApi[]): (CurrentApi | undefined)[] {
  const taken = new Map<CurrentApi, string>();
  return files.map((f) => {
    const byId = typeof f.doc.id === 'string' ? current.find((c) => c.id === f.doc.id) : undefined;
    const byKey = current.find((c) => c.key === f.key);
    if (byId && byKey && byId !== byKey)
      throw new FileError(
        f.file,
        'proxy.context_path',
        `${f.key} is the context path of another API (${byKey.id})`,
      );
    const match = byId ?? byKey;
    if (match && taken.has(match))
      throw new FileError(f.file, undefined, `describes the same API (${match.id}) as ${taken.get(match)}`);
    if (match) taken.set(match, f.file);
    return match;
  });
}

interface Entrypoint {
  host: string;
  path: string;
}

const entrypointsOf = (doc: Json): Entrypoint[] => {
  const proxy = (doc.proxy ?? {}) as {
    context_path?: string;
    virtual_hosts?: { host?: string; path?: string }[];
  };
  const trim = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);
  return proxy.virtual_hosts?.length
    ? proxy.virtual_hosts.map((v) => ({ host: (v.host ?? '').toLowerCase(), path: trim(v.path ?? '/') }))
    : [{ host: '', path: trim(proxy.context_path ?? '/') }];
};

/** The same host and the same path, a parent or a sub-path (as the server refuses). */
const clash = (a: Entrypoint, b: Entrypoint) => {
  const under = (p: string, parent: string) => p.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
  return a.host === b.host && (a.path === b.path || under(a.path, b.path) || under(b.path, a.path));
};

/**
 * Refuses, before any change, a file whose context path overlaps another file's or an API that stays
 * (the server would refuse it half-way through).
 */
function checkEntrypoints(files: ApiFile[], matches: (CurrentApi | undefined)[], staying: CurrentApi[]) {
  const others = staying.map((c) => ({ what: `API ${c.name} (${c.key})`, entries: entrypointsOf(c.doc) }));
  files.forEach((f, i) => {
    const entries = entrypointsOf(f.doc);
    const against = [
      ...files.slice(0, i).map((g) => ({ what: g.file, entries: entrypointsOf(g.doc) })),
      ...others.filter((_, j) => staying[j] !== matches[i]),
    ];
    for (const other of against)
      if (entries.some((e) => other.entries.some((o) => clash(e, o))))
        throw new FileError(
          f.file,
          'proxy.context_path',
          `${f.key} overlaps the context path of ${other.what}`,
        );
  });
}

/** Every change, removals (with --prune) first so that their context paths are free for new APIs. */
export function diffAll(files: ApiFile[], current: CurrentApi[], prune: boolean): ApiChange[] {
  const matches = matchFiles(files, current);
  const unmatched = current.filter((c) => !matches.includes(c));
  checkEntrypoints(files, matches, prune ? [] : unmatched);
  const removals: ApiChange[] = prune
    ? unmatched.map((c) => ({ kind: '-', key: c.key, name: c.name, current: c, fields: [], parts: [] }))
    : [];
  return [...removals, ...files.map((f, i) => diffApi(f, matches[i], prune))];
}

const show = (v: unknown) => {
  const text = v === undefined ? '(none)' : JSON.stringify(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

/** The diff as printed: one line per API, then its fields, parts and state, then a summary. */
export function formatDiff(changes: ApiChange[]): string {
  const lines: string[] = [];
  for (const c of changes) {
    if (c.kind === '=') continue;
    const verb = c.kind === '+' ? 'create' : c.kind === '-' ? 'delete' : 'update';
    lines.push(`${c.kind} ${verb} API "${c.name}" ${c.key}${c.file ? ` (${c.file})` : ''}`);
    for (const f of c.fields) lines.push(`    ~ ${f.path}: ${show(f.before)} -> ${show(f.after)}`);
    for (const p of c.parts) {
      lines.push(`    ${p.kind} ${p.part} "${p.label}"`);
      for (const f of p.fields) lines.push(`        ~ ${f.path}: ${show(f.before)} -> ${show(f.after)}`);
    }
    if (c.state) lines.push(`    ~ state: ${c.state.before ?? '(none)'} -> ${c.state.after}`);
  }
  const count = (k: ApiChange['kind']) => changes.filter((c) => c.kind === k).length;
  lines.push(
    count('+') + count('~') + count('-') === 0
      ? `No changes (${count('=')} API${count('=') === 1 ? '' : 's'} up to date).`
      : `${count('+')} to create, ${count('~')} to update, ${count('-')} to delete, ${count('=')} unchanged.`,
  );
  return lines.join('\n');
}

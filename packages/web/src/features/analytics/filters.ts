/**
 * Dashboard filters: each one a clause of the `q` Lucene query. Values of one field are OR-ed, fields
 * AND-ed: `(application:a OR application:b) AND status:[500 TO 599]`. The query in the URL is read back
 * into the same filters, so that a shared link shows the same chips.
 */
export interface Filter {
  /** The analytics field, or `_display` for the display mode. */
  field: string;
  /** The key as the widget gave it (an ID, `200`, `[500 TO 599]`, `only`/`without`). */
  value: string;
}

/** Method filter of section 9. */
export const METHODS = [
  'OTHER',
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
];
/** Status classes (status pie buckets 100-199 to 500-599). */
export const STATUS_RANGES = [
  [100, 199],
  [200, 299],
  [300, 399],
  [400, 499],
  [500, 599],
] as const;
/** Response-time buckets of section 9, in ms; `*` is open. */
export const RESPONSE_TIME_RANGES = [
  ['0', '100'],
  ['100', '200'],
  ['200', '300'],
  ['300', '400'],
  ['400', '500'],
  ['500', '*'],
] as const;
/** Display mode: all hits, only those that reached the backend endpoint, or only those that did not. */
export const DISPLAY_MODES = ['all', 'only', 'without'] as const;

const DISPLAY = '_display';
const RESERVED = /[\s+\-!(){}[\]^"~*?:\\/&|]/g;

/** A term with Lucene's special characters escaped. */
export const escapeTerm = (value: string) => value.replace(RESERVED, (c) => `\\${c}`);
const unescapeTerm = (value: string) => value.replace(/\\(.)/g, '$1');

const isRange = (value: string) => /^\[[^\]]* TO [^\]]*\]$/.test(value);

export const rangeValue = (from: string | number, to: string | number) => `[${from} TO ${to}]`;

function clause(f: Filter): string {
  if (f.field === DISPLAY) return f.value === 'only' ? '_exists_:endpoint' : 'NOT _exists_:endpoint';
  return `${f.field}:${isRange(f.value) ? f.value : escapeTerm(f.value)}`;
}

/** The `q` of a list of filters ('' for none). */
export function queryOf(filters: readonly Filter[]): string {
  const byField = new Map<string, string[]>();
  for (const f of filters) byField.set(f.field, [...(byField.get(f.field) ?? []), clause(f)]);
  return [...byField.values()]
    .map((clauses) => (clauses.length > 1 ? `(${clauses.join(' OR ')})` : clauses[0]!))
    .join(' AND ');
}

/** Splits `text` on ` sep ` outside brackets, parentheses and escapes. */
function split(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && text.startsWith(` ${sep} `, i)) {
      parts.push(text.slice(start, i));
      start = i + sep.length + 2;
      i = start - 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

function filterOf(text: string): Filter | undefined {
  if (text === '_exists_:endpoint') return { field: DISPLAY, value: 'only' };
  if (text === 'NOT _exists_:endpoint') return { field: DISPLAY, value: 'without' };
  const colon = text.search(/(?<!\\):/);
  if (colon <= 0) return undefined;
  const field = text.slice(0, colon);
  const value = text.slice(colon + 1);
  return { field, value: isRange(value) ? value : unescapeTerm(value) };
}

/** The filters of a `q` written by `queryOf`; clauses it cannot read are left out. */
export function filtersOf(q: string | null | undefined): Filter[] {
  if (!q || !q.trim()) return [];
  return split(q.trim(), 'AND').flatMap((group) => {
    const inner = group.startsWith('(') && group.endsWith(')') ? group.slice(1, -1) : group;
    return split(inner, 'OR')
      .map(filterOf)
      .filter((f): f is Filter => f !== undefined);
  });
}

export const sameFilter = (a: Filter, b: Filter) => a.field === b.field && a.value === b.value;

/** Adds a filter (once). */
export const withFilter = (filters: readonly Filter[], f: Filter): Filter[] =>
  filters.some((x) => sameFilter(x, f)) ? [...filters] : [...filters, f];

export const withoutFilter = (filters: readonly Filter[], f: Filter): Filter[] =>
  filters.filter((x) => !sameFilter(x, f));

/** Replaces every filter of a field by these values (the filter selects). */
export const withFieldValues = (
  filters: readonly Filter[],
  field: string,
  values: readonly string[],
): Filter[] => [...filters.filter((f) => f.field !== field), ...values.map((value) => ({ field, value }))];

export const DISPLAY_FIELD = DISPLAY;

/**
 * The end time of an API's request logging. The console's "logging end date" condition and the
 * platform's maximum logging duration (`logging.maxDurationMillis`) are both written into the logging
 * condition as `#request.timestamp <= <epoch millis>`, Gravitee's form (its `l` long suffix is read
 * too); gateways read it back to stop logging at that time.
 */

const END_CLAUSE = /^#?request\.timestamp\s*(<=?)\s*(\d+)[lL]?$/;

/** `#request.timestamp <= end`. */
export function loggingEndClause(end: number): string {
  return `#request.timestamp <= ${Math.floor(end)}`;
}

/** Removes parentheses that enclose the whole text: `((a))` -> `a`, `(a) && (b)` unchanged. */
function unwrap(text: string): string {
  let s = text.trim();
  while (s.startsWith('(') && closingOf(s, 0) === s.length - 1) s = s.slice(1, -1).trim();
  return s;
}

/** Index of the parenthesis closing the one at `open` (quotes respected), or -1. */
function closingOf(s: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/**
 * The parts of a condition joined by `&&` at its top level (quotes and parentheses respected), or
 * undefined when its top level also has `||` or `?:` (then it is not a plain conjunction).
 */
function conjuncts(condition: string): string[] | undefined {
  const s = unwrap(condition);
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && (c === '?' || (c === '|' && s[i + 1] === '|'))) return undefined;
    else if (depth === 0 && c === '&' && s[i + 1] === '&') {
      parts.push(s.slice(start, i).trim());
      start = i + 2;
      i++;
    }
  }
  parts.push(s.slice(start).trim());
  return parts.filter((p) => p !== '');
}

/** The end time a conjunct states (`request.timestamp <= N`, or `< N`), if it is one. */
function endOf(part: string): number | undefined {
  const match = END_CLAUSE.exec(unwrap(part));
  if (!match) return undefined;
  const n = Number(match[2]);
  return match[1] === '<' ? n - 1 : n;
}

/**
 * When logging with this condition stops: the earliest `request.timestamp <= N` among the parts of
 * its top-level `&&`; undefined when it states none (or is not a plain conjunction).
 */
export function loggingConditionEnd(condition: string | undefined): number | undefined {
  if (!condition?.trim()) return undefined;
  const ends = (conjuncts(condition) ?? []).map(endOf).filter((n): n is number => n !== undefined);
  return ends.length > 0 ? Math.min(...ends) : undefined;
}

/**
 * Bounds a logging condition to stop at `maxEnd` at the latest: an earlier end it states is kept, a
 * later or missing one becomes `maxEnd`; the end comes first and the rest of the condition follows
 * unchanged (`#request.timestamp <= 1700000000000 && (#context.plan == 'p')`).
 */
export function boundLoggingCondition(condition: string | undefined, maxEnd: number): string {
  const text = condition?.trim() ?? '';
  if (text === '') return loggingEndClause(maxEnd);
  const parts = conjuncts(text);
  if (!parts) return `${loggingEndClause(maxEnd)} && (${text})`;
  const ends = parts.map(endOf);
  const rest = parts.filter((_, i) => ends[i] === undefined);
  const stated = ends.filter((n): n is number => n !== undefined);
  const end = Math.min(maxEnd, ...stated);
  return rest.length === 0
    ? loggingEndClause(end)
    : `${loggingEndClause(end)} && ${rest.map((p) => `(${unwrap(p)})`).join(' && ')}`;
}

import type { RawBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';
import { parse } from 'lucene';
import type { AST, Node, NodeRangedTerm, NodeTerm, Operator } from 'lucene';
import { invalidField } from '@portico/model';
import type { AnalyticsField } from './analytics-fields.js';
import { HTTP_METHOD_CODES, analyticsField } from './analytics-fields.js';

/** The query parameter that carries the filter, named in the 400s. */
const QUERY = 'query';

const refuse = (reason: string) => invalidField(QUERY, reason);

/**
 * Turns the Lucene-syntax filter of an analytics or logs query (`status:[500 TO 599] AND NOT
 * application:abc`, `path:\/pets*`) into a parameterised SQL condition on the `requests` columns:
 * field names through the whitelist, every value a bound parameter. Empty text filters nothing.
 * Throws a 400 naming `query` (and the field, when one is unknown).
 */
export function compileFilter(text: string | undefined): RawBuilder<SqlBool> | undefined {
  if (!text || !text.trim()) return undefined;
  let ast: AST;
  try {
    ast = parse(text);
  } catch (error) {
    throw refuse(`not a valid Lucene query (${(error as Error).message})`);
  }
  return compileAst(ast);
}

function compileAst(ast: AST | Node, inheritedField?: string): RawBuilder<SqlBool> {
  // A group under a field (`status:(200 OR 201)`) gives its field to the terms inside.
  const field =
    'field' in ast && ast.field && ast.field !== '<implicit>' && 'left' in ast ? ast.field : inheritedField;
  if (!('left' in ast)) return compileNode(ast, field);
  let left = compileAst(ast.left, field);
  if ('start' in ast && ast.start === 'NOT') left = sql<SqlBool>`not (${left})`;
  if (!('right' in ast)) return left;
  return combine(left, ast.operator, compileAst(ast.right, field));
}

function combine(
  left: RawBuilder<SqlBool>,
  operator: Operator,
  right: RawBuilder<SqlBool>,
): RawBuilder<SqlBool> {
  switch (operator) {
    case 'AND':
      return sql<SqlBool>`(${left} and ${right})`;
    case 'AND NOT':
      return sql<SqlBool>`(${left} and not (${right}))`;
    case 'OR NOT':
      return sql<SqlBool>`(${left} or not (${right}))`;
    // Lucene's default operator (terms side by side) is OR, as Elasticsearch's query_string.
    default:
      return sql<SqlBool>`(${left} or ${right})`;
  }
}

function fieldOf(node: Node, inheritedField: string | undefined): { name: string; field: AnalyticsField } {
  const name = node.field === '<implicit>' ? inheritedField : node.field;
  if (!name) throw refuse('every term needs a field (field:value)');
  const field = analyticsField(name);
  if (!field) throw refuse(`unknown field '${name}'`);
  return { name, field };
}

function compileNode(node: Node, inheritedField: string | undefined): RawBuilder<SqlBool> {
  // The parser leaves a field's `-` (must not) or `+` (must) prefix in the field name.
  const prefix = /^[-+]/.exec(node.field)?.[0];
  if (prefix) {
    const inner = compileNode({ ...node, field: node.field.slice(1) }, inheritedField);
    return prefix === '-' ? sql<SqlBool>`not (${inner})` : inner;
  }
  if (node.field === '_exists_' && 'term' in node) {
    const { field } = fieldOf({ ...node, field: unescape(node.term) }, undefined);
    return negateIf(node, sql<SqlBool>`${sql.ref(field.column)} is not null`);
  }
  const { name, field } = fieldOf(node, inheritedField);
  if ('term_min' in node) return compileRange(name, field, node);
  return negateIf(node, compileTerm(name, field, node));
}

const negateIf = (node: Node, condition: RawBuilder<SqlBool>) =>
  'prefix' in node && node.prefix === '-' ? sql<SqlBool>`not (${condition})` : condition;

function compileTerm(name: string, field: AnalyticsField, node: NodeTerm): RawBuilder<SqlBool> {
  if (node.regex) throw refuse(`regular expressions are not supported (field '${name}')`);
  const column = sql.ref(field.column);
  if (!node.quoted && node.term === '*') return sql<SqlBool>`${column} is not null`;
  const pattern = node.quoted ? undefined : likePattern(node.term);
  const value = node.quoted ? node.term.replace(/\\(.)/g, '$1') : unescape(node.term);
  if (pattern) {
    if (field.numeric) throw refuse(`field '${name}' is numeric: wildcards do not apply`);
    // Wildcards match without regard to case on both databases.
    return sql<SqlBool>`lower(${column}) like ${pattern.toLowerCase()} escape '\\'`;
  }
  if (field.numeric) return sql<SqlBool>`${column} = ${numberOf(name, value)}`;
  if (name === 'method') return sql<SqlBool>`${column} = ${methodName(value)}`;
  return sql<SqlBool>`${column} = ${value}`;
}

function compileRange(name: string, field: AnalyticsField, node: NodeRangedTerm): RawBuilder<SqlBool> {
  const column = sql.ref(field.column);
  const bound = (text: string) => {
    const value = unescape(text);
    return field.numeric ? numberOf(name, value) : value;
  };
  const parts: RawBuilder<SqlBool>[] = [];
  const minIncluded = node.inclusive === 'both' || node.inclusive === 'left';
  const maxIncluded = node.inclusive === 'both' || node.inclusive === 'right';
  if (node.term_min !== '*') {
    const min = bound(node.term_min);
    parts.push(minIncluded ? sql<SqlBool>`${column} >= ${min}` : sql<SqlBool>`${column} > ${min}`);
  }
  if (node.term_max !== '*') {
    const max = bound(node.term_max);
    parts.push(maxIncluded ? sql<SqlBool>`${column} <= ${max}` : sql<SqlBool>`${column} < ${max}`);
  }
  if (parts.length === 0) return sql<SqlBool>`${column} is not null`;
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/** The term without its escaping backslashes (`\/pets` is `/pets`). */
const unescape = (term: string) => term.replace(/\\(.)/g, '$1');

/**
 * The LIKE pattern of a term with unescaped `*` or `?` wildcards, or undefined when it has none:
 * escaped characters are literal, and LIKE's own `%`, `_` and `\` are escaped.
 */
function likePattern(term: string): string | undefined {
  let pattern = '';
  let wildcard = false;
  for (let i = 0; i < term.length; i++) {
    let c = term[i]!;
    if (c === '\\' && i + 1 < term.length) {
      c = term[++i]!;
    } else if (c === '*' || c === '?') {
      wildcard = true;
      pattern += c === '*' ? '%' : '_';
      continue;
    }
    pattern += c === '%' || c === '_' || c === '\\' ? `\\${c}` : c;
  }
  return wildcard ? pattern : undefined;
}

function numberOf(name: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw refuse(`field '${name}' is numeric: '${value}' is not a number`);
  return n;
}

/** `GET`, `get` or Gravitee's code `3` all mean GET. */
function methodName(value: string): string {
  const code = Number(value);
  if (/^\d+$/.test(value) && code < HTTP_METHOD_CODES.length) return HTTP_METHOD_CODES[code]!;
  return value.toUpperCase();
}

/**
 * The field names a filter reads (`_exists_:x` reads x), or undefined when the text does not parse
 * (the raw query then answers with its 400). Lets the query layer tell whether rollups can answer.
 */
export function filterFields(text: string | undefined): Set<string> | undefined {
  const fields = new Set<string>();
  if (!text || !text.trim()) return fields;
  let ast: AST;
  try {
    ast = parse(text);
  } catch {
    return undefined;
  }
  const visit = (node: AST | Node, inherited?: string): void => {
    if ('left' in node) {
      const field =
        'field' in node && node.field && node.field !== '<implicit>' ? (node.field as string) : inherited;
      visit(node.left, field);
      if ('right' in node && node.right) visit(node.right, field);
      return;
    }
    const name = node.field.replace(/^[-+]/, '');
    if (name === '_exists_' && 'term' in node) fields.add(unescape(node.term));
    else fields.add(name === '<implicit>' ? (inherited ?? name) : name);
  };
  visit(ast);
  return fields;
}

import { importRefused } from './apis.errors.js';

/**
 * Local `$ref` pointers of an OpenAPI document, and how large the document becomes once they are
 * followed: a few kilobytes whose schemas refer to each other eight times over expand to millions
 * of nodes, which the validator and the dereferencer would walk one by one.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Nodes a document may expand to through its references (the validator walks about a million in a second). */
export const MAX_EXPANDED_NODES = 500_000;
/** Nesting of a document, references followed. */
export const MAX_NESTING = 200;

export const SWAGGER_TOO_EXPANDED = (nodes: number) =>
  `The document's references ($ref) expand it to more than the limit of ${nodes} nodes.`;
export const SWAGGER_TOO_DEEP = (levels: number) =>
  `The document is nested deeper than the limit of ${levels} levels.`;

/** The value a local pointer (`#/components/schemas/Pet`) names in the document, if any. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === '') return root;
  if (!fragment.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of fragment.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/**
 * Refuses a document that, its local references followed, holds more than `maxNodes` nodes or is
 * nested deeper than `maxNesting`. Each reference is measured once (a cycle counts as one node, as
 * the dereferencer leaves it as a reference), so this takes time in the size of the text.
 */
export function checkExpansion(root: Json, maxNodes = MAX_EXPANDED_NODES, maxNesting = MAX_NESTING): void {
  const measured = new Map<unknown, number>();
  const byRef = new Map<string, number>();
  const following = new Set<string>();

  const size = (node: unknown, depth: number): number => {
    if (typeof node !== 'object' || node === null) return 1;
    if (depth > maxNesting) throw importRefused(SWAGGER_TOO_DEEP(maxNesting));
    const known = measured.get(node);
    if (known !== undefined) return known;
    let total = 1;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string') {
      const seen = byRef.get(ref);
      if (seen !== undefined) return seen;
      if (following.has(ref)) return 1;
      const target = resolvePointer(root, ref);
      if (target === undefined) return 1;
      following.add(ref);
      total += size(target, depth + 1);
      following.delete(ref);
      byRef.set(ref, total);
      return total;
    }
    for (const value of Array.isArray(node) ? node : Object.values(node)) {
      total += size(value, depth + 1);
      if (total > maxNodes) break;
    }
    measured.set(node, total);
    return total;
  };

  if (size(root, 0) > maxNodes) throw importRefused(SWAGGER_TOO_EXPANDED(maxNodes));
}

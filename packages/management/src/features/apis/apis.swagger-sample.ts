import { resolvePointer } from './apis.swagger-refs.js';

/**
 * Sample values built from JSON schemas, for the mock policies of an import. Bounded whatever the
 * schema: a reference cycle stops where it closes, nesting stops at `maxDepth`, an array gets one
 * item, and building stops once the sample has reached `maxBytes` of JSON.
 */

type Json = Record<string, unknown>;

export interface SampleLimits {
  /** Levels of objects and arrays below the top. */
  maxDepth: number;
  /** Characters of JSON a sample may take; past them no property is added. */
  maxBytes: number;
}

export const SAMPLE_LIMITS: SampleLimits = { maxDepth: 8, maxBytes: 16 * 1024 };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Returned once the budget is spent: the caller stops adding to its object or array. */
const SPENT = Symbol('spent');

function stringSample(format: unknown): string {
  switch (format) {
    case 'date-time':
      return '2026-01-01T00:00:00Z';
    case 'date':
      return '2026-01-01';
    case 'email':
      return 'user@example.com';
    case 'uuid':
      return '3fa85f64-5717-4562-b3fc-2c963f66afa6';
    case 'uri':
    case 'url':
      return 'https://example.com';
    default:
      return 'string';
  }
}

/**
 * A sample value of a JSON schema: its example, default or first enum value, else built from its
 * type. `root` is the document that local `$ref`s point into (references left by the dereferencer
 * in cycles, or a document that was never dereferenced).
 */
export function sampleOf(
  schema: unknown,
  root: unknown = schema,
  limits: SampleLimits = SAMPLE_LIMITS,
): unknown {
  let left = limits.maxBytes;
  /** The schemas being expanded, to stop a cycle where it closes. */
  const open = new Set<Json>();

  const spend = (value: unknown): boolean => {
    const cost = JSON.stringify(value)?.length ?? 4;
    if (cost > left) {
      left = 0;
      return false;
    }
    left -= cost;
    return true;
  };
  const literal = (value: unknown) => (spend(value) ? value : SPENT);

  const build = (node: unknown, depth: number): unknown => {
    if (left <= 0) return SPENT;
    let s = node;
    for (let hops = 0; isObject(s) && typeof s.$ref === 'string'; hops++) {
      if (hops > 32) return literal(null);
      s = resolvePointer(root, s.$ref);
    }
    if (!isObject(s) || depth > limits.maxDepth || open.has(s)) return literal(null);
    if (s.example !== undefined) return literal(s.example);
    if (Array.isArray(s.examples) && s.examples.length > 0) return literal(s.examples[0]);
    if (s.default !== undefined) return literal(s.default);
    if (Array.isArray(s.enum) && s.enum.length > 0) return literal(s.enum[0]);
    open.add(s);
    try {
      return fromType(s, depth);
    } finally {
      open.delete(s);
    }
  };

  const object = (entries: [string, unknown][], depth: number): Json => {
    const out: Json = {};
    left -= 2;
    for (const [key, value] of entries) {
      if (left <= key.length + 4) break;
      left -= key.length + 4;
      const sample = build(value, depth + 1);
      if (sample === SPENT) break;
      out[key] = sample;
    }
    return out;
  };

  const fromType = (s: Json, depth: number): unknown => {
    if (Array.isArray(s.allOf)) {
      const merged: Json = {};
      for (const part of s.allOf) {
        const sample = build(part, depth + 1);
        if (sample === SPENT) break;
        if (isObject(sample)) Object.assign(merged, sample);
      }
      return merged;
    }
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = s[key];
      if (Array.isArray(options) && options.length > 0) return build(options[0], depth);
    }
    const type = Array.isArray(s.type) ? (s.type as unknown[]).find((t) => t !== 'null') : s.type;
    if (type === 'object' || (type === undefined && isObject(s.properties))) {
      return object(Object.entries(isObject(s.properties) ? s.properties : {}), depth);
    }
    if (type === 'array') {
      left -= 2;
      const item = build(s.items, depth + 1);
      return item === SPENT ? [] : [item];
    }
    if (type === 'integer' || type === 'number') return literal(0);
    if (type === 'boolean') return literal(true);
    if (type === 'string') return literal(stringSample(s.format));
    return literal(null);
  };

  const sample = build(schema, 0);
  return sample === SPENT ? null : sample;
}

import { Environment } from '@marcbachmann/cel-js';

/**
 * Conditions of an identity provider's group and role mappings are Common Expression Language over the
 * user's claims (the provider's user info) as `profile`: `profile.email.endsWith('@example.com')`,
 * `'admins' in profile.groups`. The Gravitee form `{#jsonPath(#profile, '$.email') == 'x'}` is accepted
 * too (braces and `#` dropped; `jsonPath` reads a path of the profile). Never `eval`.
 */
export type ProfileCondition = (profile: Record<string, unknown>) => boolean;

/** JSON numbers as CEL sees them: integers are CEL ints (BigInt), others doubles. */
function toCel(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toCel(v)]));
  return value;
}

/** `$.a.b[0].c` or `a.b` in a profile (an object, or its JSON text); undefined when absent. */
export function readPath(source: unknown, path: string): unknown {
  let value: unknown = source;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const steps = path
    .trim()
    .replace(/^\$\.?/, '')
    .split(/\.|\[(\d+)\]/)
    .filter((s) => s !== undefined && s !== '');
  for (const step of steps) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[step.replace(/^['"]|['"]$/g, '')];
  }
  return value;
}

const environment = new Environment({ unlistedVariablesAreDyn: true }).registerFunction(
  'jsonPath(dyn, string): dyn',
  (source: unknown, path: string) => {
    const value = readPath(source, path);
    return value === undefined ? null : toCel(value);
  },
);

/** `{#a == b}` -> `a == b`. */
const celSource = (expression: string) =>
  expression
    .trim()
    .replace(/^\{([\s\S]*)\}$/, '$1')
    .replace(/#(?=[a-zA-Z_])/g, '')
    .trim();

export function compileProfileCondition(expression: string): ProfileCondition {
  const evaluate = environment.parse(celSource(expression));
  return (profile) => {
    try {
      return evaluate({ profile: toCel(profile) }) === true;
    } catch {
      return false;
    }
  };
}

/** The parser's message when the condition is not a valid expression. */
export function conditionIssue(expression: string): string | undefined {
  try {
    compileProfileCondition(expression);
    return undefined;
  } catch (error) {
    return `not a valid expression: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * A profile field read through the provider's user profile mapping: a claim name (`given_name`), a
 * path (`$.name.first`), or an expression in braces (`{profile.first + ' ' + profile.last}`).
 */
export function mappedClaim(profile: Record<string, unknown>, mapping: string | null | undefined) {
  if (!mapping || mapping.trim() === '') return null;
  let value: unknown;
  if (mapping.trim().startsWith('{')) {
    try {
      value = environment.parse(celSource(mapping))({ profile: toCel(profile) });
    } catch {
      value = undefined;
    }
  } else {
    value = mapping.includes('.') || mapping.startsWith('$') ? readPath(profile, mapping) : profile[mapping];
  }
  return value === undefined || value === null || value === '' ? null : String(value);
}

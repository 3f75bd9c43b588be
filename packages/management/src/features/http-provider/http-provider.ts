import jsonata from 'jsonata';
import type { OutboundPolicy } from '@portico/outbound';
import { OutboundError, outboundFetch } from '@portico/outbound';

/**
 * The HTTP provider shared by dynamic dictionaries and APIs' dynamic properties: its URL read through
 * the outbound-URL guard, its JSON answer turned into properties by a JSONata specification.
 */
export interface HttpProvider {
  configuration: { url: string; specification: string };
}

/** Bounds of one poll of a provider. */
export const PROVIDER_LIMITS = {
  timeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  /** A transformation running longer (or nesting deeper) is stopped: the admin wrote a loop. */
  transformMs: 1000,
  transformDepth: 500,
  maxProperties: 10_000,
} as const;

/** Why a poll gave nothing: logged, and the dictionary (or API) keeps its properties. */
export class ProviderError extends Error {}

/** Parses a transformation specification; throws with JSONata's message when it does not parse. */
export function compileSpecification(specification: string): jsonata.Expression {
  return jsonata(specification);
}

/** Stops an evaluation past the time or depth limit (JSONata's documented entry and exit hooks). */
function timebox(expression: jsonata.Expression): void {
  const started = Date.now();
  let depth = 0;
  const check = () => {
    if (depth > PROVIDER_LIMITS.transformDepth)
      throw new ProviderError(`transformation nests deeper than ${PROVIDER_LIMITS.transformDepth}`);
    if (Date.now() - started > PROVIDER_LIMITS.transformMs)
      throw new ProviderError(`transformation ran longer than ${PROVIDER_LIMITS.transformMs} ms`);
  };
  const hooks = expression as unknown as { assign(name: symbol, value: unknown): void };
  hooks.assign(
    Symbol.for('jsonata.__evaluate_entry'),
    (_e: unknown, _i: unknown, env: { isParallelCall?: boolean }) => {
      if (env.isParallelCall) return;
      depth++;
      check();
    },
  );
  hooks.assign(
    Symbol.for('jsonata.__evaluate_exit'),
    (_e: unknown, _i: unknown, env: { isParallelCall?: boolean }) => {
      if (env.isParallelCall) return;
      depth--;
      check();
    },
  );
}

/** `{key, value}` (nothing else): one property, as providers' transformations give them. */
const isEntry = (v: unknown): v is { key: unknown; value?: unknown } =>
  !!v &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  'key' in v &&
  Object.keys(v).every((k) => k === 'key' || k === 'value');

const asText = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/**
 * The transformation's result as properties: an array of `{key, value}` (the form Gravitee's
 * providers gave; a single `{key, value}` counts as one) or an object of key -> value. Other values
 * are strings of their JSON.
 */
export function toProperties(result: unknown): Record<string, string> {
  const entries: [string, string][] = [];
  // JSONata gives a sequence of one item as the item itself: `{key, value}` alone is one property.
  const items = isEntry(result) ? [result] : result;
  if (Array.isArray(items)) {
    for (const item of items as unknown[]) {
      if (!item || typeof item !== 'object' || !('key' in item))
        throw new ProviderError('the transformation must give [{"key": ..., "value": ...}] or an object');
      const { key, value } = item as { key: unknown; value: unknown };
      if (typeof key !== 'string')
        throw new ProviderError('the transformation gave a property name that is not a string');
      entries.push([key, asText(value)]);
    }
  } else if (result && typeof result === 'object') {
    for (const [key, value] of Object.entries(result)) entries.push([key, asText(value)]);
  } else if (result !== undefined) {
    throw new ProviderError('the transformation must give [{"key": ..., "value": ...}] or an object');
  }
  if (entries.length > PROVIDER_LIMITS.maxProperties)
    throw new ProviderError(`the transformation gave more than ${PROVIDER_LIMITS.maxProperties} properties`);
  return Object.fromEntries(entries.filter(([key]) => key !== ''));
}

/**
 * Reads the provider's URL through the outbound-URL guard and turns the JSON answer into properties
 * with the JSONata specification. Throws on any failure (refused address, error status, bad JSON,
 * failing transformation).
 */
export async function fetchProviderProperties(
  provider: HttpProvider,
  policy: OutboundPolicy,
): Promise<Record<string, string>> {
  const response = await outboundFetch(provider.configuration.url, {
    policy,
    timeoutMs: PROVIDER_LIMITS.timeoutMs,
    maxBytes: PROVIDER_LIMITS.maxBytes,
    accept: 'application/json',
  });
  if (response.status < 200 || response.status > 299)
    throw new ProviderError(`the provider answered with status ${response.status}`);
  let document: unknown;
  try {
    document = JSON.parse(response.text());
  } catch {
    throw new ProviderError('the provider did not answer JSON');
  }
  return transformDocument(provider.configuration.specification, document);
}

/** Applies the specification to the provider's document, within the time and depth limits. */
export async function transformDocument(
  specification: string,
  document: unknown,
): Promise<Record<string, string>> {
  const expression = compileSpecification(specification);
  timebox(expression);
  return toProperties(await expression.evaluate(document));
}

/** What the log says of a failed poll: the guard's refusal, or the reason. */
export function providerFailure(error: unknown): Record<string, unknown> {
  return error instanceof OutboundError
    ? { failure: error.failure, detail: error.detail }
    : { reason: error instanceof Error ? error.message : String(error) };
}

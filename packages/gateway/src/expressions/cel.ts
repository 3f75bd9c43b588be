import { Environment } from '@marcbachmann/cel-js';

/**
 * Conditions (logging conditions, health-check assertions) are Common Expression Language:
 * `request.headers['x-tenant'] == 'a' && request.method == 'GET'`, `response.status == 200`,
 * `jsonPath(response.content, '$.status') == 'UP'`. The Gravitee-style `#` before names
 * (`#response.status == 200`, `#jsonPath(#response.content, '$.status')`) is accepted. Never `eval`.
 */
export type Condition = (variables: Record<string, unknown>) => boolean;

/** `$.a.b[0].c` on a JSON text; undefined (null in CEL) when the path or the JSON is not there. */
function jsonPath(text: string, path: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const steps = path
    .replace(/^\$/, '')
    .split(/\.|\[(\d+)\]/)
    .filter((s) => s !== undefined && s !== '');
  for (const step of steps) {
    if (value === null || typeof value !== 'object') return null;
    value = (value as Record<string, unknown>)[step];
  }
  return value === undefined
    ? null
    : typeof value === 'number' && Number.isInteger(value)
      ? BigInt(value)
      : value;
}

const environment = new Environment({ unlistedVariablesAreDyn: true }).registerFunction(
  'jsonPath(string, string): dyn',
  jsonPath,
);

/**
 * Gravitee's conditions write long integers with an `l` suffix (`#request.timestamp <= 1700000000000l`),
 * which CEL does not know: drop it from number literals outside quotes.
 */
function withoutLongSuffixes(source: string): string {
  return source
    .split(/('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/(?<![\w.])(\d+)[lL](?!\w)/g, '$1')))
    .join('');
}

export function compileCondition(expression: string): Condition {
  const source = withoutLongSuffixes(expression.trim().replace(/#(?=[a-zA-Z_])/g, ''));
  const evaluate = environment.parse(source);
  return (variables) => {
    try {
      return evaluate(variables) === true;
    } catch {
      return false;
    }
  };
}

/** Checks that an expression parses; returns the parser's message when it does not. */
export function conditionError(expression: string): string | undefined {
  try {
    compileCondition(expression);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The part of JSON Schema (draft 2020-12, as zod's `toJSONSchema` writes it) that configuration forms use:
 * objects, strings, numbers and integers with bounds, booleans, enums, arrays of strings, of enums and of
 * objects, defaults, required properties and descriptions.
 */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

export type SchemaKind =
  'object' | 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'array' | 'unknown';

export type JsonObject = Record<string, unknown>;

/** A problem of a value: where (`rate.limit`, `whitelist.0.pattern`), what (a message key) and its bounds. */
export interface SchemaIssue {
  path: string;
  message: SchemaMessage;
  values?: Record<string, number>;
}

export type SchemaMessage =
  | 'required'
  | 'type'
  | 'min'
  | 'max'
  | 'minLength'
  | 'maxLength'
  | 'minItems'
  | 'maxItems'
  | 'enum'
  | 'pattern';

/** The schema itself, with `anyOf: [X, {type: 'null'}]` (a nullable X) and type lists reduced to X. */
export function resolve(schema: JsonSchema): JsonSchema {
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) {
    const concrete = choices.filter((choice) => choice.type !== 'null');
    if (concrete.length === 1)
      return resolve({
        ...concrete[0],
        description: schema.description ?? concrete[0]!.description,
        default: schema.default ?? concrete[0]!.default,
      });
  }
  if (Array.isArray(schema.type)) {
    const type = schema.type.find((t) => t !== 'null');
    return type ? { ...schema, type } : schema;
  }
  return schema;
}

export function kindOf(raw: JsonSchema): SchemaKind {
  const schema = resolve(raw);
  if (schema.enum) return 'enum';
  switch (schema.type) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'array';
    default:
      return schema.properties ? 'object' : 'unknown';
  }
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The value a new form starts with: each default, objects filled in property by property, arrays empty;
 * properties without a default stay absent.
 */
export function defaultValue(raw: JsonSchema): unknown {
  const schema = resolve(raw);
  if (schema.default !== undefined) {
    return kindOf(schema) === 'object' && isObject(schema.default)
      ? { ...(defaultValue({ ...schema, default: undefined }) as JsonObject), ...schema.default }
      : structuredClone(schema.default);
  }
  const kind = kindOf(schema);
  if (kind === 'object') {
    const out: JsonObject = {};
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const value = defaultValue(property);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }
  if (kind === 'array') return [];
  return undefined;
}

/** A value completed with the defaults of what it lacks (a configuration saved before a field existed). */
export function withDefaults(raw: JsonSchema, value: unknown): unknown {
  const schema = resolve(raw);
  if (kindOf(schema) !== 'object') return value === undefined ? defaultValue(schema) : value;
  const base = isObject(value) ? value : {};
  const out: JsonObject = { ...base };
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const completed = withDefaults(property, base[name]);
    if (completed !== undefined) out[name] = completed;
  }
  return out;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** Checks a value against the schema: every problem, with the path of the field it belongs to. */
export function validate(raw: JsonSchema, value: unknown, path = ''): SchemaIssue[] {
  const schema = resolve(raw);
  const at = (name: string | number) => (path ? `${path}.${name}` : String(name));
  const issue = (message: SchemaMessage, values?: Record<string, number>): SchemaIssue[] => [
    { path, message, ...(values ? { values } : {}) },
  ];
  if (isEmpty(value)) return [];
  switch (kindOf(schema)) {
    case 'object': {
      if (!isObject(value)) return issue('type');
      const issues: SchemaIssue[] = [];
      for (const name of schema.required ?? []) {
        const property = schema.properties?.[name];
        const missing = isEmpty(value[name]);
        // A required object without a value is checked through its own required properties.
        if (missing && property && kindOf(property) === 'object')
          issues.push(...validate(property, {}, at(name)));
        else if (missing) issues.push({ path: at(name), message: 'required' });
      }
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        issues.push(...validate(property, value[name], at(name)));
      }
      return issues;
    }
    case 'enum':
      return schema.enum!.includes(value) ? [] : issue('enum');
    case 'string': {
      if (typeof value !== 'string') return issue('type');
      if (schema.minLength !== undefined && value.length < schema.minLength)
        return issue(schema.minLength === 1 ? 'required' : 'minLength', { min: schema.minLength });
      if (schema.maxLength !== undefined && value.length > schema.maxLength)
        return issue('maxLength', { max: schema.maxLength });
      if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value))
        return issue('pattern');
      return [];
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || Number.isNaN(value)) return issue('type');
      if (kindOf(schema) === 'integer' && !Number.isInteger(value)) return issue('type');
      const min = schema.minimum ?? schema.exclusiveMinimum;
      const max = schema.maximum ?? schema.exclusiveMaximum;
      if (min !== undefined && (value < min || (schema.exclusiveMinimum !== undefined && value === min)))
        return issue('min', { min });
      if (max !== undefined && (value > max || (schema.exclusiveMaximum !== undefined && value === max)))
        return issue('max', { max });
      return [];
    }
    case 'boolean':
      return typeof value === 'boolean' ? [] : issue('type');
    case 'array': {
      if (!Array.isArray(value)) return issue('type');
      if (schema.minItems !== undefined && value.length < schema.minItems)
        return issue('minItems', { min: schema.minItems });
      if (schema.maxItems !== undefined && value.length > schema.maxItems)
        return issue('maxItems', { max: schema.maxItems });
      return schema.items ? value.flatMap((item, index) => validate(schema.items!, item, at(index))) : [];
    }
    default:
      return [];
  }
}

/** Whether a value satisfies the schema (required top-level properties included). */
export const isValid = (schema: JsonSchema, value: unknown) => validate(schema, value ?? {}).length === 0;

/** `periodTimeUnit` → `Period time unit`; `useXForwardedFor` → `Use X forwarded for`. */
export function humanize(name: string): string {
  const words = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .trim()
    .split(/\s+/)
    // Acronyms (URL, X) keep their capitals; other words are written in lower case.
    .map((word) => (word === word.toUpperCase() ? word : word.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The value with `next` at `path` (copies along the way; `undefined` removes the property). */
export function setAt(value: unknown, path: readonly (string | number)[], next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(value) ? [...(value as unknown[])] : [];
    list[head] = setAt(list[head], rest, next);
    return list;
  }
  const object: JsonObject = isObject(value) ? { ...value } : {};
  const child = setAt(object[head!], rest, next);
  if (child === undefined) delete object[head!];
  else object[head!] = child;
  return object;
}

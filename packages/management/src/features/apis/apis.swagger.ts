import SwaggerParser from '@apidevtools/swagger-parser';
import type { Paths, PolicyStep } from '@portico/model';
import { IMPORT_INVALID_FILE } from '@portico/model';
import { importRefused } from './apis.errors.js';

/**
 * Swagger 2.0 and OpenAPI 3.0/3.1 to an API: name, version, description, context path and endpoint,
 * path mappings, policy paths (with a mock per operation when asked). External references are never
 * resolved: an uploaded document must not make the server read files or call addresses.
 */

export interface SwaggerOptions {
  withPathMapping: boolean;
  withPolicyPaths: boolean;
  withPolicyMocks: boolean;
}

export interface SwaggerApi {
  title: string;
  name: string;
  version: string;
  description: string;
  contextPath: string;
  endpoint: string;
  pathMappings: string[];
  paths: Paths;
}

type Json = Record<string, unknown>;

const OPERATIONS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Whether a parsed document is Swagger or OpenAPI (Swagger 1.x declares `swaggerVersion`). */
export function isSwaggerDocument(doc: Json): boolean {
  return 'swagger' in doc || 'openapi' in doc || 'swaggerVersion' in doc;
}

/** A context path made from free text: `/` and words of letters, digits, dots, dashes, underscores. */
function contextPathFrom(text: string): string {
  const segments = text
    .split('/')
    .map((s) =>
      s
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, '-')
        .replace(/^-+|-+$/g, ''),
    )
    .filter(Boolean);
  const path = `/${segments.join('/')}`;
  return path.length >= 3 ? path : `/api${path === '/' ? '' : path.replace('/', '-')}`;
}

/** `/pets/{petId}` -> `/pets/:petId`. */
export const toPathMapping = (path: string) => path.replace(/\{([^}/]+)\}/g, ':$1');

/** A sample value of a JSON schema: its example, default or first enum value, else built from its type. */
export function sampleOf(schema: unknown, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 6) return null;
  const s = schema as Json;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (Array.isArray(s.allOf)) {
    return Object.assign(
      {},
      ...s.allOf.map((part) => sampleOf(part, depth + 1)).filter((v) => v && typeof v === 'object'),
    );
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[key]) && s[key].length > 0) return sampleOf(s[key][0], depth + 1);
  }
  const type = Array.isArray(s.type)
    ? (s.type as string[]).find((t) => t !== 'null')
    : (s.type as string | undefined);
  if (type === 'object' || (type === undefined && s.properties)) {
    const properties = (s.properties ?? {}) as Json;
    return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, sampleOf(v, depth + 1)]));
  }
  if (type === 'array') return [sampleOf(s.items, depth + 1)];
  if (type === 'integer' || type === 'number') return 0;
  if (type === 'boolean') return true;
  if (type === 'string') {
    switch (s.format) {
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
  return null;
}

/** The status and example body of an operation's first success answer. */
function exampleResponse(operation: Json, openapi3: boolean): { status: number; body: unknown } {
  const responses = (operation.responses ?? {}) as Json;
  const code =
    Object.keys(responses)
      .filter((c) => /^2\d\d$/.test(c))
      .sort()[0] ?? ('default' in responses ? 'default' : undefined);
  const status = code && code !== 'default' ? Number(code) : 200;
  const response = (code ? responses[code] : undefined) as Json | undefined;
  if (!response) return { status, body: undefined };
  if (!openapi3) {
    const examples = response.examples as Json | undefined;
    if (examples?.['application/json'] !== undefined) return { status, body: examples['application/json'] };
    return { status, body: response.schema ? sampleOf(response.schema) : undefined };
  }
  const content = (response.content ?? {}) as Record<string, Json>;
  const media = content['application/json'] ?? Object.values(content)[0];
  if (!media) return { status, body: undefined };
  if (media.example !== undefined) return { status, body: media.example };
  const examples = media.examples as Record<string, Json> | undefined;
  const first = examples ? Object.values(examples)[0] : undefined;
  if (first?.value !== undefined) return { status, body: first.value };
  return { status, body: media.schema ? sampleOf(media.schema) : undefined };
}

/** The mock policy step of one operation: it answers the example without calling the backend. */
function mockStep(method: string, path: string, operation: Json, openapi3: boolean): PolicyStep {
  const { status, body } = exampleResponse(operation, openapi3);
  const content = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body, null, 2);
  return {
    methods: [method.toUpperCase() as NonNullable<PolicyStep['methods']>[number]],
    enabled: true,
    description: `Mock of ${(operation.operationId as string | undefined) ?? `${method.toUpperCase()} ${path}`}`,
    mock: {
      status: Number(status),
      headers: content ? [{ name: 'Content-Type', value: 'application/json' }] : [],
      content,
    },
  };
}

function serverOf(doc: Json): { endpoint: string | undefined; path: string | undefined } {
  if ('swagger' in doc) {
    const basePath = typeof doc.basePath === 'string' ? doc.basePath : undefined;
    const host = typeof doc.host === 'string' ? doc.host : undefined;
    const scheme = Array.isArray(doc.schemes) && doc.schemes.length > 0 ? String(doc.schemes[0]) : 'https';
    return {
      endpoint: host ? `${scheme}://${host}${basePath && basePath !== '/' ? basePath : ''}` : undefined,
      path: basePath && basePath !== '/' ? basePath : undefined,
    };
  }
  const server = (Array.isArray(doc.servers) ? doc.servers[0] : undefined) as Json | undefined;
  if (!server || typeof server.url !== 'string') return { endpoint: undefined, path: undefined };
  const variables = (server.variables ?? {}) as Record<string, Json>;
  const url = server.url.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    String(variables[name]?.default ?? ''),
  );
  if (/^https?:\/\//.test(url)) {
    const parsed = new URL(url);
    const path = parsed.pathname.replace(/\/+$/, '');
    return { endpoint: url.replace(/\/+$/, ''), path: path && path !== '/' ? path : undefined };
  }
  const path = url.replace(/\/+$/, '');
  return { endpoint: undefined, path: path.startsWith('/') && path.length > 1 ? path : undefined };
}

/** Endpoint of a document that names no server: the gateway's own host, to be changed afterwards. */
export const FALLBACK_ENDPOINT = 'http://localhost';

/** Validates the document (no external reference resolved) and reads the API out of it. */
export async function readSwagger(doc: Json, options: SwaggerOptions): Promise<SwaggerApi> {
  if ('swaggerVersion' in doc && !('swagger' in doc) && !('openapi' in doc)) {
    throw importRefused(`${IMPORT_INVALID_FILE} Swagger 1.x is not supported.`);
  }
  let api: Json;
  try {
    api = (await SwaggerParser.validate(structuredClone(doc) as never, {
      resolve: { external: false, file: false, http: false },
      dereference: { circular: 'ignore' },
      timeoutMs: 10_000,
    })) as unknown as Json;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : '';
    throw importRefused(`${IMPORT_INVALID_FILE} ${reason}`.trim());
  }
  const openapi3 = 'openapi' in api;
  const info = (api.info ?? {}) as Json;
  const title = String(info.title ?? '').trim() || 'api';
  const server = serverOf(api);
  const contextPath = contextPathFrom(server.path ?? title);
  const pathMappings: string[] = [];
  const paths: Paths = { '/': [] };
  for (const [path, item] of Object.entries((api.paths ?? {}) as Record<string, Json>)) {
    const mapping = toPathMapping(path);
    if (options.withPathMapping && !pathMappings.includes(mapping)) pathMappings.push(mapping);
    if (!options.withPolicyPaths) continue;
    const steps: PolicyStep[] = paths[mapping] ?? [];
    if (options.withPolicyMocks) {
      for (const method of OPERATIONS) {
        const operation = item?.[method] as Json | undefined;
        if (operation) steps.push(mockStep(method, path, operation, openapi3));
      }
    }
    paths[mapping] = steps;
  }
  return {
    title,
    name: title,
    version: String(info.version ?? '1.0'),
    description: String(info.description ?? '').trim() || `Description of ${title}`,
    contextPath,
    endpoint: server.endpoint ?? FALLBACK_ENDPOINT,
    pathMappings: pathMappings.sort(),
    paths,
  };
}

import SwaggerParser from '@apidevtools/swagger-parser';
import type { Paths, PolicyStep } from '@portico/model';
import { IMPORT_INVALID_FILE } from '@portico/model';
import { importRefused } from './apis.errors.js';
import { checkExpansion } from './apis.swagger-refs.js';
import { sampleOf } from './apis.swagger-sample.js';

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

/** Largest example of a document used as it is for a mock; a larger one gives way to a built sample. */
export const MAX_MOCK_EXAMPLE_BYTES = 64 * 1024;
/** Mock bodies of one document, all operations together. */
export const MAX_MOCKS_BYTES = 2 * 1024 * 1024;
export const SWAGGER_MOCKS_TOO_LARGE = (bytes: number) =>
  `The mock responses of this document exceed the limit of ${bytes} bytes: import it without mocks.`;

/** The document's own example, unless it is too large to copy into every mock that uses it. */
function example(value: unknown, schema: unknown, root: Json): unknown {
  const size = JSON.stringify(value)?.length ?? 0;
  if (size <= MAX_MOCK_EXAMPLE_BYTES) return value;
  return schema ? sampleOf(schema, root) : undefined;
}

/** The status and example body of an operation's first success answer. */
function exampleResponse(operation: Json, openapi3: boolean, root: Json): { status: number; body: unknown } {
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
    if (examples?.['application/json'] !== undefined) {
      return { status, body: example(examples['application/json'], response.schema, root) };
    }
    return { status, body: response.schema ? sampleOf(response.schema, root) : undefined };
  }
  const content = (response.content ?? {}) as Record<string, Json>;
  const media = content['application/json'] ?? Object.values(content)[0];
  if (!media) return { status, body: undefined };
  if (media.example !== undefined) return { status, body: example(media.example, media.schema, root) };
  const examples = media.examples as Record<string, Json> | undefined;
  const first = examples ? Object.values(examples)[0] : undefined;
  if (first?.value !== undefined) return { status, body: example(first.value, media.schema, root) };
  return { status, body: media.schema ? sampleOf(media.schema, root) : undefined };
}

/** The mock policy step of one operation: it answers the example without calling the backend. */
function mockStep(method: string, path: string, operation: Json, openapi3: boolean, root: Json): PolicyStep {
  const { status, body } = exampleResponse(operation, openapi3, root);
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
  checkExpansion(doc);
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
  let mocksBytes = 0;
  for (const [path, item] of Object.entries((api.paths ?? {}) as Record<string, Json>)) {
    const mapping = toPathMapping(path);
    if (options.withPathMapping && !pathMappings.includes(mapping)) pathMappings.push(mapping);
    if (!options.withPolicyPaths) continue;
    const steps: PolicyStep[] = paths[mapping] ?? [];
    if (options.withPolicyMocks) {
      for (const method of OPERATIONS) {
        const operation = item?.[method] as Json | undefined;
        if (!operation) continue;
        const step = mockStep(method, path, operation, openapi3, api);
        mocksBytes += JSON.stringify(step).length;
        if (mocksBytes > MAX_MOCKS_BYTES) throw importRefused(SWAGGER_MOCKS_TOO_LARGE(MAX_MOCKS_BYTES));
        steps.push(step);
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

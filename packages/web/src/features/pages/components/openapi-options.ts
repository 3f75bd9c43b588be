/** The swagger-ui options a page's configuration sets (a subset of swagger-ui-react's props). */
export interface SwaggerOptions {
  docExpansion: 'list' | 'full' | 'none';
  displayOperationId: boolean;
  filter: boolean;
  showExtensions: boolean;
  showCommonExtensions: boolean;
  maxDisplayedTags: number | undefined;
  supportedSubmitMethods: string[];
  deepLinking: boolean;
}

const ALL_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * swagger-ui's options from a page's configuration (string values 'true'/'false'): try-it only when
 * tryIt is on, docExpansion none and every tag by default (console-apis.md 9).
 */
export function swaggerOptions(configuration: Record<string, string>): SwaggerOptions {
  const on = (key: string) => configuration[key] === 'true';
  const maxTags = Number(configuration.maxDisplayedTags ?? -1);
  return {
    docExpansion: (['list', 'full', 'none'] as const).find((v) => v === configuration.docExpansion) ?? 'none',
    displayOperationId: on('displayOperationId'),
    filter: on('enableFiltering'),
    showExtensions: on('showExtensions'),
    showCommonExtensions: on('showCommonExtensions'),
    maxDisplayedTags: Number.isInteger(maxTags) && maxTags >= 0 ? maxTags : undefined,
    supportedSubmitMethods: on('tryIt') ? ALL_METHODS : [],
    deepLinking: false,
  };
}

/** With a try-it URL, the calls go there: the servers of OpenAPI 3, host, basePath and schemes of Swagger 2. */
export function withTryItUrl(spec: object, tryItUrl: string | undefined): object {
  if (!tryItUrl) return spec;
  let url: URL;
  try {
    url = new URL(tryItUrl);
  } catch {
    return spec;
  }
  if ('openapi' in spec) return { ...spec, servers: [{ url: tryItUrl }] };
  return { ...spec, host: url.host, basePath: url.pathname, schemes: [url.protocol.replace(':', '')] };
}

const TEXT_KEYS = new Set(['description', 'summary', 'title']);

/**
 * The description texts of a spec without raw HTML tags (Markdown stays): swagger-ui renders their
 * HTML after its own sanitizer, and an `<img onerror>` there still reached the page (the CSP blocked
 * it). A page's scripts are stopped here, by swagger-ui's sanitizer, and by the CSP.
 */
export function withoutHtml(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutHtml);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      TEXT_KEYS.has(key) && typeof item === 'string'
        ? item.replace(/<\/?[a-z!][^>]*>/gi, '')
        : withoutHtml(item),
    ]),
  );
}

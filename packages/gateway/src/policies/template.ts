import type { GatewayResponse, PolicyContext } from './policy.js';

/**
 * Templates of policy values and bodies: `{#request.id}`, `{#request.headers['x-name']}`,
 * `{#request.params['q']}`, `{#request.path}`, `{#request.method}`, `{#properties['key']}`,
 * `{#context.attributes['name']}`, `{#dictionaries['dictionary']['key']}`; where the stage has them, `{#request.content}`,
 * `{#response.status}`, `{#response.headers['x-name']}` and `{#response.content}`.
 * Unknown expressions render empty. No code is evaluated.
 */
const EXPRESSION = /\{#([a-zA-Z.]+)(?:\[['"]([^'"\]]+)['"]\])?(?:\[['"]([^'"\]]+)['"]\])?\}/g;

/** What a template may read besides the request: bodies and the backend's response, when known. */
export interface TemplateValues {
  requestContent?: Buffer;
  response?: GatewayResponse;
  responseContent?: Buffer;
}

export function renderTemplate(template: string, ctx: PolicyContext, values: TemplateValues = {}): string {
  if (!template.includes('{#')) return template;
  return template.replace(
    EXPRESSION,
    (all: string, path: string, key: string | undefined, sub: string | undefined) => {
      if (path === 'dictionaries') return (key && sub && ctx.dictionaries[key]?.[sub]) ?? '';
      if (sub !== undefined) return all;
      const value = lookup(path, key, ctx, values);
      return value === undefined ? '' : value;
    },
  );
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function lookup(
  path: string,
  key: string | undefined,
  ctx: PolicyContext,
  values: TemplateValues,
): string | undefined {
  const r = ctx.request;
  switch (path) {
    case 'request.id':
      return r.id;
    case 'request.transactionId':
      return r.transactionId;
    case 'request.method':
      return r.method;
    case 'request.path':
      return r.originalPath;
    case 'request.pathInfo':
      return r.pathInfo;
    case 'request.remoteAddress':
      return r.remoteAddress;
    case 'request.timestamp':
      return String(r.timestamp);
    case 'request.headers':
      return key ? first(r.headers[key.toLowerCase()]) : undefined;
    case 'request.params':
      return key ? (r.query.get(key) ?? undefined) : undefined;
    case 'request.content':
      return values.requestContent?.toString('utf8');
    case 'response.status':
      return values.response ? String(values.response.status) : undefined;
    case 'response.headers':
      return key && values.response ? first(values.response.headers[key.toLowerCase()]) : undefined;
    case 'response.content':
      return values.responseContent?.toString('utf8');
    case 'properties':
      return key ? ctx.properties[key] : undefined;
    case 'context.attributes': {
      const v = key ? ctx.attributes.get(key) : undefined;
      return v === undefined ? undefined : String(v);
    }
    case 'context.application':
      return ctx.consumer.applicationId;
    case 'context.plan':
      return ctx.consumer.planId;
    case 'context.subscription':
      return ctx.consumer.subscriptionId;
    case 'context.user':
      return ctx.consumer.user;
    default:
      return undefined;
  }
}

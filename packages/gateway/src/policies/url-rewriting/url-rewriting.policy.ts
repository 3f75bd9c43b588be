import { z } from 'zod';
import { definePolicy } from '../policy.js';
import type { GatewayResponse } from '../policy.js';
import { renderTemplate } from '../template.js';

function compiles(source: string): boolean {
  try {
    new RegExp(source, 'g');
    return true;
  } catch {
    return false;
  }
}

export const UrlRewritingConfig = z.object({
  rewriteResponseHeaders: z
    .boolean()
    .default(true)
    .describe('Rewrites the values of the response headers (Location, Link, Content-Location...)'),
  rewriteResponseBody: z
    .boolean()
    .default(true)
    .describe('Rewrites a textual response body (JSON, XML, HTML, text)'),
  fromRegex: z
    .string()
    .min(1)
    .refine(compiles, { message: 'Must be a valid regular expression' })
    .describe('Regular expression of what to replace: https?://backend\\.internal(:\\d+)?'),
  toReplacement: z
    .string()
    .default('')
    .describe("Templated replacement ({#request.headers['host']}); $1 or $<name> insert captured groups"),
});
export type UrlRewritingConfig = z.infer<typeof UrlRewritingConfig>;

const patterns = new WeakMap<UrlRewritingConfig, RegExp>();

function patternOf(config: UrlRewritingConfig): RegExp {
  let pattern = patterns.get(config);
  if (!pattern) {
    pattern = new RegExp(config.fromRegex, 'g');
    patterns.set(config, pattern);
  }
  return pattern;
}

/** Bodies that are text: rewriting them as UTF-8 keeps them intact; others are left alone. */
const TEXTUAL = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded|ld\+json)\b)/i;

function isRewritableBody(headers: GatewayResponse['headers']): boolean {
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && String(encoding).toLowerCase() !== 'identity') return false;
  const type = headers['content-type'];
  return type === undefined || TEXTUAL.test(String(type));
}

export const urlRewriting = definePolicy({
  id: 'url-rewriting',
  name: 'URL rewriting',
  description: "Rewrites the backend's URLs in the response headers and body, for instance to the gateway's.",
  configSchema: UrlRewritingConfig,
  onResponse(ctx, config, response) {
    if (!config.rewriteResponseHeaders) return;
    const pattern = patternOf(config);
    const replacement = renderTemplate(config.toReplacement, ctx);
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      response.headers[name] = Array.isArray(value)
        ? value.map((v) => v.replace(pattern, replacement))
        : value.replace(pattern, replacement);
    }
  },
  onResponseContent(ctx, config, response, body) {
    if (!config.rewriteResponseBody || !isRewritableBody(response.headers)) return body;
    const pattern = patternOf(config);
    const text = body.toString('utf8');
    pattern.lastIndex = 0;
    if (!pattern.test(text)) return body;
    pattern.lastIndex = 0;
    return Buffer.from(text.replace(pattern, renderTemplate(config.toReplacement, ctx)));
  },
});

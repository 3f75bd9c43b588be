import { z } from 'zod';
import { definePolicy } from '../policy.js';
import type { GatewayResponse, PolicyContext } from '../policy.js';
import { renderTemplate } from '../template.js';

const Header = z.object({ name: z.string().min(1), value: z.string() });

export const TransformHeadersConfig = z.object({
  scope: z.enum(['REQUEST', 'RESPONSE']).default('REQUEST'),
  addHeaders: z.array(Header).default([]),
  removeHeaders: z.array(z.string().min(1)).default([]),
  /** When set, only these headers are kept (after adding). */
  whitelistHeaders: z.array(z.string().min(1)).default([]),
});
export type TransformHeadersConfig = z.infer<typeof TransformHeadersConfig>;

function transform(
  headers: Record<string, string | string[] | undefined>,
  config: TransformHeadersConfig,
  ctx: PolicyContext,
): void {
  for (const name of config.removeHeaders) delete headers[name.toLowerCase()];
  for (const h of config.addHeaders) headers[h.name.toLowerCase()] = renderTemplate(h.value, ctx);
  if (config.whitelistHeaders.length > 0) {
    const keep = new Set(config.whitelistHeaders.map((n) => n.toLowerCase()));
    for (const name of Object.keys(headers)) if (!keep.has(name)) delete headers[name];
  }
}

export const transformHeaders = definePolicy({
  id: 'transform-headers',
  name: 'Transform headers',
  description: 'Adds, removes or keeps only some headers of the request or of the response.',
  configSchema: TransformHeadersConfig,
  onRequest(ctx, config) {
    if (config.scope === 'REQUEST') transform(ctx.request.headers, config, ctx);
  },
  onResponse(ctx, config, response: GatewayResponse) {
    if (config.scope === 'RESPONSE') transform(response.headers, config, ctx);
  },
});

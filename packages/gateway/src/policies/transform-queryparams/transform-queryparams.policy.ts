import { z } from 'zod';
import { definePolicy } from '../policy.js';
import { renderTemplate } from '../template.js';

const QueryParameter = z.object({
  name: z.string().min(1),
  value: z.string().describe("Templated: {#request.headers['x-tenant']}"),
  appendToExistingArray: z
    .boolean()
    .default(false)
    .describe('Adds the value next to those the client sent instead of replacing them'),
});

export const TransformQueryParametersConfig = z.object({
  clearAll: z.boolean().default(false).describe('Removes every parameter the client sent before adding'),
  addQueryParameters: z.array(QueryParameter).default([]),
  removeQueryParameters: z.array(z.string().min(1)).default([]),
});
export type TransformQueryParametersConfig = z.infer<typeof TransformQueryParametersConfig>;

export const transformQueryParameters = definePolicy({
  id: 'transform-queryparams',
  name: 'Transform query parameters',
  description: 'Adds or removes query parameters of the request sent to the backend.',
  configSchema: TransformQueryParametersConfig,
  onRequest(ctx, config) {
    const query = ctx.request.query;
    if (config.clearAll) for (const name of [...query.keys()]) query.delete(name);
    for (const name of config.removeQueryParameters) query.delete(name);
    for (const p of config.addQueryParameters) {
      const value = renderTemplate(p.value, ctx);
      if (p.appendToExistingArray) query.append(p.name, value);
      else query.set(p.name, value);
    }
  },
});

import { z } from 'zod';
import { definePolicy, respond } from '../policy.js';
import { renderTemplate } from '../template.js';

export const MockConfig = z.object({
  status: z.number().int().min(100).max(599).default(200),
  headers: z.array(z.object({ name: z.string().min(1), value: z.string() })).default([]),
  content: z.string().default(''),
});
export type MockConfig = z.infer<typeof MockConfig>;

export const mock = definePolicy({
  id: 'mock',
  name: 'Mock',
  description: 'Answers with a fixed (templated) response instead of calling the backend.',
  configSchema: MockConfig,
  onRequest(ctx, config) {
    const headers: Record<string, string> = {};
    for (const h of config.headers) headers[h.name.toLowerCase()] = renderTemplate(h.value, ctx);
    return respond(config.status, headers, renderTemplate(config.content, ctx));
  },
});

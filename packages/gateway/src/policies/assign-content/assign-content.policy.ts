import { z } from 'zod';
import { definePolicy } from '../policy.js';
import { renderTemplate } from '../template.js';

export const AssignContentConfig = z.object({
  scope: z
    .enum(['REQUEST', 'RESPONSE'])
    .default('REQUEST')
    .describe('REQUEST: the body sent to the backend; RESPONSE: the body sent to the client'),
  body: z
    .string()
    .describe(
      "The new body, templated: {#request.content}, {#request.headers['x']}, {#properties['k']}; " +
        "for RESPONSE also {#response.status}, {#response.headers['x']}, {#response.content}",
    ),
});
export type AssignContentConfig = z.infer<typeof AssignContentConfig>;

export const assignContent = definePolicy({
  id: 'assign-content',
  name: 'Assign content',
  description: 'Replaces the body of the request or of the response with a template.',
  configSchema: AssignContentConfig,
  onRequestContent(ctx, config, body) {
    if (config.scope !== 'REQUEST') return body;
    return Buffer.from(renderTemplate(config.body, ctx, { requestContent: body }));
  },
  onResponseContent(ctx, config, response, body) {
    if (config.scope !== 'RESPONSE') return body;
    return Buffer.from(renderTemplate(config.body, ctx, { response, responseContent: body }));
  },
});

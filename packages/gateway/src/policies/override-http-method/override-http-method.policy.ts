import { z } from 'zod';
import { HttpMethod } from '@portico/model';
import { definePolicy } from '../policy.js';

export const OverrideHttpMethodConfig = z.object({
  method: HttpMethod.describe('The method the backend receives'),
});
export type OverrideHttpMethodConfig = z.infer<typeof OverrideHttpMethodConfig>;

export const overrideHttpMethod = definePolicy({
  id: 'override-http-method',
  name: 'Override HTTP method',
  description: 'Calls the backend with another HTTP method than the one the client used.',
  configSchema: OverrideHttpMethodConfig,
  writesNoInputIntoHeaders: true,
  onRequest(ctx, config) {
    ctx.request.method = config.method;
  },
});

import { z } from 'zod';
import { definePolicy, deny } from '../policy.js';

export const RequestContentLimitConfig = z.object({
  limit: z.number().int().min(0).describe('Maximum request body size in bytes'),
});
export type RequestContentLimitConfig = z.infer<typeof RequestContentLimitConfig>;

export const requestContentLimit = definePolicy({
  id: 'request-content-limit',
  name: 'Request content limit',
  description:
    'Refuses requests whose body is larger than a limit (413), and bodies sent without Content-Length (411).',
  configSchema: RequestContentLimitConfig,
  writesNoInputIntoHeaders: true,
  onRequest(ctx, config) {
    const headers = ctx.request.headers;
    const contentLength = headers['content-length'];
    if (typeof contentLength === 'string' && contentLength !== '') {
      // Node's parser has already refused a malformed Content-Length.
      if (Number(contentLength) > config.limit) {
        return deny(
          413,
          'REQUEST_CONTENT_LIMIT_TOO_LARGE',
          `The request is larger than the server is willing or able to process (limit: ${config.limit} bytes).`,
        );
      }
      return;
    }
    // A body of unknown length (chunked): its size cannot be checked before it is read.
    if (headers['transfer-encoding'] !== undefined) {
      return deny(
        411,
        'REQUEST_CONTENT_LIMIT_LENGTH_REQUIRED',
        'The request must declare its Content-Length.',
      );
    }
  },
});

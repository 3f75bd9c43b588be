import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError, UNEXPECTED_ERROR, requestBodyTooLarge } from '@portico/model';

interface ZodIssueLike {
  instancePath: string;
  message: string;
  keyword: string;
  params?: { keys?: string[] };
}

/** Names the field of a validation issue: `body.name`, `query.page`, `body.portal.apis.tilesMode`. */
function fieldOf(context: string | undefined, issue: ZodIssueLike): string {
  const parts = issue.instancePath.split('/').filter(Boolean);
  if (issue.keyword === 'unrecognized_keys' && issue.params?.keys?.length) parts.push(issue.params.keys[0]!);
  const where = context === 'querystring' ? 'query' : (context ?? 'body');
  return parts.length > 0 ? parts.join('.') : where;
}

function describeIssue(issue: ZodIssueLike): string {
  if (issue.keyword === 'unrecognized_keys') return 'unknown field';
  if (issue.keyword === 'invalid_type' && /received undefined/.test(issue.message)) return 'is required';
  return issue.message;
}

/**
 * One error model for every answer: `{ "message": "...", "http_status": N }`. Validation errors are 400
 * and name the field, in the message and in `field` (as domain validation errors do); unexpected errors
 * are logged and answered 500 `Unexpected error`, no stack trace.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0] as unknown as ZodIssueLike;
      const field = fieldOf(error.validationContext, issue);
      return reply.code(400).send({
        message: `Invalid value for field '${field}': ${describeIssue(issue)}`,
        http_status: 400,
        field,
      });
    }
    if (error instanceof DomainError) {
      if (error.httpStatus === 429 && error.parameters.retryAfter) {
        void reply.header('Retry-After', error.parameters.retryAfter);
      }
      return reply
        .code(error.httpStatus)
        .send({ message: error.message, http_status: error.httpStatus, ...fieldOfDomain(error) });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const tooLarge = requestBodyTooLarge(request.routeOptions.bodyLimit);
      return reply.code(413).send({ message: tooLarge.message, http_status: 413 });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own refusals (bad JSON, wrong content type, body too large): their text is safe to show.
      const message = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'Invalid JSON body' : error.message;
      return reply.code(status).send({ message, http_status: status });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send({ message: UNEXPECTED_ERROR, http_status: 500 });
  });

  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send({ message: `No resource at ${request.method} ${request.url.split('?')[0]}`, http_status: 404 });
  });
}

function fieldOfDomain(error: DomainError): Record<string, string> {
  return error.parameters.field ? { field: error.parameters.field } : {};
}

import type { ServerResponse } from 'node:http';
import type { Deny, DirectResponse, PolicyContext } from '../policies/policy.js';
import type { Reporter } from '../reporting/reporter.js';
import type { CompiledApi } from '../router/compiled.js';
import type { Exchange } from './exchange.js';
import { bodyForLog, finishExchange, first } from './exchange.js';
import { HEADER_LINE_BREAK, headerWithLineBreak } from './headers.js';
import { errorBody, findTemplate, sendBody } from './respond.js';

/** Answers with the gateway's JSON error, before an API's templates apply (no API, a bad request). */
export function sendError(
  reporter: Reporter,
  exchange: Exchange,
  res: ServerResponse,
  status: number,
  key: string | null,
  message: string,
): void {
  const record = exchange.record;
  record.status = status;
  record.error_key = key;
  record.message = message;
  record.response_content_length = sendBody(
    res,
    status,
    {
      'content-type': 'application/json',
      'x-request-id': record.id,
      'x-transaction-id': record.transaction_id,
    },
    errorBody(status, message),
  );
  finishExchange(reporter, exchange);
}

/** A policy put a line break into a header: the client's input is at fault (400), not the gateway. */
export function refuseHeader(
  reporter: Reporter,
  exchange: Exchange,
  res: ServerResponse,
  name: string,
): void {
  sendError(reporter, exchange, res, 400, 'GATEWAY_INVALID_HEADER_VALUE', HEADER_LINE_BREAK(name));
}

/** Refuses the request: the API's response template for the key, else the gateway's JSON error. */
export function sendDeny(
  reporter: Reporter,
  exchange: Exchange,
  res: ServerResponse,
  api: CompiledApi,
  ctx: PolicyContext,
  d: Deny,
): void {
  const unsafe = headerWithLineBreak(ctx.responseHeaders, d.headers);
  if (unsafe) return refuseHeader(reporter, exchange, res, unsafe);
  const record = exchange.record;
  record.error_key = d.key;
  record.message = d.message;
  const template = findTemplate(api.templates, d.key, first(ctx.request.headers.accept));
  const headers = {
    ...ctx.responseHeaders,
    ...d.headers,
    'x-request-id': record.id,
    'x-transaction-id': record.transaction_id,
  };
  const sent = template
    ? {
        status: template.status,
        headers: { 'content-type': template.contentType, ...headers, ...template.headers },
        body: template.body,
      }
    : {
        status: d.status,
        headers: { 'content-type': 'application/json', ...headers },
        body: errorBody(d.status, d.message),
      };
  record.status = sent.status;
  record.response_content_length = sendBody(res, sent.status, sent.headers, sent.body);
  // A refusal after the request was logged (backend unreachable, response policy) completes the log.
  if (exchange.log?.client_request) exchange.log.client_response = { ...sent, body: bodyForLog(sent.body) };
  finishExchange(reporter, exchange);
}

/** A policy's own answer (mock, cache hit): the backend is not called. */
export function sendDirect(
  reporter: Reporter,
  exchange: Exchange,
  res: ServerResponse,
  ctx: PolicyContext,
  d: DirectResponse,
): void {
  const unsafe = headerWithLineBreak(ctx.responseHeaders, d.headers);
  if (unsafe) return refuseHeader(reporter, exchange, res, unsafe);
  const record = exchange.record;
  record.status = d.status;
  record.response_content_length = sendBody(
    res,
    d.status,
    {
      ...d.headers,
      ...ctx.responseHeaders,
      'x-request-id': record.id,
      'x-transaction-id': record.transaction_id,
    },
    d.body,
  );
  finishExchange(reporter, exchange);
}

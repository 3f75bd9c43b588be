import type { IncomingMessage } from 'node:http';
// node:process's own hrtime: the global `process` is an accessor, looked up again at every use.
import { hrtime } from 'node:process';
import { StringDecoder } from 'node:string_decoder';
import type { NewRequestLogRow, NewRequestRow } from '@portico/storage';
import type { Consumer, Dictionaries, GatewayRequest } from '../policies/policy.js';
import type { Reporter } from '../reporting/reporter.js';
import type { CompiledApi } from '../router/compiled.js';
import type { RequestTrace } from '../tracing/request-trace.js';
import { requestId } from './request-id.js';

/** Largest body kept in a request log. */
const MAX_LOGGED_BODY = 64 * 1024;

/** One request and its answer, as reported: the `requests` row, and the log when the API keeps one. */
export interface Exchange {
  record: NewRequestRow;
  started: bigint;
  /** The call's spans, when tracing is on for it. */
  trace: RequestTrace | undefined;
  log?: {
    client_request?: unknown;
    proxy_request?: unknown;
    client_response?: unknown;
    proxy_response?: unknown;
  };
}

export const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
export const elapsedMs = (since: bigint) => Number((hrtime.bigint() - since) / 1_000_000n);

/** The exchange of a request that just came in: ids, time, and what the client sent. */
export function startExchange(
  req: IncomingMessage,
  now: number,
  gatewayId: string,
  tenant: string | undefined,
): Exchange {
  const id = requestId(now);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  // Every field is in the literal, those set later too (a trace, a trace id): every exchange and record
  // then has one shape, and the code that reads them stays monomorphic whether a call is traced or not.
  return {
    started: hrtime.bigint(),
    trace: undefined,
    record: {
      id,
      transaction_id: first(req.headers['x-transaction-id']) || id,
      timestamp: now,
      gateway: gatewayId,
      api_id: null,
      application_id: null,
      plan_id: null,
      subscription_id: null,
      api_key: null,
      user: null,
      tenant: tenant ?? null,
      method: req.method ?? 'GET',
      path: q < 0 ? url : url.slice(0, q),
      uri: url,
      mapped_path: null,
      host: req.headers.host ?? null,
      status: 0,
      request_content_length: Number(req.headers['content-length'] ?? 0) || 0,
      response_content_length: 0,
      response_time: 0,
      api_response_time: -1,
      latency: 0,
      endpoint: null,
      remote_address: req.socket.remoteAddress ?? null,
      user_agent: first(req.headers['user-agent']) ?? null,
      security_type: null,
      error_key: null,
      message: null,
      has_log: 0,
      trace_id: null,
    },
  };
}

/** Times the exchange and hands it (with its log) to the reporter. */
export function finishExchange(reporter: Reporter, exchange: Exchange): void {
  const r = exchange.record;
  r.response_time = elapsedMs(exchange.started);
  r.latency = r.api_response_time >= 0 ? Math.max(r.response_time - r.api_response_time, 0) : r.response_time;
  let log: NewRequestLogRow | undefined;
  if (exchange.log) {
    r.has_log = 1;
    const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
    log = {
      id: r.id,
      timestamp: r.timestamp,
      api_id: r.api_id,
      application_id: r.application_id,
      client_request: json(exchange.log.client_request),
      proxy_request: json(exchange.log.proxy_request),
      client_response: json(exchange.log.client_response),
      proxy_response: json(exchange.log.proxy_response),
    };
  }
  exchange.trace?.end(r);
  reporter.report(r, log);
}

/** The start of a body for a log, cut on a character boundary (the decoder holds back a partial one). */
export function bodyForLog(body: Buffer | string | undefined): string | undefined {
  if (body === undefined || body.length === 0) return undefined;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return new StringDecoder('utf8').write(bytes.subarray(0, MAX_LOGGED_BODY));
}

/** Whether this request is logged, and which sides: the API's logging mode and condition. */
export function shouldLog(
  api: CompiledApi,
  request: GatewayRequest,
  consumer: Consumer,
  dictionaries: Dictionaries = {},
): { client: boolean; proxy: boolean } | undefined {
  const mode = api.logging.mode;
  if (mode === 'NONE') return undefined;
  // The end time (the console's end date, the platform's maximum logging duration) holds before and
  // whatever the rest of the condition says.
  if (api.logging.until !== undefined && request.timestamp > api.logging.until) return undefined;
  if (api.logging.condition) {
    const ok = api.logging.condition({
      request: {
        method: request.method,
        path: request.originalPath,
        pathInfo: request.pathInfo,
        headers: request.headers,
        params: Object.fromEntries(request.query),
        remoteAddress: request.remoteAddress,
        timestamp: request.timestamp,
      },
      context: {
        application: consumer.applicationId ?? '',
        plan: consumer.planId ?? '',
        user: consumer.user ?? '',
      },
      dictionaries,
    });
    if (!ok) return undefined;
  }
  return {
    client: mode === 'CLIENT' || mode === 'CLIENT_PROXY',
    proxy: mode === 'PROXY' || mode === 'CLIENT_PROXY',
  };
}

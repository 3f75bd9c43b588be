import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { NewRequestLogRow, NewRequestRow } from '@portico/storage';
import type { Counters } from '../counters/counters.js';
import type {
  Consumer,
  Deny,
  DirectResponse,
  GatewayRequest,
  GatewayResponse,
  PolicyContext,
} from '../policies/policy.js';
import { invokeUpstream } from '../proxy/invoke.js';
import type { Reporter } from '../reporting/reporter.js';
import type { CompiledApi, CompiledFlow, CompiledStep } from '../router/compiled.js';
import { matchFlow } from '../router/compile.js';
import type { RouteTable } from '../router/route-table.js';
import type { SecurityOptions } from '../security/security.types.js';
import { authenticate } from '../security/authenticate.js';
import type { TokenVerifier } from '../security/tokens.js';
import type { AccessState } from '../sync/access-state.js';
import { corsHeaders, preflight } from './cors.js';
import { endToEnd } from './headers.js';
import { errorBody, findTemplate, sendBody } from './respond.js';
import { requestId } from './request-id.js';

export interface HandlerDeps {
  routes(): RouteTable;
  access: AccessState;
  tokens: TokenVerifier;
  counters: Counters;
  reporter: Reporter;
  security: SecurityOptions;
  gatewayId: string;
  tenant: string | undefined;
  now(): number;
  logError(error: unknown, message: string): void;
}

const withoutHost = (name: string) => name === 'host';

/** Largest body the gateway buffers (for body policies, failover or logging). */
const MAX_BUFFERED_BODY = 10 * 1024 * 1024;
/** Largest body kept in a request log. */
const MAX_LOGGED_BODY = 64 * 1024;

interface Exchange {
  record: NewRequestRow;
  started: bigint;
  log?: {
    client_request?: unknown;
    proxy_request?: unknown;
    client_response?: unknown;
    proxy_response?: unknown;
  };
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const elapsedMs = (since: bigint) => Number((process.hrtime.bigint() - since) / 1_000_000n);

/** The gateway's request handler: route, secure, apply policies, proxy, answer, report. */
export function createRequestHandler(deps: HandlerDeps) {
  const keyHeader = deps.security.apiKeyHeader;
  const withoutHostAndKey = (name: string) => name === 'host' || name === keyHeader;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const exchange = start(deps, req);
    handle(deps, req, res, exchange, withoutHostAndKey).catch((error: unknown) => {
      deps.logError(error, 'request failed');
      if (!res.headersSent) {
        exchange.record.status = 500;
        exchange.record.message = 'Internal Server Error';
        exchange.record.response_content_length = sendBody(
          res,
          500,
          {
            'content-type': 'application/json',
            'x-request-id': exchange.record.id,
            'x-transaction-id': exchange.record.transaction_id,
          },
          errorBody(500, 'Internal Server Error'),
        );
      } else res.destroy();
      finish(deps, exchange);
    });
  };
}

function start(deps: HandlerDeps, req: IncomingMessage): Exchange {
  const now = deps.now();
  const id = requestId(now);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return {
    started: process.hrtime.bigint(),
    record: {
      id,
      transaction_id: first(req.headers['x-transaction-id']) || id,
      timestamp: now,
      gateway: deps.gatewayId,
      api_id: null,
      application_id: null,
      plan_id: null,
      subscription_id: null,
      api_key: null,
      user: null,
      tenant: deps.tenant ?? null,
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
    },
  };
}

function finish(deps: HandlerDeps, exchange: Exchange): void {
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
  deps.reporter.report(r, log);
}

async function readBody(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limit) throw Object.assign(new Error('body too large'), { tooLarge: true });
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** The start of a body for a log, cut on a character boundary (the decoder holds back a partial one). */
function bodyForLog(body: Buffer | string | undefined): string | undefined {
  if (body === undefined || body.length === 0) return undefined;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return new StringDecoder('utf8').write(bytes.subarray(0, MAX_LOGGED_BODY));
}

async function handle(
  deps: HandlerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  exchange: Exchange,
  withoutHostAndKey: (name: string) => boolean,
): Promise<void> {
  const record = exchange.record;
  const match = deps.routes().match(req.headers.host ?? '', record.path);
  if (!match) {
    record.status = 404;
    record.error_key = 'GATEWAY_NO_API';
    record.response_content_length = sendBody(
      res,
      404,
      {
        'content-type': 'application/json',
        'x-request-id': record.id,
        'x-transaction-id': record.transaction_id,
      },
      errorBody(404, 'No context-path matches the request URI.'),
    );
    return finish(deps, exchange);
  }
  const api = match.api;
  record.api_id = api.id;
  // What the client sent, before policies change the request's headers (which are req.headers itself).
  const clientHeaders = api.logging.mode === 'NONE' ? req.headers : { ...req.headers };
  const forwardedFor = first(req.headers['x-forwarded-for']);
  const hasBody =
    req.headers['content-length'] !== undefined
      ? record.request_content_length > 0
      : req.headers['transfer-encoding'] !== undefined;
  const q = record.uri.indexOf('?');
  const request = new IncomingRequest(
    record.id,
    record.transaction_id,
    record.method,
    record.path,
    match.pathInfo,
    q < 0 ? '' : record.uri.slice(q + 1),
    req.headers,
    record.remote_address ?? '',
    req.headers.host ?? '',
    record.timestamp,
  );
  const consumer: Consumer = {};
  const ctx: PolicyContext = {
    request,
    responseHeaders: {},
    apiId: api.id,
    consumer,
    properties: api.properties,
    counters: deps.counters,
    attributes: new Map(),
    now: deps.now,
  };

  const origin = first(req.headers.origin);
  if (api.cors && origin) {
    if (record.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      const answer = preflight(api.cors, origin, req.headers);
      record.status = answer.status;
      record.response_content_length = sendBody(
        res,
        answer.status,
        { ...answer.headers, 'x-request-id': record.id, 'x-transaction-id': record.transaction_id },
        '',
      );
      return finish(deps, exchange);
    }
    Object.assign(ctx.responseHeaders, corsHeaders(api.cors, origin));
  }

  const authenticated = authenticate(api, request, deps.access, deps.tokens, deps.security, deps.now());
  const auth = authenticated instanceof Promise ? await authenticated : authenticated;
  if ('kind' in auth) {
    req.resume();
    return sendDeny(deps, exchange, res, api, ctx, auth);
  }
  Object.assign(consumer, auth.consumer);
  record.plan_id = consumer.planId ?? null;
  record.application_id = consumer.applicationId ?? null;
  record.subscription_id = consumer.subscriptionId ?? null;
  record.api_key = consumer.apiKey ?? null;
  record.user = consumer.user ?? null;
  record.security_type = consumer.securityType ?? null;

  const steps = chain(api, auth.plan.flows, request);
  record.mapped_path = steps.mappedPath ?? null;
  for (const step of steps.list) {
    if (!step.policy.onRequest) continue;
    let outcome = step.policy.onRequest(ctx, step.config);
    if (outcome instanceof Promise) outcome = await outcome;
    if (outcome?.kind === 'deny') {
      req.resume();
      return sendDeny(deps, exchange, res, api, ctx, outcome);
    }
    if (outcome?.kind === 'respond') {
      req.resume();
      return sendDirect(deps, exchange, res, ctx, outcome);
    }
  }

  const logging = shouldLog(api, request, consumer);
  const contentSteps = steps.content;
  // Content steps run on every request they apply to, bodiless ones included (with an empty body):
  // a validation cannot be skipped by sending no body, and a body can be assigned to a GET.
  const buffer =
    contentSteps.length > 0 || (hasBody && ((api.failover?.maxAttempts ?? 1) > 1 || logging !== undefined));
  let body: Buffer | Readable | undefined = hasBody ? req : undefined;
  let clientBody: Buffer | undefined;
  if (buffer) {
    try {
      clientBody = hasBody ? await readBody(req, MAX_BUFFERED_BODY) : Buffer.alloc(0);
    } catch (error) {
      if ((error as { tooLarge?: boolean }).tooLarge) {
        return sendDeny(deps, exchange, res, api, ctx, {
          kind: 'deny',
          status: 413,
          key: 'REQUEST_CONTENT_LIMIT_TOO_LARGE',
          message: 'Request content is too large',
        });
      }
      throw error;
    }
    record.request_content_length = clientBody.length;
    let content = clientBody;
    for (const step of contentSteps) {
      const out = await step.policy.onRequestContent!(ctx, step.config, content);
      if (!Buffer.isBuffer(out)) return sendDeny(deps, exchange, res, api, ctx, out);
      content = out;
    }
    body = hasBody || content.length > 0 ? content : undefined;
  }

  // Without the client's Host (the endpoint's is set per attempt) and, unless the plan propagates it,
  // without the API key.
  const upstreamHeaders = endToEnd(
    request.headers,
    consumer.apiKey !== undefined && !auth.plan.propagateApiKey ? withoutHostAndKey : withoutHost,
  );
  if (Buffer.isBuffer(body)) upstreamHeaders['content-length'] = String(body.length);
  upstreamHeaders['x-forwarded-for'] = forwardedFor
    ? `${forwardedFor}, ${request.remoteAddress}`
    : request.remoteAddress;
  upstreamHeaders['x-forwarded-host'] = request.host;
  upstreamHeaders['x-forwarded-proto'] = 'http';
  upstreamHeaders['x-forwarded-prefix'] = match.contextPath;
  upstreamHeaders['x-request-id'] = record.id;
  upstreamHeaders['x-transaction-id'] = record.transaction_id;
  const responseSteps = steps.response;
  const bufferResponse = steps.bufferResponse || logging !== undefined;
  if (bufferResponse) delete upstreamHeaders['accept-encoding'];
  const query = request.queryString();

  const upstream = await invokeUpstream(api, {
    method: request.method,
    pathInfo: request.pathInfo,
    query,
    headers: upstreamHeaders,
    body,
    clientHost: request.host,
  });
  record.endpoint = upstream.endpoint?.target.href ?? null;
  const target = upstream.endpoint?.target;
  if (logging && (logging.client || target)) {
    exchange.log = {
      ...(logging.client
        ? {
            client_request: {
              method: record.method,
              uri: record.uri,
              headers: clientHeaders,
              body: bodyForLog(clientBody),
            },
          }
        : {}),
      ...(logging.proxy && target
        ? {
            proxy_request: {
              method: request.method,
              uri: `${target.origin}${target.pathname.replace(/\/$/, '')}${request.pathInfo}${query ? `?${query}` : ''}`,
              headers: upstreamHeaders,
              body: bodyForLog(Buffer.isBuffer(body) ? body : undefined),
            },
          }
        : {}),
    };
  }
  if (!upstream.ok) {
    if (body && !Buffer.isBuffer(body)) req.resume();
    return sendDeny(deps, exchange, res, api, ctx, {
      kind: 'deny',
      status: upstream.status,
      key: upstream.key,
      message: upstream.message,
    });
  }

  const backend = upstream.response;
  const response: GatewayResponse = { status: backend.statusCode, headers: endToEnd(backend.headers) };
  for (const step of responseSteps) await step.policy.onResponse?.(ctx, step.config, response);
  // The response's headers: the backend's (as policies left them), the policies' own, then the ids.
  const outHeaders = response.headers as Record<string, string | string[]>;
  for (const name in ctx.responseHeaders) outHeaders[name] = ctx.responseHeaders[name]!;
  outHeaders['x-request-id'] = record.id;
  outHeaders['x-transaction-id'] = record.transaction_id;
  record.status = response.status;

  if (bufferResponse) {
    const backendBody = await backend.readAll();
    record.api_response_time = elapsedMs(upstream.startedAt);
    if (exchange.log && logging?.proxy) {
      exchange.log.proxy_response = {
        status: backend.statusCode,
        headers: backend.headers,
        body: bodyForLog(backendBody),
      };
    }
    let content = backendBody;
    for (const step of responseSteps) {
      if (!step.policy.onResponseContent) continue;
      const out = await step.policy.onResponseContent(ctx, step.config, response, content);
      if (!Buffer.isBuffer(out)) return sendDeny(deps, exchange, res, api, ctx, out);
      content = out;
    }
    delete outHeaders['content-length'];
    record.response_content_length = sendBody(res, response.status, outHeaders, content);
    if (exchange.log && logging?.client) {
      exchange.log.client_response = {
        status: response.status,
        headers: outHeaders,
        body: bodyForLog(content),
      };
    }
    return finish(deps, exchange);
  }

  res.writeHead(response.status, outHeaders);
  await backend.pipeTo(res);
  record.api_response_time = Number(
    ((backend.endedAt ?? process.hrtime.bigint()) - upstream.startedAt) / 1_000_000n,
  );
  record.response_content_length = backend.received;
  finish(deps, exchange);
}

/** The steps for this request: the plan's flow, then the API's flow, for the request's method. */
function chain(api: CompiledApi, planFlows: CompiledFlow[], request: GatewayRequest) {
  const list: CompiledStep[] = [];
  const planFlow = planFlows.length > 0 ? matchFlow(planFlows, request.pathInfo) : undefined;
  if (planFlow) addSteps(list, planFlow.steps, request.method);
  const apiFlow = api.flows.length > 0 ? matchFlow(api.flows, request.pathInfo) : undefined;
  if (apiFlow) addSteps(list, apiFlow.steps, request.method);
  const content: CompiledStep[] = [];
  const response: CompiledStep[] = [];
  let bufferResponse = false;
  for (const step of list) {
    if (step.policy.onRequestContent) content.push(step);
    if (step.policy.onResponse || step.policy.onResponseContent) response.push(step);
    if (step.policy.onResponseContent) bufferResponse = true;
  }
  let mappedPath: string | undefined;
  if (api.pathMappings.length > 0) {
    const path = request.pathInfo || '/';
    mappedPath = api.pathMappings.find((m) => m.pattern.test(path))?.path;
  }
  return { list, content, response, bufferResponse, mappedPath };
}

function addSteps(list: CompiledStep[], steps: CompiledStep[], method: string): void {
  for (const step of steps) if (!step.methods || step.methods.has(method)) list.push(step);
}

/** Refuses the request: the API's response template for the key, else the gateway's JSON error. */
function sendDeny(
  deps: HandlerDeps,
  exchange: Exchange,
  res: ServerResponse,
  api: CompiledApi,
  ctx: PolicyContext,
  d: Deny,
): void {
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
  finish(deps, exchange);
}

/** A policy's own answer (mock, cache hit): the backend is not called. */
function sendDirect(
  deps: HandlerDeps,
  exchange: Exchange,
  res: ServerResponse,
  ctx: PolicyContext,
  d: DirectResponse,
): void {
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
  finish(deps, exchange);
}

/**
 * The request as policies see it. The query string is parsed only when something reads it, and sent
 * to the backend exactly as the client wrote it unless a policy changed it.
 */
class IncomingRequest implements GatewayRequest {
  private parsed: URLSearchParams | undefined;
  private parsedAs: string | undefined;

  constructor(
    readonly id: string,
    readonly transactionId: string,
    public method: string,
    readonly originalPath: string,
    public pathInfo: string,
    private readonly rawQuery: string,
    public headers: Record<string, string | string[] | undefined>,
    readonly remoteAddress: string,
    readonly host: string,
    readonly timestamp: number,
  ) {}

  get query(): URLSearchParams {
    if (!this.parsed) {
      this.parsed = new URLSearchParams(this.rawQuery);
      this.parsedAs = this.parsed.toString();
    }
    return this.parsed;
  }

  set query(query: URLSearchParams) {
    this.parsed = query;
    this.parsedAs = undefined;
  }

  /** The query string to send on (without `?`). */
  queryString(): string {
    if (!this.parsed) return this.rawQuery;
    const now = this.parsed.toString();
    return now === this.parsedAs ? this.rawQuery : now;
  }
}

/** Whether this request is logged, and which sides: the API's logging mode and condition. */
function shouldLog(
  api: CompiledApi,
  request: GatewayRequest,
  consumer: Consumer,
): { client: boolean; proxy: boolean } | undefined {
  const mode = api.logging.mode;
  if (mode === 'NONE') return undefined;
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
    });
    if (!ok) return undefined;
  }
  return {
    client: mode === 'CLIENT' || mode === 'CLIENT_PROXY',
    proxy: mode === 'PROXY' || mode === 'CLIENT_PROXY',
  };
}

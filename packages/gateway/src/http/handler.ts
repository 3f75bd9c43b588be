import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Counters } from '../counters/counters.js';
import type { Consumer, Dictionaries, PolicyContext } from '../policies/policy.js';
import type { Reporter } from '../reporting/reporter.js';
import type { RouteTable } from '../router/route-table.js';
import { authenticate } from '../security/authenticate.js';
import type { SecurityOptions } from '../security/security.types.js';
import type { TokenVerifier } from '../security/tokens.js';
import type { AccessState } from '../sync/access-state.js';
import type { GatewayTracer } from '../tracing/gateway-span.js';
import { RequestTrace } from '../tracing/request-trace.js';
import { sendDeny, sendDirect, sendError } from './answers.js';
import { chain } from './chain.js';
import { corsHeaders, preflight } from './cors.js';
import type { Exchange } from './exchange.js';
import { finishExchange, first, startExchange } from './exchange.js';
import { forward } from './forward.js';
import { IncomingRequest } from './incoming-request.js';
import { PATH_ERRORS, needsNormalising, normalisePath, segmentCount } from './request-path.js';
import { sendBody } from './respond.js';

export interface HandlerDeps {
  routes(): RouteTable;
  access: AccessState;
  tokens: TokenVerifier;
  counters: Counters;
  reporter: Reporter;
  security: SecurityOptions;
  gatewayId: string;
  tenant: string | undefined;
  /** The deployed dictionaries now (none when absent). */
  dictionaries?(): Dictionaries;
  now(): number;
  /** Tracing (OpenTelemetry): undefined when off, and then nothing of it runs on a call. */
  tracer?: GatewayTracer | undefined;
  logError(error: unknown, message: string): void;
}

const withoutHost = (name: string) => name === 'host';
const NO_DICTIONARIES: Dictionaries = Object.freeze(Object.create(null) as Dictionaries);

/** The gateway's request handler: route, secure, apply policies, proxy, answer, report. */
export function createRequestHandler(deps: HandlerDeps) {
  const keyHeader = deps.security.apiKeyHeader;
  const withoutHostAndKey = (name: string) => name === 'host' || name === keyHeader;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const exchange = startExchange(req, deps.now(), deps.gatewayId, deps.tenant);
    handle(deps, req, res, exchange, withoutHostAndKey).catch((error: unknown) => {
      deps.logError(error, 'request failed');
      if (!res.headersSent) sendError(deps.reporter, exchange, res, 500, null, 'Internal Server Error');
      else {
        res.destroy();
        finishExchange(deps.reporter, exchange);
      }
    });
  };
}

async function handle(
  deps: HandlerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  exchange: Exchange,
  withoutHostAndKey: (name: string) => boolean,
): Promise<void> {
  const reporter = deps.reporter;
  const record = exchange.record;
  // The path is normalised once, here: routing, plan rules, policies and the backend see only this one
  // (`uri` keeps what the client sent).
  const routes = deps.routes();
  let floor = Infinity;
  if (needsNormalising(record.path)) {
    const normalised = normalisePath(record.path);
    if ('error' in normalised) return refusePath(reporter, exchange, req, res, normalised.error);
    // A `..` that leaves the context path the client wrote is refused, wherever it would land.
    const entered = normalised.floor < Infinity && routes.match(req.headers.host ?? '', record.path);
    if (entered && normalised.floor < segmentCount(entered.contextPath))
      return refusePath(reporter, exchange, req, res, PATH_ERRORS.climbs);
    record.path = normalised.path;
    floor = normalised.floor;
  }
  const match = routes.match(req.headers.host ?? '', record.path);
  const tracer = deps.tracer;
  if (!match) {
    if (tracer !== undefined) exchange.trace = new RequestTrace(tracer, req, record, undefined, undefined);
    return sendError(
      reporter,
      exchange,
      res,
      404,
      'GATEWAY_NO_API',
      'No context-path matches the request URI.',
    );
  }
  if (floor < segmentCount(match.contextPath)) {
    record.api_id = match.api.id;
    return refusePath(reporter, exchange, req, res, PATH_ERRORS.climbs);
  }
  const api = match.api;
  record.api_id = api.id;
  if (tracer !== undefined && api.tracing.enabled)
    exchange.trace = new RequestTrace(tracer, req, record, api, match.contextPath);
  const traced = exchange.trace;
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
    dictionaries: deps.dictionaries?.() ?? NO_DICTIONARIES,
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
      return finishExchange(reporter, exchange);
    }
    Object.assign(ctx.responseHeaders, corsHeaders(api.cors, origin));
  }

  traced?.securityStarted();
  const authenticated = authenticate(api, request, deps.access, deps.tokens, deps.security, deps.now());
  const auth = authenticated instanceof Promise ? await authenticated : authenticated;
  traced?.securityEnded('kind' in auth ? auth : undefined);
  if ('kind' in auth) {
    req.resume();
    return sendDeny(reporter, exchange, res, api, ctx, auth);
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
  if (traced) {
    const subscription = consumer.subscriptionId
      ? deps.access.subscriptions.get(consumer.subscriptionId)
      : undefined;
    traced.admitted(
      auth.plan,
      { id: consumer.applicationId, name: subscription?.applicationName },
      consumer.securityType,
    );
    traced.routed(record.method, match.contextPath, steps.flowPath);
  }
  for (const step of steps.list) {
    if (!step.policy.onRequest) continue;
    const policySpan = traced?.policy(step);
    let outcome = step.policy.onRequest(ctx, step.config);
    if (outcome instanceof Promise) outcome = await outcome;
    traced?.endChild(policySpan, outcome?.kind === 'deny' ? outcome : undefined);
    if (outcome?.kind === 'deny') {
      req.resume();
      return sendDeny(reporter, exchange, res, api, ctx, outcome);
    }
    if (outcome?.kind === 'respond') {
      req.resume();
      return sendDirect(reporter, exchange, res, ctx, outcome);
    }
  }

  const stripKey = consumer.apiKey !== undefined && !auth.plan.propagateApiKey;
  return forward({
    reporter,
    req,
    res,
    exchange,
    match,
    ctx,
    request,
    steps,
    clientHeaders,
    forwardedFor,
    hasBody,
    skipHeader: stripKey ? withoutHostAndKey : withoutHost,
    skipQueryParam: stripKey ? deps.security.apiKeyQueryParam : undefined,
  });
}

function refusePath(
  reporter: Reporter,
  exchange: Exchange,
  req: IncomingMessage,
  res: ServerResponse,
  message: string,
): void {
  req.resume();
  sendError(reporter, exchange, res, 400, 'GATEWAY_INVALID_REQUEST_PATH', message);
}

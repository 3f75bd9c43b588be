import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { hrtime } from 'node:process';
import type { GatewayResponse, PolicyContext } from '../policies/policy.js';
import { invokeUpstream } from '../proxy/invoke.js';
import type { Reporter } from '../reporting/reporter.js';
import type { CompiledApi } from '../router/compiled.js';
import type { RouteMatch } from '../router/route-table.js';
import { refuseHeader, sendDeny } from './answers.js';
import type { RequestChain } from './chain.js';
import type { Exchange } from './exchange.js';
import { bodyForLog, elapsedMs, finishExchange, shouldLog } from './exchange.js';
import { endToEnd, headerWithLineBreak } from './headers.js';
import type { IncomingRequest } from './incoming-request.js';
import { withoutQueryParam } from './incoming-request.js';
import { sendBody } from './respond.js';

/** Largest body the gateway buffers (for body policies, failover or logging). */
const MAX_BUFFERED_BODY = 10 * 1024 * 1024;

/** A request that passed security and the request policies: what forwarding it needs. */
export interface Admitted {
  reporter: Reporter;
  req: IncomingMessage;
  res: ServerResponse;
  exchange: Exchange;
  match: RouteMatch;
  ctx: PolicyContext;
  request: IncomingRequest;
  steps: RequestChain;
  /** What the client sent, before policies changed the request's headers. */
  clientHeaders: IncomingMessage['headers'];
  forwardedFor: string | undefined;
  hasBody: boolean;
  /** Headers not sent upstream: the client's Host, and the API key unless the plan propagates it. */
  skipHeader: (name: string) => boolean;
  /** The API key's query parameter, when it is not sent upstream. */
  skipQueryParam: string | undefined;
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

/**
 * Forwards an admitted request: its body (through the content policies when some apply), the call to
 * the backend, the response policies, and the answer to the client, streamed unless something must
 * read it whole.
 */
export async function forward(a: Admitted): Promise<void> {
  const { reporter, req, res, exchange, ctx, request, steps } = a;
  const api: CompiledApi = a.match.api;
  const record = exchange.record;
  const logging = shouldLog(api, request, ctx.consumer, ctx.dictionaries);
  const contentSteps = steps.content;
  // Content steps run on every request they apply to, bodiless ones included (with an empty body):
  // a validation cannot be skipped by sending no body, and a body can be assigned to a GET.
  const buffer =
    contentSteps.length > 0 || (a.hasBody && ((api.failover?.maxAttempts ?? 1) > 1 || logging !== undefined));
  let body: Buffer | Readable | undefined = a.hasBody ? req : undefined;
  let clientBody: Buffer | undefined;
  if (buffer) {
    try {
      clientBody = a.hasBody ? await readBody(req, MAX_BUFFERED_BODY) : Buffer.alloc(0);
    } catch (error) {
      if ((error as { tooLarge?: boolean }).tooLarge) {
        return sendDeny(reporter, exchange, res, api, ctx, {
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
      if (!Buffer.isBuffer(out)) return sendDeny(reporter, exchange, res, api, ctx, out);
      content = out;
    }
    body = a.hasBody || content.length > 0 ? content : undefined;
  }

  const upstreamHeaders = endToEnd(request.headers, a.skipHeader);
  if (Buffer.isBuffer(body)) upstreamHeaders['content-length'] = String(body.length);
  upstreamHeaders['x-forwarded-for'] = a.forwardedFor
    ? `${a.forwardedFor}, ${request.remoteAddress}`
    : request.remoteAddress;
  upstreamHeaders['x-forwarded-host'] = request.host;
  upstreamHeaders['x-forwarded-proto'] = 'http';
  upstreamHeaders['x-forwarded-prefix'] = a.match.contextPath;
  upstreamHeaders['x-request-id'] = record.id;
  upstreamHeaders['x-transaction-id'] = record.transaction_id;
  const responseSteps = steps.response;
  const bufferResponse = steps.bufferResponse || logging !== undefined;
  if (bufferResponse) delete upstreamHeaders['accept-encoding'];
  const query =
    a.skipQueryParam === undefined
      ? request.queryString()
      : withoutQueryParam(request.queryString(), a.skipQueryParam);

  // Only a policy can put a line break into a header (Node refuses one from the client), and only one
  // that writes values from the request, the backend or a template.
  const checkHeaders = steps.checkHeaders;
  const unsafeRequest = checkHeaders ? headerWithLineBreak(upstreamHeaders) : undefined;
  if (unsafeRequest) {
    if (body && !Buffer.isBuffer(body)) req.resume();
    return refuseHeader(reporter, exchange, res, unsafeRequest);
  }

  const traced = exchange.trace;
  if (traced) traced.upstream(upstreamHeaders, request.method);
  const upstream = await invokeUpstream(api, {
    method: request.method,
    pathInfo: request.pathInfo,
    query,
    headers: upstreamHeaders,
    body,
    clientHost: request.host,
    onFailover: traced ? (failed, key) => traced.failover(failed.target, key) : undefined,
  });
  record.endpoint = upstream.endpoint?.target.href ?? null;
  if (traced) {
    traced.upstreamDone(
      upstream.endpoint?.target,
      upstream.ok ? upstream.response.statusCode : undefined,
      upstream.ok ? undefined : upstream.key,
    );
  }
  const target = upstream.endpoint?.target;
  if (logging && (logging.client || target)) {
    exchange.log = {
      ...(logging.client
        ? {
            client_request: {
              method: record.method,
              uri: record.uri,
              headers: a.clientHeaders,
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
    return sendDeny(reporter, exchange, res, api, ctx, {
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
      if (!Buffer.isBuffer(out)) return sendDeny(reporter, exchange, res, api, ctx, out);
      content = out;
    }
    const unsafeResponse = checkHeaders ? headerWithLineBreak(outHeaders) : undefined;
    if (unsafeResponse) return refuseHeader(reporter, exchange, res, unsafeResponse);
    delete outHeaders['content-length'];
    record.response_content_length = sendBody(res, response.status, outHeaders, content);
    if (exchange.log && logging?.client) {
      exchange.log.client_response = {
        status: response.status,
        headers: outHeaders,
        body: bodyForLog(content),
      };
    }
    return finishExchange(reporter, exchange);
  }

  const unsafeResponse = checkHeaders ? headerWithLineBreak(outHeaders) : undefined;
  if (unsafeResponse) {
    await backend.dump();
    return refuseHeader(reporter, exchange, res, unsafeResponse);
  }
  res.writeHead(response.status, outHeaders);
  await backend.pipeTo(res);
  record.api_response_time = Number(((backend.endedAt ?? hrtime.bigint()) - upstream.startedAt) / 1_000_000n);
  record.response_content_length = backend.received;
  finishExchange(reporter, exchange);
}

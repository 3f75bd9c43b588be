import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Span, TextMapGetter } from '@opentelemetry/api';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { TracingProvider, TracingSettings } from '@portico/gateway';
import { startTracingProvider } from '@portico/gateway';
import type { Database, Storage } from '@portico/storage';
import { QuerySpansPlugin } from '@portico/storage';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Kysely } from 'kysely';

const propagator = new W3CTraceContextPropagator();
const getter: TextMapGetter<IncomingMessage['headers']> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

let contextManager: AsyncLocalStorageContextManager | undefined;

/** The ids of the active span, for the JSON logs (pino's mixin): none outside a traced request. */
export function traceLogFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

export interface ManagementTracing {
  provider: TracingProvider;
  /** The database with one span per SQL statement. */
  db: Kysely<Database>;
  /** Starts a server span per HTTP request (the caller's traceparent continued), active while it runs. */
  instrument(app: FastifyInstance): void;
}

/**
 * The management server's tracing: the provider, the active context across async calls (so that
 * statement spans and log lines find their request), HTTP server spans and SQL statement spans.
 */
export function startManagementTracing(
  settings: TracingSettings,
  storage: Storage,
  version: string,
): ManagementTracing {
  if (!contextManager) {
    contextManager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(contextManager);
  }
  const provider = startTracingProvider(settings, version, settings.batch);
  const tracer = provider.tracer;
  const db = storage.db.withPlugin(
    new QuerySpansPlugin(tracer, storage.dialect === 'sqlite' ? 'sqlite' : 'postgresql'),
  );
  const spans = new WeakMap<IncomingMessage, Span>();
  return {
    provider,
    db,
    instrument(app) {
      const server = app.server;
      const listeners = server.listeners('request') as ((
        req: IncomingMessage,
        res: ServerResponse,
      ) => void)[];
      server.removeAllListeners('request');
      server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        const parent = propagator.extract(ROOT_CONTEXT, req.headers, getter);
        const method = req.method ?? 'GET';
        const host = req.headers.host ?? '';
        const span = tracer.startSpan(
          method,
          {
            kind: SpanKind.SERVER,
            attributes: {
              'http.request.method': method,
              'url.scheme': 'http',
              'server.address': host.replace(/:\d+$/, ''),
              'network.protocol.version': req.httpVersion,
            },
          },
          parent,
        );
        spans.set(req, span);
        res.once('close', () => {
          span.setAttribute('http.response.status_code', res.statusCode);
          if (res.statusCode >= 500) {
            span.setAttribute('error.type', String(res.statusCode));
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.end();
        });
        context.with(trace.setSpan(parent, span), () => {
          for (const listener of listeners) listener.call(server, req, res);
        });
      });
      // The route template (never the raw path, which holds ids): the span's route and name.
      app.addHook('onRequest', (request, _reply, done) => {
        const span = spans.get(request.raw);
        const route = request.routeOptions.url;
        if (span && route) {
          span.setAttribute('http.route', route);
          span.updateName(`${request.method} ${route}`);
        }
        done();
      });
    },
  };
}

/** The server's logger with the active span's ids on every line (JSON: `trace_id`, `span_id`). */
export function withTraceIds(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === false || logger === undefined) return false;
  const base = logger === true ? {} : logger;
  return { ...base, mixin: traceLogFields };
}

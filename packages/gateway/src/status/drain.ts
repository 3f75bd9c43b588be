import type http from 'node:http';

/** How long a draining process keeps serving (PORTICO_DRAIN_MIN_MS / PORTICO_DRAIN_MAX_MS). */
export interface DrainPeriod {
  /**
   * Serve at least this long after the signal, while load balancers and Kubernetes notice the 503 of
   * `/ready` and stop sending (new requests are still answered, with `Connection: close`).
   */
  minMs: number;
  /** At most this long: calls still in flight then are cut. */
  maxMs: number;
}

export const DEFAULT_DRAIN: DrainPeriod = { minMs: 5000, maxMs: 30_000 };

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Follows the requests of an HTTP server so that it can leave without failing a call: once draining,
 * every response asks its client to close the connection (keep-alive clients reconnect elsewhere),
 * the server stops accepting after the minimum period, and requests in flight (streamed bodies
 * included) finish, up to the maximum period.
 */
export class HttpDrain {
  private readonly inFlight = new Set<http.ServerResponse>();
  private draining = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly server: http.Server) {
    server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
      this.inFlight.add(res);
      if (this.draining) res.setHeader('connection', 'close');
      res.once('close', () => {
        this.inFlight.delete(res);
        if (this.inFlight.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
    });
  }

  /** Requests being answered now. */
  get active(): number {
    return this.inFlight.size;
  }

  /**
   * Drains: `Connection: close` at once, stop accepting after `minMs`, wait for the calls in flight
   * until `maxMs`, then close what remains. `signal` (a second SIGTERM) ends the waits at once.
   * `close` stops the server (default: its own `close`; a Fastify app passes its `close`, which
   * also runs its hooks).
   */
  async drain(period: DrainPeriod, signal?: AbortSignal, close?: () => Promise<void>): Promise<void> {
    const started = Date.now();
    this.draining = true;
    for (const res of this.inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
    // Idle kept-alive connections stay open meanwhile: a client may be sending on one right now (the
    // load balancer has not seen the 503 yet); their next answer carries `Connection: close`.
    await wait(period.minMs, signal);
    const closed = close ? close() : new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Connections that fall idle after their last response are closed as they do.
    const sweep = setInterval(() => this.server.closeIdleConnections(), 50);
    try {
      this.server.closeIdleConnections();
      const idle = new Promise<void>((resolve) =>
        this.inFlight.size === 0 ? resolve() : this.idleWaiters.push(resolve),
      );
      const left = Math.max(period.maxMs - (Date.now() - started), 0);
      const controller = new AbortController();
      const onAbort = () => controller.abort();
      if (signal?.aborted) controller.abort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      await Promise.race([idle, wait(left, controller.signal)]);
      signal?.removeEventListener('abort', onAbort);
      controller.abort();
    } finally {
      clearInterval(sweep);
    }
    this.server.closeAllConnections();
    await closed;
  }
}

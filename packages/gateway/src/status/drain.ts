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

/** A response in flight, linked to the ones answered before and after it. */
interface Linked {
  previous: http.ServerResponse | undefined;
  next: http.ServerResponse | undefined;
}
const LINK = Symbol('portico.drain.link');
type Tracked = http.ServerResponse & { [LINK]?: Linked };

/**
 * The responses in flight, as a list linked through the responses themselves. With a `Set` of them,
 * most of what the gateway promoted to the old generation was finished requests: the hash table,
 * replaced every few requests, aged into the old generation, and every table that died there still
 * pointed at the responses it had held, so the young-generation collections kept those (and their
 * requests, headers and buffers) alive and promoted them. Here nothing but the live list points at a
 * response, and a response's links are cleared when it leaves.
 */
export class InFlight {
  private first: Tracked | undefined;
  size = 0;

  add(res: Tracked): void {
    const link: Linked = { previous: undefined, next: this.first };
    if (this.first) this.first[LINK]!.previous = res;
    res[LINK] = link;
    this.first = res;
    this.size++;
  }

  delete(res: Tracked): void {
    const link = res[LINK];
    if (!link) return;
    const { previous, next } = link as { previous: Tracked | undefined; next: Tracked | undefined };
    if (previous) previous[LINK]!.next = next;
    else this.first = next;
    if (next) next[LINK]!.previous = previous;
    link.previous = link.next = undefined;
    res[LINK] = undefined;
    this.size--;
  }

  *[Symbol.iterator](): IterableIterator<http.ServerResponse> {
    for (let res = this.first; res; res = res[LINK]?.next as Tracked | undefined) yield res;
  }
}

/**
 * Follows the requests of an HTTP server so that it can leave without failing a call: once draining,
 * every response asks its client to close the connection (keep-alive clients reconnect elsewhere),
 * the server stops accepting after the minimum period, and requests in flight (streamed bodies
 * included) finish, up to the maximum period.
 */
export class HttpDrain {
  private readonly inFlight = new InFlight();
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

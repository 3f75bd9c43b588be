import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { ConnectionPool } from './connection.js';
import { Call, Connection, UpstreamError } from './connection.js';
import { requestHead } from './request-head.js';

/** How a backend is called: undici's `dispatch`, or Portico's own HTTP/1.1 client for plain HTTP. */
export interface UpstreamDispatcher {
  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean;
  close(): Promise<void>;
}

export interface Http1Options {
  /** Connections open at most; calls beyond wait for one. */
  connections: number;
  keepAlive: boolean;
  /** An idle connection is closed after this long (ms), or sooner when the backend's Keep-Alive says so. */
  idleTimeout: number;
  connectTimeout: number;
}

/** A kept connection is dropped this long before the backend said it would close it (as undici does). */
const KEEP_ALIVE_MARGIN_MS = 1000;

/**
 * Portico's client for plain-HTTP backends: keep-alive connections over `net`, one call at a time on
 * each, the response read by `ResponseParser` and handed to an undici dispatch handler, as undici's own
 * pool would. It does what the gateway's calls need and nothing else (no TLS, proxy or pipelining: those
 * endpoints keep undici), and so costs a call a fraction of undici's general-purpose machinery (see
 * docs/DESIGN-NOTES.md, "A client of its own for plain-HTTP backends"). Calls to another origin (a
 * followed redirect) go to `fallback`.
 */
export class Http1Client implements UpstreamDispatcher, ConnectionPool {
  private readonly origin: string;
  private readonly idle: Connection[] = [];
  private readonly queue: Call[] = [];
  /** Every connection open or opening. */
  private readonly connections = new Set<Connection>();
  private closed = false;
  private whenClosed: (() => void) | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private tick: number;

  constructor(
    readonly target: URL,
    readonly options: Http1Options,
    private readonly fallback: Dispatcher,
  ) {
    this.origin = target.origin;
    this.tick = tickFor(Math.min(options.idleTimeout || Infinity, options.connectTimeout || Infinity));
  }

  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = typeof options.origin === 'string' ? options.origin : options.origin?.origin;
    if (origin !== this.origin || this.closed) return this.fallback.dispatch(options, handler);
    const body = options.body as Buffer | Readable | undefined;
    const call = new Call(
      this,
      options.method,
      handler,
      body,
      options.headersTimeout ?? 0,
      options.bodyTimeout ?? 0,
    );
    handler.onRequestStart?.(call, {});
    try {
      const { head, framing } = requestHead(
        options.method,
        options.path,
        options.headers as Record<string, string | string[] | undefined>,
        body,
        this.options.keepAlive,
      );
      call.request = head;
      call.framing = framing;
    } catch (error) {
      call.fail(error as Error);
      return true;
    }
    const shortest = Math.min(call.headersTimeout || Infinity, call.bodyTimeout || Infinity);
    if (tickFor(shortest) < this.tick) {
      this.tick = tickFor(shortest);
      this.stopSweeping();
    }
    this.queue.push(call);
    this.pump();
    return true;
  }

  /** Gives waiting calls a connection: an idle one (the most recently used), else a new one if allowed. */
  pump(): void {
    while (this.queue.length > 0) {
      const kept = this.kept();
      if (kept) {
        kept.start(this.queue.shift()!);
        continue;
      }
      if (this.connections.size >= this.options.connections) return;
      this.connect(this.queue.shift()!);
    }
  }

  /**
   * The most recently used idle connection that is not past its idle limit: the timer that closes such
   * connections may run late (a busy or paused machine), and the backend may be closing them already.
   */
  private kept(): Connection | undefined {
    const now = performance.now();
    for (let conn = this.idle.pop(); conn; conn = this.idle.pop()) {
      if (!this.idledOut(conn, now)) return conn;
      conn.destroy();
    }
    return undefined;
  }

  private connect(call: Call): void {
    const conn = new Connection(this);
    this.connections.add(conn);
    conn.start(call);
    if (!this.sweeper) this.sweeper = setInterval(() => this.sweep(), this.tick).unref();
  }

  /**
   * A call whose kept connection closed before answering is sent again on a new connection (another
   * kept one may be closing too), or first in line when the pool is full.
   */
  retry(call: Call): void {
    if (this.connections.size < this.options.connections) return this.connect(call);
    this.queue.unshift(call);
    this.pump();
  }

  /** A connection free for the next call, or closed when it must not carry one. */
  release(conn: Connection, reusable: boolean): void {
    if (!reusable || !this.options.keepAlive || this.closed) return conn.destroy();
    const next = this.queue.shift();
    if (next) return conn.start(next);
    conn.idleSince = performance.now();
    this.idle.push(conn);
  }

  /** A connection closed: forgotten, and its place given to a waiting call. */
  gone(conn: Connection): void {
    this.connections.delete(conn);
    const at = this.idle.indexOf(conn);
    if (at >= 0) this.idle.splice(at, 1);
    if (this.connections.size === 0) {
      this.stopSweeping();
      this.whenClosed?.();
    }
    if (!this.closed) this.pump();
  }

  /** Whether an idle connection has waited past its limit: ours, or sooner what the backend's Keep-Alive said. */
  private idledOut(conn: Connection, now: number): boolean {
    const hint = conn.keepAliveMs;
    const idle = this.options.idleTimeout || Infinity;
    const limit = hint === undefined ? idle : Math.min(idle, Math.max(hint - KEEP_ALIVE_MARGIN_MS, 0));
    return now - conn.idleSince >= limit;
  }

  /** Timeouts, checked every `tick` ms while connections are open instead of a timer per call. */
  private sweep(): void {
    const now = performance.now();
    for (const conn of [...this.connections]) {
      if (conn.call) conn.checkTimeouts(now, this.options.connectTimeout);
      else if (this.idledOut(conn, now)) conn.destroy();
    }
  }

  /** Stops the timeouts' timer; it starts again at the current tick if connections are open. */
  private stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    if (this.connections.size > 0) this.sweeper = setInterval(() => this.sweep(), this.tick).unref();
  }

  /** Closes idle connections now and busy ones once their call is done. */
  async close(): Promise<void> {
    this.closed = true;
    for (const call of this.queue.splice(0))
      call.fail(new UpstreamError('the client is closed', 'UND_ERR_DESTROYED'));
    for (const conn of this.idle.splice(0)) conn.destroy();
    const drained =
      this.connections.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => (this.whenClosed = resolve));
    await Promise.all([drained, this.fallback.close()]);
  }
}

/** How often timeouts are checked: a tenth of the shortest, between 10 ms and 1 s. */
function tickFor(timeout: number): number {
  return Number.isFinite(timeout) ? Math.min(1000, Math.max(10, Math.floor(timeout / 10))) : 1000;
}

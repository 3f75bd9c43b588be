import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { BodyFraming } from './request-head.js';
import type { ResponseHead, ResponseSink } from './response-parser.js';
import { ResponseParser } from './response-parser.js';

/** A failed call, with undici's error codes (`invoke.ts` answers 504 to the two read timeouts). */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** What a connection needs of its pool (`Http1Client`). */
export interface ConnectionPool {
  readonly target: URL;
  /** Done with a call: `reusable` when the connection may carry another. */
  release(conn: Connection, reusable: boolean): void;
  /** The connection closed. */
  gone(conn: Connection): void;
  /** Sends the call again on another connection. */
  retry(call: Call): void;
}

/** Methods that may be sent again when a kept connection turns out closed (RFC 9110 9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

/**
 * One call to the backend: the controller that its undici handler pauses, resumes or aborts, and the
 * sink of its response.
 */
export class Call implements Dispatcher.DispatchController, ResponseSink {
  /** The request line and headers (latin1), and how the body follows them. */
  request = '';
  framing: BodyFraming = 'none';
  conn: Connection | undefined;
  /** The response's head came. */
  started = false;
  done = false;
  retried = false;
  /** The whole request was written. */
  bodySent = false;
  private isAborted = false;
  private isPaused = false;
  private failure: Error | null = null;

  constructor(
    private readonly pool: ConnectionPool,
    readonly method: string,
    private readonly handler: Dispatcher.DispatchHandler,
    readonly body: Buffer | Readable | undefined,
    readonly headersTimeout: number,
    readonly bodyTimeout: number,
  ) {}

  get aborted(): boolean {
    return this.isAborted;
  }

  get paused(): boolean {
    return this.isPaused;
  }

  get reason(): Error | null {
    return this.failure;
  }

  pause(): void {
    if (this.isPaused) return;
    this.isPaused = true;
    this.conn?.socket.pause();
  }

  resume(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    const conn = this.conn;
    if (conn) {
      conn.since = performance.now();
      conn.socket.resume();
    }
  }

  abort(reason: Error): void {
    if (this.done) return;
    this.isAborted = true;
    this.failure = reason;
    const conn = this.conn;
    this.fail(reason);
    conn?.destroy();
  }

  head(head: ResponseHead): void {
    this.started = true;
    this.conn!.keepAliveMs = head.keepAliveMs;
    this.handler.onResponseStart?.(this, head.statusCode, head.headers, head.statusMessage);
  }

  data(chunk: Buffer): void {
    this.handler.onResponseData?.(this, chunk);
  }

  complete(reusable: boolean): void {
    if (this.done) return;
    this.done = true;
    const conn = this.conn!;
    this.conn = undefined;
    conn.call = undefined;
    conn.answered();
    if (this.isPaused) conn.socket.resume();
    this.pool.release(conn, reusable && this.bodySent);
    this.handler.onResponseEnd?.(this, {});
  }

  /** Ends the call with an error (the caller closes its connection). */
  fail(error: Error): void {
    if (this.done) return;
    this.done = true;
    const conn = this.conn;
    this.conn = undefined;
    if (conn?.call === this) conn.call = undefined;
    this.handler.onResponseError?.(this, error);
  }

  /** Whether the call may be sent again after its kept connection closed before answering. */
  replayable(): boolean {
    return (
      !this.retried &&
      !this.started &&
      IDEMPOTENT.has(this.method) &&
      (this.body === undefined || Buffer.isBuffer(this.body))
    );
  }
}

/** One connection to the backend, carrying one call at a time. */
export class Connection {
  readonly socket: net.Socket;
  readonly parser = new ResponseParser();
  call: Call | undefined;
  /** Last activity (ms, monotonic): when the call was sent or its last bytes came. */
  since = performance.now();
  idleSince = 0;
  /** What the backend's Keep-Alive header said, in ms. */
  keepAliveMs: number | undefined;
  private connecting = true;
  /** Calls answered on this connection: a closed kept connection may have its call sent again. */
  private served = 0;
  /** Bytes received for the current call. */
  private received = 0;
  private error: Error | undefined;

  constructor(private readonly pool: ConnectionPool) {
    const target = pool.target;
    this.socket = net.connect({
      host: target.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: Number(target.port) || 80,
      noDelay: true,
      keepAlive: true,
      keepAliveInitialDelay: 60_000,
    });
    this.socket.unref();
    this.socket.on('connect', () => {
      this.connecting = false;
      this.since = performance.now();
      if (this.call) this.send(this.call);
    });
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('end', () => this.onEnd());
    this.socket.on('error', (error) => (this.error ??= error));
    this.socket.on('close', () => this.onClose());
  }

  /** Takes a call: sends it now, or once connected. */
  start(call: Call): void {
    this.call = call;
    call.conn = this;
    this.received = 0;
    this.since = performance.now();
    this.parser.expect(call.method, call);
    if (!this.connecting) this.send(call);
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** Fails the call whose connect, head or body took too long (the sweep of `Http1Client` asks). */
  checkTimeouts(now: number, connectTimeout: number): void {
    const call = this.call;
    if (!call) return;
    const waited = now - this.since;
    let error: UpstreamError | undefined;
    if (this.connecting) {
      if (connectTimeout > 0 && waited >= connectTimeout)
        error = new UpstreamError('Connect Timeout Error', 'UND_ERR_CONNECT_TIMEOUT');
    } else if (!call.started) {
      if (call.headersTimeout > 0 && waited >= call.headersTimeout)
        error = new UpstreamError('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT');
    } else if (!call.paused && call.bodyTimeout > 0 && waited >= call.bodyTimeout)
      error = new UpstreamError('Body Timeout Error', 'UND_ERR_BODY_TIMEOUT');
    if (!error) return;
    call.fail(error);
    this.destroy();
  }

  private send(call: Call): void {
    const socket = this.socket;
    const body = call.body;
    if (body === undefined || Buffer.isBuffer(body)) {
      if (body !== undefined && body.length > 0) {
        socket.cork();
        socket.write(call.request, 'latin1');
        socket.write(body);
        socket.uncork();
      } else socket.write(call.request, 'latin1');
      call.bodySent = true;
      return;
    }
    socket.write(call.request, 'latin1');
    streamBody(this, call, body);
  }

  private onData(chunk: Buffer): void {
    this.since = performance.now();
    const call = this.call;
    // Bytes that no call asked for: the connection's framing can no longer be trusted.
    if (!call) return this.destroy();
    this.received += chunk.length;
    try {
      this.parser.execute(chunk);
    } catch (error) {
      call.fail(error as Error);
      this.destroy();
    }
  }

  /** The backend closed its side: a body that runs until the close is complete. */
  private onEnd(): void {
    const call = this.call;
    if (!call) return;
    try {
      this.parser.end();
    } catch (error) {
      this.error ??= error as Error;
    }
  }

  private onClose(): void {
    this.pool.gone(this);
    const call = this.call;
    if (!call) return;
    this.call = undefined;
    call.conn = undefined;
    if (this.served > 0 && this.received === 0 && call.replayable()) {
      call.retried = true;
      return this.pool.retry(call);
    }
    call.fail(this.error ?? new UpstreamError('other side closed', 'UND_ERR_SOCKET'));
  }

  /** A call answered: counted, so that a later call on this kept connection may be retried. */
  answered(): void {
    this.served++;
  }
}

/** Writes a streamed request body, chunked unless its length was given, as fast as the backend reads. */
function streamBody(conn: Connection, call: Call, body: Readable): void {
  const socket = conn.socket;
  const chunked = call.framing === 'chunked';
  const cleanup = () => {
    body.off('data', onData);
    body.off('end', onEnd);
    body.off('error', onError);
    body.off('close', onClose);
    socket.off('drain', onDrain);
  };
  const onData = (chunk: Buffer) => {
    if (call.conn !== conn) return cleanup();
    if (chunk.length === 0) return;
    let ok: boolean;
    if (chunked) {
      socket.cork();
      socket.write(`${chunk.length.toString(16)}\r\n`, 'latin1');
      socket.write(chunk);
      ok = socket.write('\r\n', 'latin1');
      socket.uncork();
    } else ok = socket.write(chunk);
    if (!ok) {
      body.pause();
      socket.once('drain', onDrain);
    }
  };
  const onDrain = () => body.resume();
  const onEnd = () => {
    cleanup();
    if (call.conn !== conn) return;
    if (chunked) socket.write('0\r\n\r\n', 'latin1');
    call.bodySent = true;
  };
  const onError = (error: Error) => {
    cleanup();
    if (call.conn !== conn) return;
    call.fail(new UpstreamError(`the request body failed: ${error.message}`, 'UND_ERR_ABORTED'));
    conn.destroy();
  };
  const onClose = () => onError(new Error('the client closed the request'));
  if (body.destroyed) return onError(new Error('the client closed the request'));
  body.on('data', onData);
  body.on('end', onEnd);
  body.on('error', onError);
  body.on('close', onClose);
}

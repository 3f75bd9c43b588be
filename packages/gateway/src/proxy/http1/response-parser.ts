import type { IncomingHttpHeaders } from 'node:http';

/** Largest response head (status line and headers) accepted from a backend, as Node's own default. */
export const MAX_HEAD_BYTES = 16 * 1024;
/** Largest chunk-size line (hex digits and extensions) or trailer section accepted. */
const MAX_LINE_BYTES = 4 * 1024;

/** A backend's answer that is not HTTP/1.x as it must be: the call fails (502), the connection is closed. */
export class ResponseParseError extends Error {
  readonly code = 'PORTICO_UPSTREAM_PARSE';
}

/** What the head of a response says. */
export interface ResponseHead {
  statusCode: number;
  statusMessage: string;
  /** Names in lower case; a header sent more than once is an array, as undici and Node give them. */
  headers: IncomingHttpHeaders;
  /** The backend's `Keep-Alive: timeout=N`, in ms, when it gave one. */
  keepAliveMs: number | undefined;
}

/** Where a parsed response goes. */
export interface ResponseSink {
  head(head: ResponseHead): void;
  data(chunk: Buffer): void;
  /** The whole response came; `reusable` when the connection may carry the next request. */
  complete(reusable: boolean): void;
}

const enum State {
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkDataEnd,
  Trailers,
  UntilClose,
  Done,
}

const CRLF = 0x0a;
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: ([^\r\n]*))?$/;
const DIGITS = /^\d+$/;
const HEX = /^[0-9a-fA-F]+$/;
const KEEP_ALIVE_TIMEOUT = /timeout=(\d+)/i;

/** Header names as sent, in lower case: a backend sends the same few names on every response. */
const NAMES = new Map<string, string>();
const MAX_NAMES = 512;

/**
 * The header's name in lower case, the same string each time for a name seen before: a name made fresh
 * for every response would be hashed and looked up in V8's string table each time it keys the headers.
 */
function headerName(sent: string): string {
  const known = NAMES.get(sent);
  if (known !== undefined) return known;
  const name = sent.toLowerCase();
  if (NAMES.size < MAX_NAMES) NAMES.set(sent, name);
  return name;
}

/**
 * Reads one HTTP/1.1 response after another from a backend connection, as its bytes come (RFC 9112):
 * the head, then a body framed by Content-Length, by chunked transfer coding (trailers read and
 * dropped) or, with neither, by the end of the connection. Informational answers (1xx) are skipped. Head
 * bytes are decoded as latin1, so that header values pass through byte for byte. Anything else is a
 * `ResponseParseError`: a gateway must not guess where a malformed response ends.
 */
export class ResponseParser {
  private state = State.Done;
  private pending: Buffer | undefined;
  private remaining = 0;
  private noBody = false;
  private keepAlive = true;
  private sink: ResponseSink | undefined;
  /** Set when a response was read whole in the bytes being parsed: whether its connection is reusable. */
  private completed: boolean | undefined;

  /** Expects the response to a request of `method`; `sink` receives it. */
  expect(method: string, sink: ResponseSink): void {
    this.state = State.Head;
    this.completed = undefined;
    this.pending = undefined;
    this.noBody = method === 'HEAD';
    this.sink = sink;
  }

  /** Whether a response is expected and not complete yet. */
  get busy(): boolean {
    return this.state !== State.Done;
  }

  /** Whether the current response's head came. */
  get headDone(): boolean {
    return this.state !== State.Head && this.state !== State.Done;
  }

  /**
   * Parses the bytes that came. The sink hears of a complete response once its bytes are read; bytes
   * after it, which no request asked for, make the connection unfit for another request.
   */
  execute(chunk: Buffer): void {
    let data = chunk;
    let at = 0;
    while (at < data.length && this.state !== State.Done) {
      switch (this.state) {
        case State.Head: {
          const consumed = this.readHead(data, at);
          if (consumed < 0) return;
          data = this.takeRest(data, consumed);
          at = 0;
          break;
        }
        case State.Length: {
          const n = Math.min(this.remaining, data.length - at);
          this.remaining -= n;
          this.sink!.data(at === 0 && n === data.length ? data : data.subarray(at, at + n));
          at += n;
          if (this.remaining === 0) this.finish(this.keepAlive);
          break;
        }
        case State.ChunkData: {
          const n = Math.min(this.remaining, data.length - at);
          this.remaining -= n;
          if (n > 0) this.sink!.data(data.subarray(at, at + n));
          at += n;
          if (this.remaining === 0) this.state = State.ChunkDataEnd;
          break;
        }
        case State.ChunkSize:
        case State.ChunkDataEnd:
        case State.Trailers: {
          const end = data.indexOf(CRLF, at);
          if (end < 0) {
            this.hold(data.subarray(at), MAX_LINE_BYTES);
            return;
          }
          const line = this.line(data, at, end);
          at = end + 1;
          data = this.takeRest(data, at);
          at = 0;
          this.chunkLine(line);
          break;
        }
        case State.UntilClose:
          this.sink!.data(at === 0 ? data : data.subarray(at));
          return;
      }
    }
    if (this.completed !== undefined) this.complete(this.completed && at === data.length);
  }

  /**
   * The connection ended: completes a body that runs until the close; anything else unfinished is an
   * error (thrown) for a response that had begun, and nothing for one that had not (the caller decides).
   */
  end(): void {
    if (this.state === State.UntilClose) {
      this.finish(false);
      return this.complete(false);
    }
    if (this.state === State.Head && this.pending === undefined) return;
    if (this.state !== State.Done)
      throw new ResponseParseError('the backend closed the connection before the end of its response');
  }

  /** The response is read whole; the sink hears of it at the end of the bytes being parsed. */
  private finish(reusable: boolean): void {
    this.state = State.Done;
    this.pending = undefined;
    this.completed = reusable;
  }

  private complete(reusable: boolean): void {
    const sink = this.sink!;
    this.sink = undefined;
    this.completed = undefined;
    sink.complete(reusable);
  }

  /** Bytes held from earlier reads, joined with these (bounded). */
  private hold(bytes: Buffer, limit: number): void {
    const all = this.pending ? Buffer.concat([this.pending, bytes]) : Buffer.from(bytes);
    if (all.length > limit) throw new ResponseParseError('response head or chunk line too large');
    this.pending = all;
  }

  private takeRest(data: Buffer, from: number): Buffer {
    return from === 0 ? data : data.subarray(from);
  }

  /** The line ending at `end` (LF), with what was held before it, without its CR. */
  private line(data: Buffer, at: number, end: number): string {
    const stop = end > at && data[end - 1] === 0x0d ? end - 1 : end;
    let text = data.toString('latin1', at, stop);
    if (this.pending) {
      text = this.pending.toString('latin1') + text;
      this.pending = undefined;
      if (text.endsWith('\r')) text = text.slice(0, -1);
    }
    return text;
  }

  /** Reads the head when it is all there: answers the bytes of `data` it used, or -1 to wait for more. */
  private readHead(data: Buffer, at: number): number {
    let bytes = at === 0 ? data : data.subarray(at);
    let held = 0;
    if (this.pending) {
      held = this.pending.length;
      bytes = Buffer.concat([this.pending, bytes]);
    }
    const end = bytes.indexOf(HEAD_END, Math.max(0, held - 3));
    if (end < 0) {
      if (bytes.length > MAX_HEAD_BYTES) throw new ResponseParseError('response head too large');
      this.pending = held > 0 ? bytes : Buffer.from(bytes);
      return -1;
    }
    if (end > MAX_HEAD_BYTES) throw new ResponseParseError('response head too large');
    this.pending = undefined;
    this.parseHead(bytes.toString('latin1', 0, end));
    return at + end + 4 - held;
  }

  private parseHead(text: string): void {
    const lines = text.split('\r\n');
    const status = STATUS_LINE.exec(lines[0]!);
    if (!status) throw new ResponseParseError('malformed status line');
    const statusCode = Number(status[2]);
    const headers: IncomingHttpHeaders = {};
    const values = headers as Record<string, string | string[]>;
    let length: string | undefined;
    let chunked = false;
    let encoded = false;
    let connection = '';
    let keepAliveMs: number | undefined;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      // No name, whitespace before the colon or a folded line: refused (RFC 9112 5.1, 5.2).
      if (colon <= 0 || line.charCodeAt(colon - 1) <= 0x20 || line.charCodeAt(0) <= 0x20)
        throw new ResponseParseError('malformed header line');
      const name = headerName(line.slice(0, colon));
      const value = line.slice(colon + 1).trim();
      const was = values[name];
      if (was === undefined) values[name] = value;
      else if (typeof was === 'string') values[name] = [was, value];
      else was.push(value);
      if (name === 'content-length') {
        if (!DIGITS.test(value) || (length !== undefined && length !== value))
          throw new ResponseParseError('invalid Content-Length');
        length = value;
      } else if (name === 'transfer-encoding') {
        encoded = true;
        chunked = value.toLowerCase().endsWith('chunked');
      } else if (name === 'connection') connection += `${value.toLowerCase()},`;
      else if (name === 'keep-alive') {
        const timeout = KEEP_ALIVE_TIMEOUT.exec(value);
        if (timeout) keepAliveMs = Number(timeout[1]) * 1000;
      }
    }
    if (statusCode < 200) {
      // 101 would hand the connection to another protocol, which the gateway does not proxy.
      if (statusCode === 101) throw new ResponseParseError('the backend switched protocols');
      return; // informational: the real answer follows on the same connection
    }
    this.keepAlive = status[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
    this.sink!.head({ statusCode, statusMessage: status[3] ?? '', headers, keepAliveMs });
    if (this.noBody || statusCode === 204 || statusCode === 304) return this.finish(this.keepAlive);
    if (encoded) {
      // Both framings is how requests are smuggled: the connection is not used again (RFC 9112 6.3).
      if (length !== undefined) this.keepAlive = false;
      if (chunked) this.state = State.ChunkSize;
      else this.state = State.UntilClose;
      return;
    }
    if (length !== undefined) {
      this.remaining = Number(length);
      if (this.remaining === 0) return this.finish(this.keepAlive);
      this.state = State.Length;
      return;
    }
    this.state = State.UntilClose;
  }

  private chunkLine(line: string): void {
    if (this.state === State.ChunkDataEnd) {
      if (line !== '') throw new ResponseParseError('missing CRLF after a chunk');
      this.state = State.ChunkSize;
      return;
    }
    if (this.state === State.Trailers) {
      // Trailers are read and dropped (the answer's head is already sent); an empty line ends them.
      if (line === '') this.finish(this.keepAlive);
      return;
    }
    const semicolon = line.indexOf(';');
    const size = (semicolon < 0 ? line : line.slice(0, semicolon)).trim();
    if (!HEX.test(size) || size.length > 12) throw new ResponseParseError('invalid chunk size');
    this.remaining = parseInt(size, 16);
    this.state = this.remaining === 0 ? State.Trailers : State.ChunkData;
  }
}

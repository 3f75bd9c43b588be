import { describe, expect, it } from 'vitest';
import type { ResponseHead } from './response-parser.js';
import { MAX_HEAD_BYTES, ResponseParseError, ResponseParser } from './response-parser.js';

interface Parsed {
  heads: ResponseHead[];
  body: string;
  reusable: boolean | undefined;
}

/** Parses `text` cut into pieces of `step` bytes (every cut place is tried by the callers). */
function parse(text: string | Buffer, step = Infinity, method = 'GET', end = false): Parsed {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1');
  const out: Parsed = { heads: [], body: '', reusable: undefined };
  const chunks: Buffer[] = [];
  const parser = new ResponseParser();
  parser.expect(method, {
    head: (h) => out.heads.push(h),
    data: (c) => chunks.push(Buffer.from(c)),
    complete: (r) => (out.reusable = r),
  });
  for (let at = 0; at < bytes.length; at += step) parser.execute(bytes.subarray(at, at + step));
  if (end) parser.end();
  out.body = Buffer.concat(chunks).toString('latin1');
  return out;
}

/** The same answer whatever the cuts: whole, byte by byte, and in pieces of 2 to 7 bytes. */
function parseEveryWay(text: string, method = 'GET', end = false): Parsed {
  const whole = parse(text, Infinity, method, end);
  for (const step of [1, 2, 3, 5, 7]) expect(parse(text, step, method, end)).toEqual(whole);
  return whole;
}

describe('ResponseParser', () => {
  it('reads a head and a Content-Length body, however the bytes are cut', () => {
    const r = parseEveryWay(
      'HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nContent-Length: 11\r\nX-Two: a\r\nx-two: b\r\n\r\nhello world',
    );
    expect(r.heads).toHaveLength(1);
    expect(r.heads[0]).toMatchObject({
      statusCode: 201,
      statusMessage: 'Created',
      headers: { 'content-type': 'text/plain', 'content-length': '11', 'x-two': ['a', 'b'] },
    });
    expect(r.body).toBe('hello world');
    expect(r.reusable).toBe(true);
  });

  it('reads a chunked body with extensions and trailers, which it drops', () => {
    const r = parseEveryWay(
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\n6\r\n world\r\n0\r\nX-Checksum: 1\r\n\r\n',
    );
    expect(r.body).toBe('hello world');
    expect(r.reusable).toBe(true);
    expect(r.heads[0]!.headers['x-checksum']).toBeUndefined();
  });

  it('skips informational answers and passes header bytes through as latin1', () => {
    const r = parseEveryWay(
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nX-Name: caf\xc3\xa9\r\nContent-Length: 2\r\n\r\nok',
    );
    expect(r.heads.map((h) => h.statusCode)).toEqual([200]);
    expect(Buffer.from(r.heads[0]!.headers['x-name'] as string, 'latin1').toString('utf8')).toBe('café');
  });

  it('reads no body after HEAD, 204 and 304', () => {
    expect(parseEveryWay('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n', 'HEAD').reusable).toBe(true);
    expect(parseEveryWay('HTTP/1.1 204 No Content\r\n\r\n').reusable).toBe(true);
    expect(parseEveryWay('HTTP/1.1 304 Not Modified\r\nContent-Length: 7\r\n\r\n').body).toBe('');
  });

  it('reads a body without length until the connection ends, and the connection is not kept', () => {
    const text = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it';
    const r = parseEveryWay(text, 'GET', true);
    expect(r).toMatchObject({ body: 'all of it', reusable: false });
    expect(parse(text).reusable).toBeUndefined();
  });

  it('keeps the connection as HTTP/1.0 and 1.1 and the Connection header say', () => {
    expect(parse('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n').reusable).toBe(false);
    expect(parse('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n').reusable).toBe(false);
    expect(parse('HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n').reusable).toBe(
      true,
    );
    // Bytes after the answer, which no request asked for, spoil the connection.
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxHTTP/1.1 200 OK\r\n').reusable).toBe(false);
  });

  it('tells the backend Keep-Alive timeout', () => {
    const r = parse('HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5, max=100\r\nContent-Length: 0\r\n\r\n');
    expect(r.heads[0]!.keepAliveMs).toBe(5000);
  });

  it('takes chunked framing over a Content-Length also sent, and does not keep that connection', () => {
    const r = parse(
      'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
    );
    expect(r).toMatchObject({ body: 'ok', reusable: false });
  });

  it('refuses what is not HTTP/1.x as it must be', () => {
    const bad = [
      'HTTP/2 200 OK\r\n\r\n',
      'HTTP/1.1 20 OK\r\n\r\n',
      'HTTP/1.1 200 OK\r\nX-Bad : value\r\n\r\n',
      'HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\n\r\n',
      'HTTP/1.1 200 OK\r\n: nameless\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
      'HTTP/1.1 101 Switching Protocols\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokX\r\n',
    ];
    for (const text of bad) expect(() => parse(text), text).toThrow(ResponseParseError);
    const huge = `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(MAX_HEAD_BYTES)}\r\n\r\n`;
    expect(() => parse(huge, 1000)).toThrow(ResponseParseError);
  });

  it('refuses a connection that ends within a response', () => {
    expect(() => parse('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab', Infinity, 'GET', true)).toThrow(
      ResponseParseError,
    );
  });
});

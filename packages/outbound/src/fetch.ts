import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { Dispatcher } from 'undici';
import { Agent, ProxyAgent, request } from 'undici';
import { OutboundError } from './errors.js';
import type { OutboundPolicy } from './policy.js';
import { createOutboundPolicy, isIpLiteral } from './policy.js';

export const OUTBOUND_DEFAULTS = {
  timeoutMs: 30_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
} as const;

export interface OutboundRequest {
  /** Which addresses may be reached (default: public addresses only). */
  policy?: OutboundPolicy;
  /** Largest body read; past it the transfer is aborted (default 10 MB). */
  maxBytes?: number;
  /** For the whole exchange, redirects included (default 30 s). */
  timeoutMs?: number;
  /** Redirects followed, each one checked like the first URL (default 5). */
  maxRedirects?: number;
  /** The `Accept` header. */
  accept?: string;
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /**
   * Go through the policy's system proxy when the installation has one (a webhook's or message's
   * `useSystemProxy`). The target is still resolved and checked first; the proxy, which the
   * operator configured and trusts, then makes the connection.
   */
  useSystemProxy?: boolean;
}

export interface OutboundResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
  /** The body decoded as UTF-8. */
  text(): string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** `[::1]` -> `::1`: URL keeps the brackets of IPv6 hosts. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

function parseUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new OutboundError('INVALID_URL', `not a URL: ${text.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('SCHEME', `scheme ${url.protocol} refused`);
  }
  return url;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The addresses a URL's host stands for, every one of them checked against the policy: a host name
 * with one refused address is refused (its resolver could hand that one out next time).
 */
async function resolveChecked(
  url: URL,
  policy: OutboundPolicy,
  signal: AbortSignal,
): Promise<LookupAddress[]> {
  const host = bareHost(url);
  let addresses: LookupAddress[];
  if (isIpLiteral(host)) {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await untilAborted(dnsLookup(host, { all: true, verbatim: true }), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new OutboundError('DNS', `${host} did not resolve (${(error as Error).message})`);
    }
    if (addresses.length === 0) throw new OutboundError('DNS', `${host} resolved to no address`);
  }
  if (policy.allowsHost(host)) return addresses;
  for (const { address } of addresses) {
    const refusal = policy.refusal(address);
    if (refusal) {
      throw new OutboundError('ADDRESS_REFUSED', `${url.host} resolves to ${address} (${refusal}): refused`);
    }
  }
  return addresses;
}

/** A resolver that answers the addresses already checked, so that the connection goes where the check looked. */
function pinnedLookup(host: string, addresses: LookupAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    if (hostname.replace(/^\[(.*)\]$/, '$1') !== host) {
      callback(Object.assign(new Error(`unexpected host ${hostname}`), { code: 'ENOTFOUND' }), []);
      return;
    }
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = family ? addresses.filter((a) => a.family === family) : addresses;
    if (usable.length === 0) {
      callback(Object.assign(new Error(`no IPv${family} address for ${host}`), { code: 'ENOTFOUND' }), []);
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, usable[0]!.address, usable[0]!.family);
  };
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Ends a transfer that is not read further (the stream reports the abort as an error: nobody waits for it). */
function discard(body: { on(event: 'error', listener: () => void): unknown; destroy(): unknown }) {
  body.on('error', () => {});
  body.destroy();
}

/** Reads a body up to `maxBytes`, aborting the transfer past it. */
async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number, url: URL) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      discard(body);
      throw new OutboundError('TOO_LARGE', `${url.href} sent more than ${maxBytes} bytes`, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The one way the server reads a URL that a user gave (imports, documentation fetchers, dynamic
 * properties, dictionaries, webhooks, HTTP messages, service discovery). http and https only; the
 * host is resolved and every address checked against the policy, and the connection is made to an
 * address that was checked (no second resolution to rebind); each redirect is checked the same way,
 * at most `maxRedirects`; the exchange is bounded in time and in size. Any status is answered as it
 * is: the caller decides what a 404 means. Failures throw `OutboundError`.
 */
export async function outboundFetch(
  address: string,
  options: OutboundRequest = {},
): Promise<OutboundResponse> {
  const policy = options.policy ?? createOutboundPolicy();
  const maxBytes = options.maxBytes ?? OUTBOUND_DEFAULTS.maxBytes;
  const timeoutMs = options.timeoutMs ?? OUTBOUND_DEFAULTS.timeoutMs;
  const maxRedirects = options.maxRedirects ?? OUTBOUND_DEFAULTS.maxRedirects;
  const signal = AbortSignal.timeout(timeoutMs);

  let url = parseUrl(address);
  let method = options.method ?? 'GET';
  let body = options.body;
  const headers: Record<string, string> = { ...options.headers };
  if (options.accept) headers.accept = options.accept;

  try {
    for (let hop = 0; ; hop++) {
      const addresses = await resolveChecked(url, policy, signal);
      const agent =
        options.useSystemProxy && policy.proxy
          ? new ProxyAgent({
              uri: policy.proxy,
              headersTimeout: timeoutMs,
              bodyTimeout: timeoutMs,
              connections: 1,
              pipelining: 0,
            })
          : new Agent({
              connect: { lookup: pinnedLookup(bareHost(url), addresses), timeout: timeoutMs },
              headersTimeout: timeoutMs,
              bodyTimeout: timeoutMs,
              connections: 1,
              pipelining: 0,
            });
      try {
        const response = await request(url, {
          method,
          headers,
          ...(body !== undefined ? { body } : {}),
          dispatcher: agent,
          signal,
        });
        const location = response.headers.location;
        if (REDIRECTS.has(response.statusCode) && typeof location === 'string') {
          discard(response.body);
          if (hop >= maxRedirects) {
            throw new OutboundError(
              'TOO_MANY_REDIRECTS',
              `more than ${maxRedirects} redirects from ${address}`,
            );
          }
          const next = parseUrl(location, url);
          if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
          if (
            response.statusCode === 303 ||
            ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')
          ) {
            if (method !== 'HEAD') method = 'GET';
            body = undefined;
            delete headers['content-type'];
          }
          url = next;
          continue;
        }
        const declared = Number(response.headers['content-length'] ?? NaN);
        if (declared > maxBytes) {
          discard(response.body);
          throw new OutboundError('TOO_LARGE', `${url.href} declares ${declared} bytes`, maxBytes);
        }
        const content = await readCapped(response.body, maxBytes, url);
        return {
          status: response.statusCode,
          headers: flatHeaders(response.headers),
          body: content,
          url: url.href,
          text: () => content.toString('utf8'),
        };
      } finally {
        void agent.destroy().catch(() => {});
      }
    }
  } catch (error) {
    if (error instanceof OutboundError) throw error;
    if (signal.aborted)
      throw new OutboundError('TIMEOUT', `${url.href} did not answer within ${timeoutMs} ms`);
    const code = (error as { code?: string }).code;
    throw new OutboundError('NETWORK', `${url.href}: ${code ?? ''} ${(error as Error).message}`.trim());
  }
}

import type { z } from 'zod';
import type { Counters } from '../counters/counters.js';

/** The request as policies see and change it. Header names are lower case. */
export interface GatewayRequest {
  /** Request id, also sent back in `X-Request-Id`. */
  readonly id: string;
  /** Transaction id (taken from the client's `X-Transaction-Id` when present). */
  readonly transactionId: string;
  method: string;
  /** The request path, normalised (dot segments removed, unreserved escapes decoded), before any rewrite. */
  readonly originalPath: string;
  /** Path below the API's context path (what is appended to the endpoint target). */
  pathInfo: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  readonly remoteAddress: string;
  readonly host: string;
  readonly timestamp: number;
}

/** What a policy may know of the request's consumer, once plan security has run. */
export interface Consumer {
  planId?: string;
  applicationId?: string;
  subscriptionId?: string;
  apiKey?: string;
  user?: string;
  securityType?: string;
}

/** Deployed dictionaries: dictionary (id or name) -> key -> value; maps without prototype, frozen. */
export type Dictionaries = Readonly<Record<string, Readonly<Record<string, string>>>>;

export interface PolicyContext {
  readonly request: GatewayRequest;
  /** Headers added to the client's response (rate-limit headers, CORS, ...). */
  readonly responseHeaders: Record<string, string>;
  readonly apiId: string;
  readonly consumer: Consumer;
  /** The API's properties (key -> value), for templates. */
  readonly properties: Record<string, string>;
  /** The deployed dictionaries, for templates and conditions: `dictionaries['name']['key']`. */
  readonly dictionaries: Dictionaries;
  /** Shared counters (rate limit, quota): in memory, or Redis when configured. */
  readonly counters: Counters;
  /** Values that policies hand to later ones. */
  readonly attributes: Map<string, unknown>;
  now(): number;
}

/** An expected refusal: the chain runner answers it, through the API's response template for `key`. */
export interface Deny {
  kind: 'deny';
  status: number;
  key: string;
  message: string;
  headers?: Record<string, string>;
}

/** A policy that answers by itself (mock, cache hit): the backend is not called. */
export interface DirectResponse {
  kind: 'respond';
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type RequestOutcome = void | Deny | DirectResponse;

/** The backend's answer as response policies see and change it. */
export interface GatewayResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

export interface PolicyDefinition<C = unknown> {
  id: string;
  name: string;
  description: string;
  /** Configuration schema: validates on save and at deployment, and is served to the console as JSON schema. */
  configSchema: z.ZodType<C>;
  /**
   * The policy puts no value into a header that could come from the request, the backend or a
   * template (it writes numbers of its own, or no header at all): a chain of only such policies skips
   * the check for line breaks in the headers it sends (`headerWithLineBreak`).
   */
  writesNoInputIntoHeaders?: true;
  /** Before the backend is called; may refuse or answer. */
  onRequest?(ctx: PolicyContext, config: C): RequestOutcome | Promise<RequestOutcome>;
  /**
   * Needs the whole request body (buffered for such chains only; empty when the request has none);
   * returns the body to send on.
   */
  onRequestContent?(ctx: PolicyContext, config: C, body: Buffer): Buffer | Deny | Promise<Buffer | Deny>;
  /** After the backend answered (headers only). */
  onResponse?(ctx: PolicyContext, config: C, response: GatewayResponse): void | Promise<void>;
  /** Needs the whole response body (buffered for such chains only); returns the body to send, or refuses. */
  onResponseContent?(
    ctx: PolicyContext,
    config: C,
    response: GatewayResponse,
    body: Buffer,
  ): Buffer | Deny | Promise<Buffer | Deny>;
}

/** Declares a policy (keeps the config type of its schema). */
export function definePolicy<C>(definition: PolicyDefinition<C>): PolicyDefinition<C> {
  return definition;
}

export function deny(status: number, key: string, message: string, headers?: Record<string, string>): Deny {
  return { kind: 'deny', status, key, message, ...(headers ? { headers } : {}) };
}

export function respond(
  status: number,
  headers: Record<string, string>,
  body: string | Buffer,
): DirectResponse {
  return { kind: 'respond', status, headers, body: typeof body === 'string' ? Buffer.from(body) : body };
}

import type { AttributeValue, SpanStatus } from '@opentelemetry/api';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { CallSpans } from './call-spans.js';
import { nanosOf } from './gateway-span.js';
import {
  flagsOf,
  knownKey,
  writeAttribute,
  writeAttributes,
  writeEvent,
  writeName,
  writeStatusAndFlags,
  writeValueOf,
} from './otlp-fields.js';
import type { KnownKey } from './otlp-fields.js';
import { I64, LEN, VARINT, Writer } from './protobuf-writer.js';

/*
 * A call's spans (`CallSpans`) in OTLP protobuf: the `ScopeSpans.spans` fields of its plan-security,
 * client and server spans, with the attributes in the order the SDK's spans would list them when set
 * as a call sets them. The attributes that repeat from call to call are encoded once per combination
 * (`Templates`) and copied in one piece: those of the request (method, server, route, API), of the
 * admission (plan, application) and of the endpoint. A call's own (status, client, ids) are encoded
 * each time, each value that came on the call before copied whole (`writeValueOf`).
 */

/** Encoded attribute runs by owner (an API, a plan, an endpoint) and by the values that vary under it. */
class Templates {
  private readonly byOwner = new WeakMap<object, Template[]>();

  constructor(private readonly perOwner: number) {}

  find(owner: object, a: unknown, b: unknown, c: unknown, d: unknown): Buffer | undefined {
    const list = this.byOwner.get(owner);
    if (list === undefined) return undefined;
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!;
      if (t.a === a && t.b === b && t.c === c && t.d === d) return t.bytes;
    }
    return undefined;
  }

  keep(owner: object, a: unknown, b: unknown, c: unknown, d: unknown, bytes: Buffer): Buffer {
    let list = this.byOwner.get(owner);
    if (list === undefined) this.byOwner.set(owner, (list = []));
    // The oldest goes first: a combination that stops coming is not kept.
    if (list.length >= this.perOwner) list.shift();
    list.push({ a, b, c, d, bytes });
    return bytes;
  }
}

interface Template {
  a: unknown;
  b: unknown;
  c: unknown;
  d: unknown;
  bytes: Buffer;
}

const requests = new Templates(8);
const admissions = new Templates(16);
const endpoints = new Templates(4);
/** Owners for a call without an API, or a client span without an endpoint. */
const NONE = {};

/** The attributes as KeyValue fields (9) of a span, encoded in one piece. */
function encodeRun(pairs: (string | AttributeValue | undefined)[]): Buffer {
  const out = new Writer(512);
  for (let i = 0; i < pairs.length; i += 2) {
    const value = pairs[i + 1];
    if (value !== undefined) writeAttribute(out, 9, pairs[i] as string, value as AttributeValue);
  }
  return Buffer.from(out.finish());
}

function requestRun(call: CallSpans): Buffer {
  const server = call.server!;
  const api = call.api;
  const owner = api ?? NONE;
  const known = requests.find(owner, call.method, server.host, call.httpVersion, call.route);
  if (known) return known;
  const bytes = encodeRun([
    'http.request.method',
    call.method,
    'url.scheme',
    'http',
    'server.address',
    server.address,
    'server.port',
    server.port,
    'network.protocol.version',
    call.httpVersion,
    'http.route',
    call.route || undefined,
    'portico.api.id',
    api?.id,
    'portico.api.name',
    api?.name,
  ]);
  return requests.keep(owner, call.method, server.host, call.httpVersion, call.route, bytes);
}

function admissionRun(call: CallSpans): Buffer | undefined {
  const plan = call.plan;
  if (!plan) return undefined;
  const known = admissions.find(plan, call.securityType, call.applicationId, call.applicationName, 0);
  if (known) return known;
  const bytes = encodeRun([
    'portico.plan.id',
    plan.id,
    'portico.plan.name',
    plan.name,
    'portico.plan.security',
    call.securityType,
    'portico.application.id',
    call.applicationId,
    'portico.application.name',
    call.applicationName,
  ]);
  return admissions.keep(plan, call.securityType, call.applicationId, call.applicationName, 0, bytes);
}

function endpointRun(call: CallSpans): Buffer {
  const endpoint = call.endpoint;
  const owner = endpoint ?? NONE;
  const known = endpoints.find(owner, call.clientMethod, 0, 0, 0);
  if (known) return known;
  const bytes = encodeRun([
    'http.request.method',
    call.clientMethod,
    'server.address',
    endpoint?.address,
    'server.port',
    endpoint?.port,
    'portico.endpoint',
    endpoint?.endpoint,
  ]);
  return endpoints.keep(owner, call.clientMethod, 0, 0, 0, bytes);
}

const STATUS_CODE = knownKey('http.response.status_code');
const ERROR_KEY = knownKey('portico.error.key');
const ERROR_TYPE = knownKey('error.type');
const CLIENT_ADDRESS = knownKey('client.address');
const USER_AGENT = knownKey('user_agent.original');
const REQUEST_ID = knownKey('portico.request.id');
const TRANSACTION_ID = knownKey('portico.transaction.id');
const RESEND_COUNT = knownKey('http.request.resend_count');

function own(out: Writer, entry: KnownKey, value: AttributeValue): void {
  out.tag(9, LEN);
  writeValueOf(out, entry, value);
}

const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });

/** The status (unset) and flags fields of a span, encoded once per value of the flags. */
const unsetTails: Buffer[] = [];

function writeTail(out: Writer, status: SpanStatus, flags: number): void {
  if (status !== UNSET) return writeStatusAndFlags(out, status, flags);
  const tail = unsetTails[flags];
  if (tail === undefined) {
    const start = out.length;
    writeStatusAndFlags(out, UNSET, flags);
    unsetTails[flags] = out.copyFrom(start);
    return;
  }
  out.raw(tail);
}

/** The fields before the attributes: ids, trace state, parent, name, kind, times. */
function writeHead(
  out: Writer,
  call: CallSpans,
  high: number,
  low: number,
  parentHigh: number,
  parentLow: number,
  state: string | undefined,
  name: string,
  kind: SpanKind,
  startMs: number,
  endMs: number,
): void {
  const id = call.traceId;
  out.traceIdField(1, id.w0, id.w1, id.w2, id.w3);
  out.spanIdField(2, high, low);
  if (state) out.stringField(3, state);
  if (parentHigh !== 0 || parentLow !== 0) out.spanIdField(4, parentHigh, parentLow);
  writeName(out, name);
  out.tag(6, VARINT);
  out.varint(kind + 1);
  out.tag(7, I64);
  out.nanos(nanosOf(startMs));
  out.tag(8, I64);
  out.nanos(nanosOf(endMs));
}

function writeEvents(out: Writer, events: TimedEvent[]): void {
  for (let i = 0; i < events.length; i++) writeEvent(out, events[i]!);
}

/** Writes the call's ended spans as `ScopeSpans.spans` fields; answers how many. */
export function writeCallSpans(out: Writer, call: CallSpans): number {
  const state = call.traceState?.serialize() || undefined;
  // A child's parent is in this process: its flags say so by leaving the remote bit out.
  const childFlags = flagsOf(call.traceFlags, false);
  let count = 0;
  if (call.securityEndMs > 0) {
    out.tag(2, LEN);
    const start = out.begin(2);
    writeHead(
      out,
      call,
      call.securityHigh,
      call.securityLow,
      call.idHigh,
      call.idLow,
      state,
      'plan security',
      SpanKind.INTERNAL,
      call.securityStartMs,
      call.securityEndMs,
    );
    const error = call.securityError;
    if (error) own(out, ERROR_KEY, error);
    writeTail(out, error ? { code: SpanStatusCode.ERROR, message: error } : UNSET, childFlags);
    out.end(start, 2);
    count++;
  }
  if (call.clientEndMs > 0) {
    out.tag(2, LEN);
    const start = out.begin(2);
    writeHead(
      out,
      call,
      call.clientHigh,
      call.clientLow,
      call.idHigh,
      call.idLow,
      state,
      call.clientMethod,
      SpanKind.CLIENT,
      call.clientStartMs,
      call.clientEndMs,
    );
    out.raw(endpointRun(call));
    if (call.retries > 0) own(out, RESEND_COUNT, call.retries);
    if (call.clientStatus !== undefined) own(out, STATUS_CODE, call.clientStatus);
    const errorType = call.clientErrorType;
    if (errorType) own(out, ERROR_TYPE, errorType);
    writeEvents(out, call.clientEvents);
    const message = call.clientErrorMessage;
    const status: SpanStatus = !errorType
      ? UNSET
      : message
        ? { code: SpanStatusCode.ERROR, message }
        : { code: SpanStatusCode.ERROR };
    writeTail(out, status, childFlags);
    out.end(start, 2);
    count++;
  }
  out.tag(2, LEN);
  const start = out.begin(2);
  writeHead(
    out,
    call,
    call.idHigh,
    call.idLow,
    call.callerHigh,
    call.callerLow,
    state,
    call.name,
    SpanKind.SERVER,
    call.startMs,
    call.endMs,
  );
  if (call.samplerAttributes) writeAttributes(out, 9, call.samplerAttributes);
  out.raw(requestRun(call));
  const admission = admissionRun(call);
  if (admission) out.raw(admission);
  own(out, STATUS_CODE, call.status);
  const errorKey = call.errorKey;
  if (errorKey) own(out, ERROR_KEY, errorKey);
  const failed = call.status >= 500;
  if (failed) own(out, ERROR_TYPE, String(call.status));
  if (call.remoteAddress) own(out, CLIENT_ADDRESS, call.remoteAddress);
  if (call.userAgent) own(out, USER_AGENT, call.userAgent);
  own(out, REQUEST_ID, call.requestId);
  own(out, TRANSACTION_ID, call.transactionId);
  writeEvents(out, call.events);
  const status: SpanStatus = !failed
    ? UNSET
    : errorKey
      ? { code: SpanStatusCode.ERROR, message: errorKey }
      : { code: SpanStatusCode.ERROR };
  writeTail(out, status, flagsOf(call.traceFlags, call.callerRemote));
  out.end(start, 2);
  return count + 1;
}

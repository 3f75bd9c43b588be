// A load at a steady rate: request i is sent at start + i / rate, whatever the answers to the others,
// over up to CONNECTIONS keep-alive connections. autocannon's rate (-R) is not steady: each connection
// sends back to back until its share of the second is used, then waits for the next second, so a "fixed
// rate" of half a server's capacity was a burst at full capacity for half of every second.
// Each latency runs from the moment the request is handed to the pool: one that waits there for a free
// connection (all of them busy with the server's slower answers) counts its wait, while a pause of this
// process's own (its garbage collection, the shared machine) does not count against the server.
// The client is raw sockets with the request's bytes built once and a small HTTP/1.1 response reader
// (status, Content-Length or chunked body), as cheap as autocannon's: on a 2-core box this process shares
// the cores with the server it measures, and undici's pool cost 60-85 us of CPU a request, as much as the
// plain proxy under test, which left the servers too little CPU to show their own latency.
// Prints what `load` reads of autocannon's JSON.
// Usage: node steady-load.mjs URL RATE DURATION_S CONNECTIONS [HEADERS_JSON]
import net from 'node:net';

const [url, rateArg, durationArg, connectionsArg, headersArg] = process.argv.slice(2);
const target = new URL(url);
const rate = Number(rateArg);
const durationMs = Number(durationArg) * 1000;
const headers = headersArg ? JSON.parse(headersArg) : {};
// The first second (a quarter of a short run) is sent and counted but not timed: this process's code is
// not compiled yet and the pool opens its connections, so the first requests pile up whatever the server.
const warmupMs = Math.min(1000, durationMs / 4);
const request = Buffer.from(
  `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    '\r\n',
  'latin1',
);

const planned = Math.floor((rate * durationMs) / 1000);
const latencies = new Float64Array(planned);
const sentTimes = new Float64Array(planned);
/**
 * This process's own pauses: [from, to] of each gap of more than STALL_MS between two turns of its
 * 1 ms send timer. With the server on other cores and this process nearly idle, such a gap is the whole
 * VM stopped by its host (tens to hundreds of ms on a shared VM): a request in flight across one is
 * answered late whatever the server, so it is left out of the percentiles and the gaps are counted.
 */
const STALL_MS = 5;
const stalls = [];
let sent = 0;
let done = 0;
let non2xx = 0;
let errors = 0;
/** Latencies recorded: those of requests sent after the warm-up. */
let timed = 0;
/** The times requests were handed over while every connection was busy, oldest first. */
const waiting = [];
const idle = [];
const connections = [];
let stopping = false;

function finish(sentAt, status, failed) {
  if (failed) errors++;
  else if (status < 200 || status >= 300) non2xx++;
  done++;
  if (sentAt - start >= warmupMs) {
    sentTimes[timed] = sentAt;
    latencies[timed++] = performance.now() - sentAt;
  }
}

const HEAD_END = Buffer.from('\r\n\r\n');
const HEAD = 0;
const BODY = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;

/** One keep-alive connection with at most one request in flight, reading the answers as they come. */
class Connection {
  constructor() {
    this.sentAt = -1;
    this.status = 0;
    this.state = HEAD;
    this.remaining = 0;
    this.last = false;
    this.pending = null;
    connections.push(this);
    this.socket = net.connect(Number(target.port || 80), target.hostname);
    this.socket.setNoDelay(true);
    this.connected = false;
    this.socket.on('connect', () => {
      this.connected = true;
      this.free();
    });
    this.socket.on('data', (data) => this.read(data));
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => this.closed());
  }

  send(sentAt) {
    this.sentAt = sentAt;
    this.state = HEAD;
    this.socket.write(request);
  }

  /** The next waiting request, or this connection goes back to the idle ones. */
  free() {
    this.sentAt = -1;
    const next = waiting.shift();
    if (next === undefined) idle.push(this);
    else this.send(next);
  }

  closed() {
    const i = idle.indexOf(this);
    if (i >= 0) idle.splice(i, 1);
    if (this.sentAt >= 0) finish(this.sentAt, 0, true);
    // Another connection in its place; after a refused connect, a little later (no busy loop on a server down).
    if (!stopping) setTimeout(() => stopping || new Connection(), this.connected ? 0 : 50);
  }

  read(data) {
    let buf = this.pending ? Buffer.concat([this.pending, data]) : data;
    this.pending = null;
    let at = 0;
    while (at < buf.length) {
      if (this.state === HEAD) {
        const end = buf.indexOf(HEAD_END, at);
        if (end < 0) break;
        const head = buf.toString('latin1', at, end);
        this.status = Number(head.slice(9, 12));
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        const chunked = /\r\ntransfer-encoding:[^\r]*chunked/i.test(head);
        this.remaining = length ? Number(length[1]) : 0;
        this.state = chunked ? CHUNK_SIZE : BODY;
        at = end + 4;
        if (this.state === BODY && this.remaining === 0) this.answered();
      } else if (this.state === CHUNK_SIZE) {
        const end = buf.indexOf('\r\n', at, 'latin1');
        if (end < 0) break;
        const size = parseInt(buf.toString('latin1', at, end), 16);
        at = end + 2;
        // A chunk's data ends with CRLF; the last chunk (size 0) is that CRLF alone (no trailers here).
        this.remaining = size + 2;
        this.last = size === 0;
        this.state = CHUNK_DATA;
      } else {
        const take = Math.min(this.remaining, buf.length - at);
        at += take;
        this.remaining -= take;
        if (this.remaining > 0) break;
        if (this.state === CHUNK_DATA && !this.last) this.state = CHUNK_SIZE;
        else this.answered();
      }
    }
    if (at < buf.length) this.pending = buf.subarray(at);
  }

  answered() {
    this.state = HEAD;
    // An answer to no request: the server closing a connection that this load opened and has not used
    // yet (Portico's gateway answers 408 to a connection silent for its headers timeout, Node's slow
    // client guard). It says nothing of the requests: the connection is dropped, another takes its place.
    if (this.sentAt < 0) return void this.socket.destroy();
    finish(this.sentAt, this.status, false);
    this.free();
  }
}

/** Hands a request to a free connection, or queues it until one is free. */
function call() {
  const sentAt = performance.now();
  const connection = idle.pop();
  if (connection) connection.send(sentAt);
  else waiting.push(sentAt);
}

for (let i = 0; i < Number(connectionsArg); i++) new Connection();
const start = performance.now();
const interval = 1000 / rate;
await new Promise((resolve) => {
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    if (now - last > STALL_MS) stalls.push([last, now]);
    last = now;
    while (sent < planned && start + sent * interval <= now) {
      sent++;
      call();
    }
    if (sent < planned) setTimeout(tick, 1);
    else resolve();
  };
  tick();
});
const deadline = performance.now() + 10_000;
while (done < sent && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
const elapsed = (performance.now() - start) / 1000;
stopping = true;
for (const connection of connections) connection.socket.destroy();

/** Whether [from, to] overlaps a pause: the first pause that ends after `from` is the only one to check. */
function crossesStall(from, to) {
  let lo = 0;
  let hi = stalls.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (stalls[mid][1] <= from) lo = mid + 1;
    else hi = mid;
  }
  return lo < stalls.length && stalls[lo][0] < to;
}
/** The latencies of requests in flight across none of this process's pauses. */
const kept = new Float64Array(timed);
let counted = 0;
for (let i = 0; i < timed; i++) {
  if (!crossesStall(sentTimes[i], sentTimes[i] + latencies[i])) kept[counted++] = latencies[i];
}
const sorted = kept.subarray(0, counted).sort();
const at = (q) =>
  counted ? Math.round(sorted[Math.min(counted - 1, Math.floor(q * counted))] * 10) / 10 : 0;
process.stdout.write(
  JSON.stringify({
    requests: { average: done / elapsed, total: done },
    latency: { p50: at(0.5), p99: at(0.99) },
    stalls: {
      count: stalls.length,
      ms: Math.round(stalls.reduce((a, [x, y]) => a + y - x, 0)),
      requests: timed - counted,
    },
    non2xx,
    errors: errors + (sent - done),
  }),
);

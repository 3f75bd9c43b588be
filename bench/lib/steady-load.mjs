// A load at a steady rate: request i is sent at start + i / rate, whatever the answers to the others,
// over up to CONNECTIONS keep-alive connections. autocannon's rate (-R) is not steady: each connection
// sends back to back until its share of the second is used, then waits for the next second, so a "fixed
// rate" of half a server's capacity was a burst at full capacity for half of every second.
// Each latency runs from the moment the request is handed to the pool: one that waits there for a free
// connection (all of them busy with the server's slower answers) counts its wait, while a pause of this
// process's own (its garbage collection, the shared machine) does not count against the server.
// Prints what `load` reads of autocannon's JSON.
// Usage: node steady-load.mjs URL RATE DURATION_S CONNECTIONS [HEADERS_JSON]
import { Pool } from 'undici';

const [url, rateArg, durationArg, connectionsArg, headersArg] = process.argv.slice(2);
const target = new URL(url);
const rate = Number(rateArg);
const durationMs = Number(durationArg) * 1000;
const headers = headersArg ? JSON.parse(headersArg) : {};
// The first second (a quarter of a short run) is sent and counted but not timed: this process's code is
// not compiled yet and the pool opens its connections, so the first requests pile up whatever the server.
const warmupMs = Math.min(1000, durationMs / 4);
const pool = new Pool(target.origin, { connections: Number(connectionsArg), pipelining: 1 });
const path = target.pathname + target.search;

const planned = Math.floor((rate * durationMs) / 1000);
const latencies = new Float64Array(planned);
let sent = 0;
let done = 0;
let non2xx = 0;
let errors = 0;
/** Latencies recorded: those of requests sent after the warm-up. */
let timed = 0;

/** One request, through undici's dispatch API: no stream or promise per request in this process. */
function call() {
  const sentAt = performance.now();
  let status = 0;
  const finish = (failed) => {
    if (failed) errors++;
    else if (status < 200 || status >= 300) non2xx++;
    done++;
    if (sentAt - start >= warmupMs) latencies[timed++] = performance.now() - sentAt;
  };
  pool.dispatch(
    { path, method: 'GET', headers },
    {
      onRequestStart() {},
      onResponseStart(_controller, statusCode) {
        status = statusCode;
      },
      onResponseData() {},
      onResponseEnd() {
        finish(false);
      },
      onResponseError() {
        finish(true);
      },
    },
  );
}

const start = performance.now();
const interval = 1000 / rate;
await new Promise((resolve) => {
  const tick = () => {
    const now = performance.now();
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
await pool.close();

const sorted = latencies.subarray(0, timed).sort();
const at = (q) => (timed ? Math.round(sorted[Math.min(timed - 1, Math.floor(q * timed))] * 10) / 10 : 0);
process.stdout.write(
  JSON.stringify({
    requests: { average: done / elapsed, total: done },
    latency: { p50: at(0.5), p99: at(0.99) },
    non2xx,
    errors: errors + (sent - done),
  }),
);

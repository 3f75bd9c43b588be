// A load at a steady rate: request i is sent at start + i / rate, whatever the answers to the others,
// over up to CONNECTIONS keep-alive connections. autocannon's rate (-R) is not steady: each connection
// sends back to back until its share of the second is used, then waits for the next second, so a "fixed
// rate" of half a server's capacity was a burst at full capacity for half of every second.
// Each latency runs from the request's planned time, so a request that waits for a free connection
// counts its wait (no coordinated omission). Prints what `load` reads of autocannon's JSON.
// Usage: node steady-load.mjs URL RATE DURATION_S CONNECTIONS [HEADERS_JSON]
import { Pool } from 'undici';

const [url, rateArg, durationArg, connectionsArg, headersArg] = process.argv.slice(2);
const target = new URL(url);
const rate = Number(rateArg);
const durationMs = Number(durationArg) * 1000;
const headers = headersArg ? JSON.parse(headersArg) : {};
const pool = new Pool(target.origin, { connections: Number(connectionsArg), pipelining: 1 });
const path = target.pathname + target.search;

const planned = Math.floor((rate * durationMs) / 1000);
const latencies = new Float64Array(planned);
let sent = 0;
let done = 0;
let non2xx = 0;
let errors = 0;

async function call(plannedAt) {
  try {
    const res = await pool.request({ path, method: 'GET', headers });
    await res.body.dump();
    if (res.statusCode < 200 || res.statusCode >= 300) non2xx++;
  } catch {
    errors++;
  }
  latencies[done++] = performance.now() - plannedAt;
}

const start = performance.now();
const interval = 1000 / rate;
await new Promise((resolve) => {
  const tick = () => {
    const now = performance.now();
    while (sent < planned && start + sent * interval <= now) void call(start + sent++ * interval);
    if (sent < planned) setTimeout(tick, 1);
    else resolve();
  };
  tick();
});
const deadline = performance.now() + 10_000;
while (done < sent && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
const elapsed = (performance.now() - start) / 1000;
await pool.close();

const sorted = latencies.subarray(0, done).sort();
const at = (q) => (done ? Math.round(sorted[Math.min(done - 1, Math.floor(q * done))] * 10) / 10 : 0);
process.stdout.write(
  JSON.stringify({
    requests: { average: done / elapsed, total: done },
    latency: { p50: at(0.5), p99: at(0.99) },
    non2xx,
    errors: errors + (sent - done),
  }),
);

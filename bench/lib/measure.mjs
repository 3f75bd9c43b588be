// Measuring a run of the gateway benchmark: load with autocannon, CPU time by thread, medians.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// CPU time of a server's threads (Linux /proc, clock ticks of 10 ms): which thread pays for a request.
export function threadTicks(pid) {
  const out = new Map();
  if (!pid || !existsSync(`/proc/${pid}/task`)) return out;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      out.set(tid, { name, user: Number(fields[11]), sys: Number(fields[12]) });
    } catch {
      // the thread ended
    }
  }
  return out;
}

/**
 * CPU microseconds per request between two `threadTicks` readings: `total`, its `sys` (kernel) share,
 * and `parts`, the split by thread name (main, the report writer's and V8's helper threads are `node`),
 * rounded for printing; `byThread` is the same split unrounded, by name, and `exact` the total unrounded.
 */
export function cpuPerRequest(before, after, requests) {
  const byName = new Map();
  let sys = 0;
  for (const [tid, t] of after) {
    const was = before.get(tid);
    const used = t.user + t.sys - (was ? was.user + was.sys : 0);
    sys += t.sys - (was?.sys ?? 0);
    const name = t.name.replace(/[0-9]+$/, '');
    byName.set(name, (byName.get(name) ?? 0) + used);
  }
  const us = (ticks) => Math.round((ticks * 10_000) / Math.max(requests, 1));
  const total = [...byName.values()].reduce((a, b) => a + b, 0);
  const parts = [...byName].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  const byThread = Object.fromEntries(parts.map(([n, v]) => [n, (v * 10_000) / Math.max(requests, 1)]));
  return {
    total: us(total),
    exact: (total * 10_000) / Math.max(requests, 1),
    sys: us(sys),
    parts: parts.map(([n, v]) => `${n} ${us(v)}`).join(', '),
    byThread,
  };
}

/** The round whose total CPU per request is the median of `cpus` (its split is printed with it). */
export function medianCpu(cpus) {
  const sorted = [...cpus].sort((a, b) => a.total - b.total);
  return sorted[(sorted.length - 1) >> 1];
}

// nginx serves from its one worker process, a child of the master.
export function nginxWorker(master) {
  try {
    return Number(readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(' ')[0]);
  } catch {
    return undefined;
  }
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Load against the URL for `duration` seconds over `connections` connections: autocannon at saturation;
 * with `rate`, a steady load of that many requests per second in all (`steady-load.mjs`: evenly spaced,
 * each latency from the request's hand-over to the load's connection pool).
 */
export function load(url, headers, duration, connections, rate) {
  const out = execFileSync(process.execPath, loadArgs(url, headers, duration, connections, rate), {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return loadResult(out);
}

/** `load`, without waiting: several loads run at once (each in its own process). */
export function loadAsync(url, headers, duration, connections, rate) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, loadArgs(url, headers, duration, connections, rate), {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(loadResult(out));
      } catch (error) {
        reject(error);
      }
    });
  });
}

function loadArgs(url, headers, duration, connections, rate) {
  return rate
    ? [
        path.join(root, 'bench/lib/steady-load.mjs'),
        url,
        String(Math.round(rate)),
        String(duration),
        String(connections),
        JSON.stringify(headers),
      ]
    : [
        path.join(root, 'node_modules/autocannon/autocannon.js'),
        '-j',
        '-c',
        String(connections),
        '-d',
        String(duration),
        ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
        url,
      ];
}

function loadResult(out) {
  const r = JSON.parse(out);
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    // The steady load's own pauses (the VM stopped): their count and the requests left out of p50/p99.
    stalls: r.stalls,
  };
}

// The report of the gateway benchmark: the table of runs, CPU per request, and the targets.
import os from 'node:os';

import { median } from './measure.mjs';

const ratioOf = (r, base) => (r.cpu.total / base.cpu.total).toFixed(2);
/** The median of the rounds' CPU ratios to the baseline, with each round's. */
const roundRatios = (r) =>
  `${median(r.cpuRatios).toFixed(2)} (rounds ${r.cpuRatios.map((x) => x.toFixed(2)).join(' ')})`;

/** Prints the results (the baseline is the run named `plain undici proxy...`; (a) to (d) by their names). */
export function printReport({
  results,
  atFixedRate,
  fixedRate,
  againstProxy,
  connections,
  duration,
  rounds,
  reported,
  indexing,
  instance,
  tracingAtRate,
  tracingAtSaturation,
}) {
  console.log(
    `\nGateway benchmark: ${connections} connections, ${duration} s per run, median of ${rounds} interleaved rounds, ${os.cpus().length} CPUs\n`,
  );
  console.log(
    'run'.padEnd(46) +
      'req/s'.padStart(10) +
      'ratio'.padStart(8) +
      'p50 ms'.padStart(9) +
      'p99 ms'.padStart(9) +
      'non-2xx'.padStart(9) +
      '  req/s by round',
  );
  for (const r of results) {
    console.log(
      r.name.padEnd(46) +
        r.rps.toFixed(0).padStart(10) +
        r.ratio.toFixed(2).padStart(8) +
        String(r.p50).padStart(9) +
        String(r.p99).padStart(9) +
        String(r.bad).padStart(9) +
        `  ${r.rpss.join(' ')}`,
    );
  }
  console.log(
    "\nserver CPU per request at saturation, us (the median round; by thread: main = the event loop, report-writer = the thread appending report segments, node = V8's GC and helper threads; kernel share):",
  );
  for (const r of results)
    console.log(
      `  ${r.name.padEnd(44)}${String(r.cpu.total).padStart(5)}  (${r.cpu.parts}; sys ${r.cpu.sys})  ratio ${roundRatios(r)}`,
    );
  if (atFixedRate?.length) {
    console.log(`\nat a fixed rate of ${Math.round(fixedRate)} req/s (half the plain proxy's capacity):`);
    for (const r of atFixedRate)
      console.log(
        `  ${r.name.padEnd(44)}${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms (load paused ${r.stalls} times, ${r.untimed} requests untimed)  non-2xx ${r.bad}  CPU ${r.cpu.total} us (${r.cpu.parts}; sys ${r.cpu.sys}) ratio ${roundRatios(r)}`,
      );
  }
  // Issue 18: CPU per request at most 1.2x the plain proxy's, p99 at the fixed rate within 1 ms of it.
  const fixedBase = atFixedRate?.find((r) => r.name.startsWith('plain undici'));
  for (const tag of ['(a)', '(b)']) {
    const r = results.find((x) => x.name.startsWith(`portico ${tag}`));
    if (!r) continue;
    console.log(
      `\n${tag} CPU per request at saturation: ${roundRatios(r)} of the plain proxy (target <= 1.2)`,
    );
    const f = atFixedRate?.find((x) => x.name.startsWith(`portico ${tag}`));
    if (f) console.log(`${tag} CPU per request at the fixed rate: ${roundRatios(f)} of the plain proxy`);
    if (f && fixedBase)
      console.log(
        `${tag} p99 at the fixed rate above the plain proxy: ${f.p99Above.toFixed(1)} ms, the median of the rounds' differences (rounds ${f.p99s.map((p, k) => (p - fixedBase.p99s[k]).toFixed(1)).join(' ')}; target <= 1 ms)`,
      );
    const paired = againstProxy?.find((x) => x.name.startsWith(`portico ${tag}`));
    if (paired)
      console.log(
        `${tag} with the plain proxy loaded at once, ${Math.round(paired.rate)} req/s each: CPU per request ${paired.ratio.toFixed(2)} of the proxy's (rounds ${paired.ratios.map((x) => x.toFixed(2)).join(' ')}), p99 ${paired.p99Above.toFixed(1)} ms above it (rounds ${paired.p99s.map((x) => x.toFixed(1)).join(' ')}), ${paired.bad} calls failed`,
      );
  }
  const control = againstProxy?.find((x) => x.name.endsWith('(control)'));
  if (control)
    console.log(
      `\nthe control, a second plain proxy loaded at once with the plain proxy, ${Math.round(control.rate)} req/s each: CPU per request ${control.ratio.toFixed(2)} of the proxy's (rounds ${control.ratios.map((x) => x.toFixed(2)).join(' ')}), p99 ${control.p99Above.toFixed(1)} ms above it (rounds ${control.p99s.map((x) => x.toFixed(1)).join(' ')}): how far two identical servers read apart here`,
    );
  const headersPaired = againstProxy?.find((x) => x.name.startsWith('plain undici proxy +'));
  if (headersPaired)
    console.log(
      `\nthe spec's headers alone (the plain proxy with them) loaded at once with the plain proxy, ${Math.round(headersPaired.rate)} req/s each: CPU per request ${headersPaired.ratio.toFixed(2)} of the proxy's (rounds ${headersPaired.ratios.map((x) => x.toFixed(2)).join(' ')}), p99 ${headersPaired.p99Above.toFixed(1)} ms above it`,
    );
  const a = results.find((r) => r.name.startsWith('portico (a)'));
  const c = results.find((r) => r.name.startsWith('portico (c)'));
  const d = results.find((r) => r.name.startsWith('portico (d)'));
  if (a && c)
    console.log(`(c) tracing, sampling 0: CPU per request ${ratioOf(c, a)} of (a) (target: within noise)`);
  if (a && d)
    console.log(
      `(d) tracing, sampling 1: CPU per request ${ratioOf(d, a)} of (a) (target <= 1.15), ${d.bad} calls failed (target 0)`,
    );
  // Against the untraced API of the same process, in turn: two processes of the same code can differ by
  // a steady factor, which (c) and (d) against (a) carry.
  for (const { name, ratio, ratios } of tracingAtSaturation ?? []) {
    const label = name.slice('portico '.length);
    const target = label === '(c)' ? 'within noise' : '<= 1.15';
    console.log(
      `${label} at saturation, in its own process: CPU per request ${ratio.toFixed(2)} of ${label.replace(')', "')")} (rounds ${ratios.map((x) => x.toFixed(2)).join(' ')}, which goes first alternating; target ${target})`,
    );
  }
  if (tracingAtRate) {
    console.log(
      `\ntracing at a fixed rate of ${Math.round(tracingAtRate.rate)} req/s (half of (d)'s capacity), CPU per request:`,
    );
    for (const r of tracingAtRate.runs)
      console.log(
        `  ${r.name.padEnd(64)}${String(Math.round(r.cpu)).padStart(5)} us  ${r.ratio.toFixed(2)} of (a) (rounds ${r.ratios.map((x) => x.toFixed(2)).join(' ')})  ${r.rps.toFixed(0)} req/s  non-2xx ${r.bad}\n${''.padEnd(68)}median round: ${r.split.parts}; sys ${r.split.sys}`,
      );
    const d = tracingAtRate.runs.find((r) => r.name.startsWith('portico (d)'));
    if (d) console.log(`(d) at that rate: CPU per request ${d.ratio.toFixed(2)} of (a) (target <= 1.15)`);
    const inProcess = (label, of, target, measured) =>
      measured &&
      console.log(
        `${label} at that rate, in its own process: ${measured.ratio.toFixed(2)} of ${of} (rounds ${measured.ratios.map((x) => x.toFixed(2)).join(' ')}; target ${target})`,
      );
    inProcess('(c)', "(c')", 'within noise', tracingAtRate.inProcessC);
    inProcess('(d)', "(d')", '<= 1.15', tracingAtRate.inProcess);
    const paired = tracingAtRate.paired;
    if (paired)
      console.log(
        `(d) in pairs, two of (d)'s processes loaded at once at ${Math.round(paired.rate)} req/s each (traced API against untraced, swapped every round): ${paired.ratio.toFixed(3)}, the geometric mean of ${paired.byRole.map((x) => x.toFixed(3)).join(' and ')} with one or the other process traced (rounds ${paired.ratios.map((x) => x.toFixed(2)).join(' ')}; target <= 1.15), ${paired.bad} calls failed`,
      );
  }
  console.log(
    `reports written for portico runs: ${reported}; dropped reports: ${instance?.dropped_reports ?? 'unknown'} (target 0)`,
  );
  console.log(
    `the management server's indexer, outside the gateway: ${indexing.requests} requests made rows at ${indexing.us.toFixed(1)} us CPU each`,
  );
}

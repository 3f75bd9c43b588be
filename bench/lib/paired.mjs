// Tracing's cost measured in pairs: two gateways of the same configuration (tracing at sampling 1)
// loaded at the same moment, one with a traced API's calls and the other with an untraced API's, the
// roles swapped every round. Rounds run one after the other on a shared VM drift apart (the same
// gateway's CPU per request moves by a fifth from one round to the next); two loads at once meet the
// same machine, and swapping the roles cancels what differs between the two processes. The rounds'
// ratios of traced to untraced CPU per request spread over about ±0.08 this way, against ±0.25 for
// the same ratio from rounds taken in turn. The plain proxy against Portico is measured at once too.
import { cpuPerRequest, loadAsync, median, threadTicks } from './measure.mjs';

/**
 * `gateways`: two of { pid, traced, untraced } (the URLs of a traced and an untraced API's calls),
 * loaded `rate` requests per second each. Answers the ratio of the traced calls' CPU per request to
 * the untraced calls': the geometric mean of the median ratio with each process traced (two processes
 * of the same code can differ by a steady factor, which this cancels), those two medians, the rounds'
 * ratios, and the calls that failed.
 */
export async function measurePaired(gateways, { rate, rounds, duration, connections }) {
  const roleOf = (i, round) => ((i + round) % 2 === 0 ? 'traced' : 'untraced');
  // Both ways once, not kept: each process compiles both paths before the rounds.
  for (const round of [0, 1])
    await Promise.all(gateways.map((g, i) => loadAsync(g[roleOf(i, round)], {}, 2, connections, rate)));
  const ratios = [];
  let bad = 0;
  for (let round = 0; round < rounds; round++) {
    const before = gateways.map((g) => threadTicks(g.pid));
    const results = await Promise.all(
      gateways.map((g, i) => loadAsync(g[roleOf(i, round)], {}, duration, connections, rate)),
    );
    const cpu = gateways.map((g, i) => cpuPerRequest(before[i], threadTicks(g.pid), results[i].total).exact);
    const traced = roleOf(0, round) === 'traced' ? 0 : 1;
    ratios.push(cpu[traced] / cpu[1 - traced]);
    bad += results.reduce((a, r) => a + r.non2xx + r.errors, 0);
  }
  const byRole = [0, 1].map((first) => median(ratios.filter((_, round) => round % 2 === first)));
  return { ratio: Math.sqrt(byRole[0] * byRole[1]), byRole, ratios, rate, bad };
}

/**
 * Issue 18's figures at one moment: the plain proxy and a measured server (Portico's gateway, or the
 * proxy with the spec's headers) loaded at once, `rate` requests per second each, for `rounds` rounds.
 * Rounds taken in turn meet a shared VM in different states (an idle process there already waits up to
 * 5 ms now and then, and one round's p99 differs from the next by tens of milliseconds); two loads at
 * once meet the same stalls. Answers the median of the rounds' CPU-per-request ratios and p99
 * differences (the measured server less the proxy), with the rounds'.
 */
export async function measureAgainstBaseline(baseline, measured, { rate, rounds, duration, connections }) {
  const servers = [baseline, measured];
  // Once, not kept: both compile their paths at this rate.
  await Promise.all(servers.map((s) => loadAsync(s.url, s.headers, 2, connections, rate)));
  const ratios = [];
  const p99Above = [];
  let bad = 0;
  for (let round = 0; round < rounds; round++) {
    const before = servers.map((s) => threadTicks(s.pid));
    // The two loads start in turns (each a process of its own): the one started first can fare
    // differently for the whole round (an A/A run of two identical gateways moved by up to 9 ms of p99).
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    const started = order.map((i) =>
      loadAsync(servers[i].url, servers[i].headers, duration, connections, rate),
    );
    const results = [];
    for (const [k, i] of order.entries()) results[i] = await started[k];
    const cpu = servers.map((s, i) => cpuPerRequest(before[i], threadTicks(s.pid), results[i].total).exact);
    ratios.push(cpu[1] / cpu[0]);
    p99Above.push(results[1].p99 - results[0].p99);
    bad += results.reduce((a, r) => a + r.non2xx + r.errors, 0);
  }
  return { rate, ratio: median(ratios), ratios, p99Above: median(p99Above), p99s: p99Above, bad };
}

// Tracing's cost in bench:gateway, (c) and (d) against an untraced API of their own process ((c') and
// (d')) and against (a): at saturation in turn, and at a fixed rate of half of (d)'s capacity.
import { cpuPerRequest, load, median, medianCpu, threadTicks } from './measure.mjs';

/**
 * Tracing's cost at saturation in its own process: (c) against (c') and (d) against (d'), the traced
 * API's calls and the untraced API's of the same process in turn, which goes first alternating from
 * round to round (a run right after another process's differs from one right after its own process's),
 * three times as many rounds as the other runs: at saturation two runs of the same process spread by
 * ±0.15 from round to round here.
 */
export function measureTracingAtSaturation(
  selected,
  untraced,
  { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS },
) {
  const pairs = [];
  for (const row of untraced) {
    const name = row[0].replace("')", ')').slice(0, 'portico (c)'.length);
    const traced = selected.find(([n]) => n.startsWith(name));
    if (traced) pairs.push({ name, runs: [traced, row] });
  }
  return pairs.map(({ name, runs }) => {
    const ratios = [];
    for (let round = 0; round < ROUNDS * 3; round++) {
      const cpu = [];
      for (const i of round % 2 ? [1, 0] : [0, 1]) {
        const [, url, headers, pid] = runs[i];
        const before = threadTicks(pid);
        const r = load(url, headers, DURATION, CONNECTIONS);
        cpu[i] = cpuPerRequest(before, threadTicks(pid), r.total).total;
      }
      ratios.push(cpu[0] / cpu[1]);
    }
    return { name, ratio: median(ratios), ratios };
  });
}

/**
 * Tracing's cost at equal load: (a), (c), (d), (c') and (d') at half of (d)'s capacity, CPU per request of
 * each and the ratios to (a) of the same round (medians). At saturation (d) serves fewer calls than (a),
 * so what each turn of the event loop and each batch of the report writer cost is shared by fewer calls:
 * the saturation figure counts tracing's slowness twice. (a) and (d) are two processes, and on a shared
 * VM two processes of the same code differ by up to a quarter in CPU per request ((c) against (a) shows
 * it); (c') and (d') run in (c)'s and (d)'s own processes, so (c) against (c') and (d) against (d') are
 * tracing's cost alone. Twice as many rounds
 * of half the duration: the machine drifts less within a shorter window.
 */
export function measureTracingAtRate(
  selected,
  rounds,
  untraced,
  { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS },
) {
  const dIndex = selected.findIndex(([n]) => n.startsWith('portico (d)'));
  const runs = selected.filter(([n]) => /^portico \([acd]\)/.test(n));
  if (dIndex < 0 || !runs[0]?.[0].startsWith('portico (a)')) return undefined;
  runs.push(...untraced);
  const rate = median(rounds[dIndex].map((r) => r.rps)) / 2;
  const measured = runs.map(() => []);
  for (let round = 0; round < ROUNDS * 2; round++) {
    runs.forEach(([, url, headers, pid], i) => {
      const before = threadTicks(pid);
      const r = load(url, headers, DURATION / 2, CONNECTIONS, rate);
      measured[i].push({ ...r, cpu: cpuPerRequest(before, threadTicks(pid), r.total) });
    });
  }
  const ratiosTo = (i, j) => measured[i].map((r, k) => r.cpu.total / measured[j][k].cpu.total);
  const at = (prefix) => runs.findIndex(([n]) => n.startsWith(prefix));
  const inProcessOf = (traced, untracedRun) => {
    if (at(traced) < 0) return undefined;
    const ratios = ratiosTo(at(traced), at(untracedRun));
    return { ratio: median(ratios), ratios };
  };
  return {
    rate,
    runs: runs.map(([name], i) => ({
      name,
      rps: median(measured[i].map((r) => r.rps)),
      cpu: median(measured[i].map((r) => r.cpu.total)),
      split: medianCpu(measured[i].map((r) => r.cpu)),
      ratio: median(ratiosTo(i, 0)),
      ratios: ratiosTo(i, 0),
      bad: measured[i].reduce((a, r) => a + r.non2xx + r.errors, 0),
    })),
    inProcess: inProcessOf('portico (d)', "portico (d')"),
    inProcessC: inProcessOf('portico (c)', "portico (c')"),
  };
}

// Reading a `perf record -g` recording of a Node process: CPU time by shared object and by function
// (self time, the sample's first frame), and the time of samples with a frame matching a pattern
// (inclusive), each in microseconds a request.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** What a shared object is, for the table: JIT code has its map file (--perf-basic-prof) as object. */
function objectName(dso) {
  if (/perf-\d+\.map$/.test(dso)) return 'JIT code (JavaScript, Wasm, regexps)';
  if (dso === '[kernel.kallsyms]') return 'kernel';
  const base = path.basename(dso);
  if (base === 'node') return 'node binary (V8 builtins and runtime, libuv, llhttp)';
  if (base.startsWith('libc.so')) return 'libc';
  return base;
}

/** Frame lines of `perf script`: an address, the symbol (which may hold spaces), the object in parentheses. */
const FRAME = /^\s*[0-9a-f]+ (.*) \((.*)\)$/;

/**
 * `file`: a perf.data file; `requests`: the requests served while it recorded; `inclusive`: patterns
 * (regular expressions as strings) of frames whose samples are summed with all they call.
 */
export function perfBreakdown(file, requests, inclusive = []) {
  const out = execFileSync('perf', ['script', '-i', file, '-F', 'period,ip,sym,dso'], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const patterns = inclusive.map((p) => [p, new RegExp(p)]);
  const byObject = {};
  const bySymbol = {};
  const within = Object.fromEntries(inclusive.map((p) => [p, 0]));
  let total = 0;
  for (const sample of out.split('\n\n')) {
    const lines = sample.split('\n').filter((l) => l.trim());
    if (lines.length < 2) continue;
    const period = Number(lines[0].trim());
    if (!Number.isFinite(period)) continue;
    const frames = lines
      .slice(1)
      .map((l) => FRAME.exec(l))
      .filter(Boolean);
    if (!frames.length) continue;
    total += period;
    const [, symbol, dso] = frames[0];
    const object = objectName(dso);
    byObject[object] = (byObject[object] ?? 0) + period;
    const name = symbol.replace(/file:\/\/\/?[^ ]*?\/(packages|node_modules)\//, '$1/');
    bySymbol[name] = (bySymbol[name] ?? 0) + period;
    for (const [p, re] of patterns) if (frames.some(([, s]) => re.test(s))) within[p] += period;
  }
  // perf's cpu-clock periods are nanoseconds.
  const us = (ns) => ns / 1000 / Math.max(requests, 1);
  const scale = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, us(v)]));
  return { total: us(total), byObject: scale(byObject), bySymbol: scale(bySymbol), inclusive: scale(within) };
}

// Reading a `perf record -g` recording of a Node process: CPU time by shared object and by function
// (self time, the sample's first frame), the time of samples with a frame matching a pattern
// (inclusive), each in microseconds a request; and the stacks folded (root first, frames joined by `;`,
// then the nanoseconds), the input of flame graph tools (flamegraph.pl, inferno, speedscope), also
// printed as an indented tree.
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
  const folded = new Map();
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
    const name = shortName(symbol);
    bySymbol[name] = (bySymbol[name] ?? 0) + period;
    const stack = frames
      .map(([, s]) => shortName(s).replaceAll(';', ','))
      .reverse()
      .join(';');
    folded.set(stack, (folded.get(stack) ?? 0) + period);
    for (const [p, re] of patterns) if (frames.some(([, s]) => re.test(s))) within[p] += period;
  }
  // perf's cpu-clock periods are nanoseconds.
  const us = (ns) => ns / 1000 / Math.max(requests, 1);
  const scale = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, us(v)]));
  return {
    total: us(total),
    byObject: scale(byObject),
    bySymbol: scale(bySymbol),
    inclusive: scale(within),
    folded,
    requests,
  };
}

/** A frame's name with the path of its file cut to the package (`packages/gateway/dist/...`). */
function shortName(symbol) {
  return symbol.replace(/file:\/\/\/?[^ ]*?\/(packages|node_modules)\//, '$1/');
}

/** The folded stacks as flame graph tools read them: one line per stack, its nanoseconds last. */
export function foldedText(breakdown) {
  return [...breakdown.folded].map(([stack, ns]) => `${stack} ${ns}`).join('\n') + '\n';
}

/**
 * The flame graph as text: each frame with its inclusive microseconds a request, its callers above it,
 * children of at least `minUs` by cost; a frame that passes nearly all its time to one callee is
 * printed on its caller's line (`a > b`), so that the native chains of the event loop take one line.
 */
export function flameTree(breakdown, minUs = 2) {
  const root = { name: 'all', ns: 0, children: new Map() };
  for (const [stack, ns] of breakdown.folded) {
    root.ns += ns;
    let node = root;
    for (const frame of stack.split(';')) {
      let child = node.children.get(frame);
      if (!child) node.children.set(frame, (child = { name: frame, ns: 0, children: new Map() }));
      child.ns += ns;
      node = child;
    }
  }
  const us = (ns) => ns / 1000 / Math.max(breakdown.requests, 1);
  const lines = [];
  const visit = (node, depth) => {
    const names = [node.name];
    for (;;) {
      const [only, ...others] = [...node.children.values()].sort((a, b) => b.ns - a.ns);
      if (!only || only.ns < 0.95 * node.ns || (others[0] && us(others[0].ns) >= minUs)) break;
      node = only;
      names.push(node.name);
    }
    const chain = names.length > 3 ? [names[0], '…', names.at(-1)] : names;
    lines.push(`${us(node.ns).toFixed(1).padStart(7)}  ${'  '.repeat(depth)}${chain.join(' > ')}`);
    for (const child of [...node.children.values()].sort((a, b) => b.ns - a.ns))
      if (us(child.ns) >= minUs) visit(child, depth + 1);
  };
  visit(root, 0);
  return lines.join('\n');
}

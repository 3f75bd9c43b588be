import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * Monitoring data of the gateway process, in the shape of the instance monitoring screen: CPU, load
 * average, heap and V8 heap spaces (young, survivor, old pools with peaks), GC counts and times, file
 * descriptors, threads and event-loop delay.
 */
export class ProcessMonitor {
  private readonly loop = monitorEventLoopDelay({ resolution: 20 });
  private readonly gc = { young: { count: 0, time: 0 }, old: { count: 0, time: 0 } };
  private readonly observer: PerformanceObserver;
  private readonly peaks = new Map<string, number>();
  private lastCpu = process.cpuUsage();
  private lastAt = process.hrtime.bigint();

  constructor() {
    this.loop.enable();
    this.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
        // 1: minor (scavenge); everything else counts as old-generation work.
        const bucket = kind === 1 ? this.gc.young : this.gc.old;
        bucket.count += 1;
        bucket.time += entry.duration;
      }
    });
    this.observer.observe({ entryTypes: ['gc'] });
  }

  sample(startedAt: number) {
    const now = process.hrtime.bigint();
    const cpu = process.cpuUsage(this.lastCpu);
    const wallUs = Number(now - this.lastAt) / 1000;
    this.lastCpu = process.cpuUsage();
    this.lastAt = now;
    const memory = process.memoryUsage();
    const heap = v8.getHeapStatistics();
    const spaces = Object.fromEntries(
      v8.getHeapSpaceStatistics().map((s) => {
        const peak = Math.max(this.peaks.get(s.space_name) ?? 0, s.space_used_size);
        this.peaks.set(s.space_name, peak);
        return [s.space_name, { used: s.space_used_size, max: s.space_size, peak }];
      }),
    );
    const pool = (name: string) => spaces[name] ?? { used: 0, max: 0, peak: 0 };
    const result = {
      timestamp: Date.now(),
      jvm: {
        timestamp: Date.now(),
        uptime_in_millis: Date.now() - startedAt,
        heap_used_in_bytes: memory.heapUsed,
        heap_committed_in_bytes: memory.heapTotal,
        heap_max_in_bytes: heap.heap_size_limit,
        heap_used_percent: Math.round((memory.heapUsed / heap.heap_size_limit) * 100),
        non_heap_used_in_bytes: memory.external + memory.arrayBuffers,
        non_heap_committed_in_bytes: memory.rss - memory.heapTotal,
        rss_in_bytes: memory.rss,
        // V8 heap spaces as the JVM pools of the screen: young = new_space (the scavenged
        // nursery), survivor = new_large_object_space (young objects too large for the nursery,
        // kept until they survive a scavenge), old = every other space (old, code, large object,
        // map/trusted spaces, ...), summed.
        pools: {
          young: pool('new_space'),
          survivor: pool('new_large_object_space'),
          old: sumPools(
            Object.entries(spaces)
              .filter(([name]) => name !== 'new_space' && name !== 'new_large_object_space')
              .map(([, space]) => space),
          ),
        },
        spaces,
      },
      gc: {
        young_collection_count: this.gc.young.count,
        young_collection_time_in_millis: Math.round(this.gc.young.time),
        old_collection_count: this.gc.old.count,
        old_collection_time_in_millis: Math.round(this.gc.old.time),
      },
      cpu: {
        percent_use:
          wallUs > 0
            ? Math.min(100, Math.round(((cpu.user + cpu.system) / wallUs / os.cpus().length) * 100))
            : 0,
        load_average: { '1m': os.loadavg()[0], '5m': os.loadavg()[1], '15m': os.loadavg()[2] },
      },
      process: { open_file_descriptors: openFds(), max_file_descriptors: maxFds(), cpu_percent: 0 },
      thread: { count: threads(), peak_count: threads() },
      event_loop: {
        delay_mean_ms: nanosToMs(this.loop.mean),
        delay_p99_ms: nanosToMs(this.loop.percentile(99)),
        delay_max_ms: nanosToMs(this.loop.max),
      },
    };
    this.loop.reset();
    return result;
  }

  close(): void {
    this.loop.disable();
    this.observer.disconnect();
  }
}

interface Pool {
  used: number;
  max: number;
  peak: number;
}

function sumPools(pools: Pool[]): Pool {
  return pools.reduce((a, p) => ({ used: a.used + p.used, max: a.max + p.max, peak: a.peak + p.peak }), {
    used: 0,
    max: 0,
    peak: 0,
  });
}

const nanosToMs = (n: number) => (Number.isFinite(n) ? Math.round(n / 1e4) / 100 : 0);

function openFds(): number {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return -1;
  }
}

function maxFds(): number {
  try {
    const match = /Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'));
    return match ? Number(match[1]) : -1;
  } catch {
    return -1;
  }
}

function threads(): number {
  try {
    const match = /Threads:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) : -1;
  } catch {
    return -1;
  }
}

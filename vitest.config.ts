import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const src = (pkg: string, file = 'index.ts') =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${file}`, import.meta.url));

/**
 * Three projects, run one after the other (`sequence.groupOrder`):
 * - `unit` (service, HTTP, storage and gateway tests, each on its own database and ports): four files at
 *   a time, in workers that keep their modules from one file to the next (an import and a process start
 *   cost ~2.5 s a file, ten times what most files' tests take). A file waits on PostgreSQL, sockets and
 *   timers for most of its time: with two workers the run used one core.
 * - `platform` (test/platform: Portico processes, Redis, SIGKILL scenarios): two files at a time, each
 *   in a fresh worker.
 * - `e2e` (the browser tests, each driving its own Portico and chromium, with more time per test and per
 *   polled expectation: a page on a busy 2-core runner may take seconds to show its data): two files at
 *   a time. One file left the cores ~14% idle (waits for pages, servers, timers); two at a time take each
 *   file ~1.5x longer but finish the four heaviest files in 151 s instead of 193 s.
 */
export default defineConfig({
  resolve: {
    alias: {
      '@portico/model': src('model'),
      '@portico/outbound': src('outbound'),
      '@portico/storage/testing': src('storage', 'testing.ts'),
      '@portico/storage': src('storage'),
      '@portico/management': src('management'),
      '@portico/gateway': src('gateway'),
    },
  },
  test: {
    // Portico processes the tests start hash passwords at bcrypt's cheapest cost: each start hashes the
    // administrator's password and the tests sign in by the hundred (cost 10 is ~0.3 s of CPU a time).
    env: { PORTICO_PASSWORD_HASH_COST: '4' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'test/support/**/*.test.ts'],
          // Files share their worker's modules instead of importing the whole app again each (an import
          // and a process start cost ~2.5 s a file, ten times what most files' tests take). Each file
          // still makes its own database, app and servers, and no test replaces a module.
          isolate: false,
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'platform',
          include: ['test/platform/**/*.test.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        // A page waits up to 10 s for each element; a test of several screens gets more than the default.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          expect: { poll: { timeout: 10_000 } },
          // A worker keeps its modules from file to file (playwright-core, the support files).
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});

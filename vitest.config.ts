import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const src = (pkg: string, file = 'index.ts') =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${file}`, import.meta.url));

/**
 * Two projects: `unit` (HTTP, storage, gateway and platform tests) and `e2e` (the browser tests, each
 * driving its own Portico and chromium, with more time per test and per polled expectation: a page on
 * a busy 2-core runner may take seconds to show its data). vitest runs their files one at a time on 2
 * cores; running the two projects side by side was tried and only made the browser tests starve.
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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
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
        },
      },
    ],
  },
});

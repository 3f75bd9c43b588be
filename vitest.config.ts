import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const src = (pkg: string, file = 'index.ts') =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${file}`, import.meta.url));

/**
 * Two projects, which `npm test` runs side by side in two vitest processes (test/support/run-tests.mjs):
 * `unit` (HTTP, storage, gateway and platform tests) and `e2e` (the browser tests, one file at a time, as
 * each drives its own Portico and chromium). On a 2-core machine vitest alone would run one file at a
 * time, leaving a core idle while a browser test waits on its page.
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
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 60_000 },
      },
    ],
  },
});

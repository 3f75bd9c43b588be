import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const src = (pkg: string, file = 'index.ts') =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${file}`, import.meta.url));

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
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});

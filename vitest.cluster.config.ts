import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The scenario of ten gateways and two management nodes (issue 22): twelve processes for about a
 * minute, so it runs on its own once the other tests are done (`npm test` ends with it; `npm run
 * test:cluster` runs it alone).
 */
export default mergeConfig(
  { resolve: base.resolve },
  defineConfig({
    test: {
      include: ['test/cluster/**/*.scenario.ts'],
      testTimeout: 600_000,
      hookTimeout: 300_000,
      pool: 'forks',
    },
  }),
);

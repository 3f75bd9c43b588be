import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:cluster`: the scenario of ten gateways and two management nodes (issue 22), apart from
 * `npm test` because it runs twelve processes for a few minutes.
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

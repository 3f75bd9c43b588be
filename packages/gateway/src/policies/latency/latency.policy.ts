import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { definePolicy } from '../policy.js';

const UNIT_MS = { MILLISECONDS: 1, SECONDS: 1000 } as const;
/** A longer delay is a configuration mistake (and overflows the timer). */
const MAX_DELAY_MS = 60 * 60 * 1000;

export const LatencyConfig = z
  .object({
    time: z.number().int().min(0),
    timeUnit: z.enum(['MILLISECONDS', 'SECONDS']).default('MILLISECONDS'),
  })
  .refine((c) => c.time * UNIT_MS[c.timeUnit] <= MAX_DELAY_MS, {
    message: 'The delay must be at most one hour',
    path: ['time'],
  });
export type LatencyConfig = z.infer<typeof LatencyConfig>;

export const latency = definePolicy({
  id: 'latency',
  name: 'Latency',
  description: 'Waits for a time before calling the backend (to simulate a slow network or backend).',
  configSchema: LatencyConfig,
  writesNoInputIntoHeaders: true,
  async onRequest(_ctx, config) {
    const ms = config.time * UNIT_MS[config.timeUnit];
    if (ms > 0) await sleep(ms);
  },
});

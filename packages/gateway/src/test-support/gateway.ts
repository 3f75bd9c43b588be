import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventBus, Storage } from '@portico/storage';
import type { GatewayOptions, RunningGateway } from '../gateway.js';
import { DEFAULT_GATEWAY_OPTIONS, startGateway } from '../gateway.js';

const quiet = { info: () => {}, warn: () => {}, error: (m: string) => console.error(m) };

/** A gateway on a free port of this machine, with its own snapshot folder. */
export async function startTestGateway(
  storage: Storage,
  bus: EventBus,
  overrides: Partial<GatewayOptions> = {},
): Promise<RunningGateway & { url: string; dataDir: string; cleanup(): Promise<void> }> {
  const dataDir = overrides.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'portico-gw-'));
  const gateway = await startGateway(storage, bus, {
    ...DEFAULT_GATEWAY_OPTIONS,
    port: 0,
    host: '127.0.0.1',
    tags: [],
    dataDir,
    version: 'test',
    log: quiet,
    reporter: { flushIntervalMs: 50 },
    ...overrides,
  });
  return {
    ...gateway,
    url: `http://127.0.0.1:${gateway.port}`,
    dataDir,
    async cleanup() {
      await gateway.stop();
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

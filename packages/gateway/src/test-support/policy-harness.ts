import type { DeployedApi } from '@portico/model';
import { EventBus } from '@portico/storage';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import type { Backend, BackendOptions } from './backends.js';
import { startBackend } from './backends.js';
import { publishEvent } from './deployments.js';
import { startTestGateway } from './gateway.js';

/** Retries `check` until it passes or `timeoutMs` is over (then throws its last error). */
export async function eventually(check: () => Promise<void> | void, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

export interface PolicyHarness {
  t: TestDatabase;
  bus: EventBus;
  gateway: Awaited<ReturnType<typeof startTestGateway>>;
  backend: Backend;
  /** Publishes the API and waits until this gateway serves it, without calling it. */
  deploy(api: DeployedApi): Promise<void>;
  close(): Promise<void>;
}

/** A SQLite database, a real backend and a real gateway: what a policy test file needs. */
export async function startPolicyHarness(backendOptions: BackendOptions = {}): Promise<PolicyHarness> {
  const t = await createTestDatabase('sqlite');
  const bus = new EventBus();
  const backend = await startBackend(backendOptions);
  const gateway = await startTestGateway(t.storage, bus);
  return {
    t,
    bus,
    gateway,
    backend,
    async deploy(api) {
      await publishEvent(t.storage.db, bus, 'PUBLISH_API', api);
      await eventually(async () => {
        await gateway.sync.sync();
        if (!gateway.sync.servedApis().some((served) => served.id === api.id))
          throw new Error(`API ${api.name} is not served (does its definition compile?)`);
      }, 2000);
    },
    async close() {
      await gateway.cleanup();
      await backend.close();
      await t.destroy();
    },
  };
}

/** What the test backend says it received. */
export interface Echo {
  backend: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

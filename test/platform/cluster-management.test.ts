import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, findLease, type Storage } from '@portico/storage';
import { createEmptyPostgresDatabase, testDialects } from '@portico/storage/testing';
import { SCHEDULER_LEASE } from '../../packages/management/src/features/scheduler/scheduler.js';
import { login, startPortico, type PorticoProcess } from '../support/portico-process.js';

const signIn = (managementUrl: string, password: string) =>
  fetch(`${managementUrl}/user/login`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` },
  });

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Two management nodes on one PostgreSQL are interchangeable (issue 22, item 4): a token of one works
 * on the other, failed sign-ins count on both, scheduled work runs in the lease holder and carries on
 * in the other node when the holder is killed, and a node leaves on SIGTERM with exit 0.
 */
const dialects = await testDialects();
describe.skipIf(!dialects.includes('postgres'))('two management nodes', () => {
  let database: { url: string; drop(): Promise<void> };
  let storage: Storage;
  const nodes: PorticoProcess[] = [];

  beforeAll(async () => {
    database = await createEmptyPostgresDatabase();
    const env = {
      DATABASE_URL: database.url,
      PORTICO_SCHEDULER_LEASE_MS: '1500',
      PORTICO_DRAIN_MIN_MS: '100',
      PORTICO_DRAIN_MAX_MS: '5000',
    };
    nodes.push(await startPortico('management', env));
    nodes.push(await startPortico('management', env));
    storage = connect({ databaseUrl: database.url, dataDir: os.tmpdir() });
  });
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.kill('SIGKILL')));
    await storage?.close();
    await database?.drop();
  });

  it('answers /live and /ready outside /management/', async () => {
    for (const node of nodes) {
      const base = node.managementUrl.replace(/\/management$/, '');
      expect((await fetch(`${base}/live`)).status).toBe(200);
      const ready = await fetch(`${base}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'READY' });
    }
  });

  it('accepts on one node the token signed in on the other', async () => {
    const token = await login(nodes[0]!.managementUrl, 'admin', 'admin');
    const res = await fetch(`${nodes[1]!.managementUrl}/user`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { username: string }).username).toBe('admin');
  });

  it('counts failed sign-ins over both nodes', async () => {
    // Wrong passwords, alternately on each node. Counted per node, the account would wait only after
    // five failures on each (ten); counted together, after five in all (a few more when a one-second
    // wait lapses between two attempts on a slow machine).
    let failures = 0;
    let blocked: Response | undefined;
    for (let i = 0; i < 12 && !blocked; i++) {
      const res = await signIn(nodes[i % 2]!.managementUrl, 'wrong');
      if (res.status === 429) blocked = res;
      else {
        expect(res.status).toBe(401);
        failures++;
      }
    }
    expect(blocked?.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(failures).toBeGreaterThanOrEqual(5);
    expect(failures).toBeLessThan(8);
  });

  it('runs scheduled work in one node and carries on in the other when it is killed', async () => {
    const pids = nodes.map((n) => n.child.pid!);
    const holderPid = await until('a node holds the scheduler lease', async () => {
      const lease = await findLease(storage.db, SCHEDULER_LEASE);
      const pid = lease && lease.expires_at > Date.now() ? Number(lease.owner.split(':')[1]) : undefined;
      return pid !== undefined && pids.includes(pid) ? pid : undefined;
    });
    const holder = nodes[pids.indexOf(holderPid)]!;
    const other = nodes[1 - pids.indexOf(holderPid)]!;
    expect(await holder.kill('SIGKILL')).toBeNull();
    await until('the other node takes the lease over', async () => {
      const lease = await findLease(storage.db, SCHEDULER_LEASE);
      return lease?.owner.split(':')[1] === String(other.child.pid) && lease.expires_at > Date.now()
        ? true
        : undefined;
    });

    // The survivor leaves on SIGTERM: it drains, gives the lease up and exits 0.
    expect(await other.kill('SIGTERM')).toBe(0);
    expect((await findLease(storage.db, SCHEDULER_LEASE))?.expires_at).toBe(0);
  });
});

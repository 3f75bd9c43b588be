import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmptyPostgresDatabase, testDialects } from '@portico/storage/testing';
import { login, startPortico } from '../support/portico-process.js';

/**
 * A server killed with SIGKILL in the middle of a stream of writes loses none of the writes it
 * answered with success: after a restart every one of them is there.
 */
for (const dialect of await testDialects()) {
  describe(`${dialect}: crash recovery`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c();
    });

    it('keeps every answered write after SIGKILL and restart', async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-crash-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const env: Record<string, string> = { PORTICO_DATA_DIR: dataDir };
      if (dialect === 'postgres') {
        const database = await createEmptyPostgresDatabase();
        cleanups.push(() => database.drop());
        env.DATABASE_URL = database.url;
      }

      const first = await startPortico('management', env);
      const token = await login(first.managementUrl, 'admin', 'admin');
      const answered: string[] = [];
      let stop = false;
      // Four concurrent writers create users until the server dies under them.
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const email = `crash-${w}-${i}@example.test`;
          try {
            const res = await fetch(`${first.managementUrl}/users`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ firstname: 'Crash', lastname: `W${w}`, email }),
            });
            if (res.status === 201) answered.push(email);
            else if (res.status >= 500) throw new Error(`unexpected ${res.status}`);
          } catch {
            return; // the server is gone
          }
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      while (answered.length < 40) await new Promise((r) => setTimeout(r, 10));
      await first.kill('SIGKILL');
      stop = true;
      await Promise.all(writers);
      expect(answered.length).toBeGreaterThanOrEqual(40);

      const second = await startPortico('management', env);
      cleanups.push(async () => void (await second.kill()));
      const token2 = await login(second.managementUrl, 'admin', 'admin');
      const res = await fetch(`${second.managementUrl}/users?size=1000&q=crash-`, {
        headers: { Authorization: `Bearer ${token2}` },
      });
      const page = (await res.json()) as { data: { email: string }[] };
      const stored = new Set(page.data.map((u) => u.email));
      const lost = answered.filter((e) => !stored.has(e));
      expect(lost).toEqual([]);
    });

    it('stops cleanly on SIGTERM', async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portico-term-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const env: Record<string, string> = { PORTICO_DATA_DIR: dataDir };
      if (dialect === 'postgres') {
        const database = await createEmptyPostgresDatabase();
        cleanups.push(() => database.drop());
        env.DATABASE_URL = database.url;
      }
      const server = await startPortico('management', env);
      const code = await server.kill('SIGTERM');
      expect(code).toBe(0);
      expect(server.output()).toContain('SIGTERM received: draining, then stopping');
    });
  });
}

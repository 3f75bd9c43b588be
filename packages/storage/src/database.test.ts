import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from './database.js';

describe('PostgreSQL connection timeout', () => {
  // A host that accepts connections and never answers (a black hole, as a dropped route behind a proxy).
  const held: Socket[] = [];
  const silent = createServer((socket) => void held.push(socket));
  afterAll(async () => {
    for (const s of held) s.destroy();
    silent.close();
    await once(silent, 'close');
  });

  it('fails a connection to a host that does not answer after connectTimeoutMs, not the system TCP timeout', async () => {
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    const storage = connect({
      databaseUrl: `postgres://postgres@127.0.0.1:${port}/portico`,
      dataDir: '.',
      connectTimeoutMs: 300,
    });
    const started = Date.now();
    await expect(storage.ping()).rejects.toThrow(/timeout/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(held.length).toBeGreaterThan(0);
    await storage.close();
  });
});

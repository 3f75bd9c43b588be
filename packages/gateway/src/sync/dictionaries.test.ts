import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  indexRequestSegments,
  insertDictionary,
  insertEvent,
  updateDictionary,
} from '@portico/storage';
import { deployedApi } from '../test-support/deployments.js';
import {
  eventually,
  startPolicyHarness,
  type Echo,
  type PolicyHarness,
} from '../test-support/policy-harness.js';
import { createTestDatabase } from '@portico/storage/testing';
import { DictionarySync } from './dictionaries.js';

/**
 * What the management API writes when it deploys (properties) or undeploys (null) a dictionary: the
 * event, the served properties and the event's sequence on the row, then a bus message.
 */
async function deployDictionary(h: PolicyHarness, id: string, properties: Record<string, string> | null) {
  const db = h.t.storage.db;
  const now = Date.now();
  const exists = await db.selectFrom('dictionaries').select('id').where('id', '=', id).executeTakeFirst();
  if (!exists)
    await insertDictionary(db, {
      id,
      name: `${id} name`,
      type: 'MANUAL',
      state: 'STOPPED',
      properties: '{}',
      created_at: now,
      updated_at: now,
    });
  const type = properties ? 'PUBLISH_DICTIONARY' : 'UNPUBLISH_DICTIONARY';
  const event = await insertEvent(db, {
    id: randomUUID(),
    type,
    payload: JSON.stringify({ id, properties }),
    properties: JSON.stringify({ dictionary_id: id }),
    api_id: null,
    user_id: null,
    created_at: now,
    updated_at: now,
  });
  await updateDictionary(db, id, {
    deployed_properties: properties ? JSON.stringify(properties) : null,
    deploy_seq: event.seq,
    deployed_at: now,
  });
  h.bus.publish({ kind: 'event', id: type });
}

describe('gateway: deployed dictionaries in expressions', () => {
  let h: PolicyHarness;
  beforeAll(async () => {
    h = await startPolicyHarness();
    const api = deployedApi('/dict', [h.backend.url], {
      definition: {
        proxy: {
          context_path: '/dict',
          // Logged only when the dictionary says so: a CEL condition reading it.
          logging: { mode: 'CLIENT', condition: "dictionaries['hosts']['log'] == 'on'" },
          groups: [{ name: 'default', endpoints: [{ name: 'e0', target: h.backend.url }] }],
        } as never,
        paths: {
          '/': [
            {
              'transform-headers': {
                scope: 'REQUEST',
                addHeaders: [
                  { name: 'X-Region-Host', value: "{#dictionaries['hosts']['eu']}" },
                  { name: 'X-By-Name', value: "{#dictionaries['hosts name']['eu']}" },
                  {
                    name: 'X-Missing',
                    value: "[{#dictionaries['hosts']['nowhere']}{#dictionaries['constructor']['x']}]",
                  },
                ],
              },
            },
          ],
        },
      },
    });
    await h.deploy(api);
  });
  afterAll(() => h?.close());

  const call = async () => {
    const res = await fetch(`${h.gateway.url}/dict/x`);
    expect(res.status).toBe(200);
    return { res, seen: (await res.json()) as Echo };
  };
  const logged = async (res: Response) => {
    await h.gateway.reporter.flush();
    await indexRequestSegments(h.t.storage.db);
    const id = res.headers.get('x-request-id')!;
    return h.t.storage.db.selectFrom('request_logs').select('id').where('id', '=', id).executeTakeFirst();
  };

  it('renders a deployed value in a policy template, by id and by name, and follows redeployments', async () => {
    await deployDictionary(h, 'hosts', { eu: 'eu.example' });
    await eventually(async () => {
      const { seen } = await call();
      expect(seen.headers['x-region-host']).toBe('eu.example');
      expect(seen.headers['x-by-name']).toBe('eu.example');
      expect(seen.headers['x-missing']).toBe('[]');
    });

    await deployDictionary(h, 'hosts', { eu: 'eu2.example' });
    await eventually(async () => expect((await call()).seen.headers['x-region-host']).toBe('eu2.example'));

    await deployDictionary(h, 'hosts', null);
    await eventually(async () => expect((await call()).seen.headers['x-region-host']).toBe(''));
  });

  it('lets a CEL condition read a deployed value', async () => {
    await deployDictionary(h, 'hosts', { eu: 'quiet.example', log: 'off' });
    let res: Response | undefined;
    await eventually(async () => {
      const answer = await call();
      expect(answer.seen.headers['x-region-host']).toBe('quiet.example');
      res = answer.res;
    });
    expect(await logged(res!)).toBeUndefined();

    await deployDictionary(h, 'hosts', { eu: 'loud.example', log: 'on' });
    await eventually(async () => {
      const answer = await call();
      expect(answer.seen.headers['x-region-host']).toBe('loud.example');
      res = answer.res;
    });
    expect(await logged(res!)).toBeDefined();
  });
});

describe('gateway: dictionaries when the database is down', () => {
  it('serves the dictionaries it last saw, from its file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'portico-dict-'));
    const file = path.join(dir, 'dictionaries.json');
    const quiet = { info: () => {}, warn: () => {} };
    const up = await createTestDatabase('sqlite');
    const down = await createTestDatabase('sqlite');
    try {
      await insertDictionary(up.storage.db, {
        id: 'hosts',
        name: 'Hosts',
        type: 'MANUAL',
        state: 'STOPPED',
        properties: '{}',
        created_at: 1,
        updated_at: 1,
        deployed_properties: '{"eu":"eu.example"}',
        deploy_seq: 1,
      });
      const first = new DictionarySync(up.storage.db, { file, pollMs: 60_000, log: quiet });
      await first.start();
      expect(first.current()['hosts']?.['eu']).toBe('eu.example');
      await first.stop();

      await down.storage.close();
      const second = new DictionarySync(down.storage.db, { file, pollMs: 60_000, log: quiet });
      await second.start();
      expect(second.current()['Hosts']?.['eu']).toBe('eu.example');
      await second.stop();
    } finally {
      await up.destroy();
      rmSync(down.dataDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves its file at once, without waiting for a database that does not answer, when told to', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'portico-dict-'));
    const file = path.join(dir, 'dictionaries.json');
    const quiet = { info: () => {}, warn: () => {} };
    // Accepts connections and never answers.
    const held: Socket[] = [];
    const silent = createServer((socket) => void held.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const storage = connect({
      databaseUrl: `postgres://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/portico`,
      dataDir: dir,
      connectTimeoutMs: 1000,
    });
    try {
      writeFileSync(
        file,
        JSON.stringify({
          version: 1,
          dictionaries: [['hosts', { name: 'Hosts', seq: 1, properties: { eu: 'eu.example' } }]],
        }),
      );
      const sync = new DictionarySync(storage.db, { file, pollMs: 60_000, log: quiet });
      const started = Date.now();
      await sync.start(false);
      expect(Date.now() - started).toBeLessThan(500);
      expect(sync.current()['hosts']?.['eu']).toBe('eu.example');
      await sync.stop();
    } finally {
      await storage.close();
      for (const s of held) s.destroy();
      silent.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

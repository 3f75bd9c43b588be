import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findEventById, findEventsAfter, findEventsOfApi, insertEvent } from './events.repository.js';
import type { NewEventRow } from './events.table.js';

const NOW = 1_790_000_000_000;

function event(id: string, changes: Partial<NewEventRow> = {}): NewEventRow {
  return {
    id,
    type: 'PUBLISH_API',
    properties: '{}',
    api_id: 'api1',
    created_at: NOW,
    updated_at: NOW,
    ...changes,
  };
}

const GATEWAY_TYPES = ['PUBLISH_API', 'UNPUBLISH_API', 'START_API', 'STOP_API'];

for (const dialect of await testDialects()) {
  describe(`${dialect}: events repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('events').execute();
    });

    describe('insertEvent', () => {
      it('returns the stored event with its sequence number', async () => {
        const row = {
          id: 'e1',
          type: 'PUBLISH_API',
          payload: '{"id":"api1"}',
          properties: '{"deployment_number":"1"}',
          api_id: 'api1',
          user_id: 'u1',
          created_at: NOW,
          updated_at: NOW + 1,
        };

        const stored = await insertEvent(t.storage.db, row);

        expect(stored).toEqual({
          ...row,
          seq: expect.any(Number),
          // PostgreSQL: the writing transaction (the gateways' sync order); SQLite leaves it empty.
          sync_tx: dialect === 'postgres' ? expect.any(Number) : null,
        });
        expect(await findEventById(t.storage.db, 'e1')).toEqual(stored);
      });

      it('leaves the optional columns null', async () => {
        const stored = await insertEvent(t.storage.db, {
          id: 'e1',
          type: 'STOP_API',
          properties: '{}',
          created_at: NOW,
          updated_at: NOW,
        });

        expect(stored).toMatchObject({ payload: null, api_id: null, user_id: null });
      });

      it('numbers events in increasing order', async () => {
        const seqs: number[] = [];
        for (let i = 0; i < 5; i++) seqs.push((await insertEvent(t.storage.db, event(`e${i}`))).seq);

        expect(seqs.every((s) => typeof s === 'number')).toBe(true);
        expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
        expect(new Set(seqs).size).toBe(5);
      });

      it('never reuses the sequence number of a deleted event', async () => {
        const first = await insertEvent(t.storage.db, event('e1'));
        await t.storage.db.deleteFrom('events').execute();

        const second = await insertEvent(t.storage.db, event('e2'));

        expect(second.seq).toBeGreaterThan(first.seq);
      });

      it('refuses a second event with the same id', async () => {
        await insertEvent(t.storage.db, event('e1'));

        await expect(insertEvent(t.storage.db, event('e1'))).rejects.toThrow();
      });
    });

    describe('findEventById', () => {
      it('returns undefined for an unknown id', async () => {
        await insertEvent(t.storage.db, event('e1'));

        expect(await findEventById(t.storage.db, 'e2')).toBeUndefined();
      });
    });

    describe('findEventsAfter', () => {
      it('returns the events after the cursor, in sequence order', async () => {
        const e1 = await insertEvent(t.storage.db, event('e1'));
        await insertEvent(t.storage.db, event('e2', { type: 'STOP_API' }));
        await insertEvent(t.storage.db, event('e3', { type: 'START_API' }));

        const rows = await findEventsAfter(t.storage.db, e1.seq, GATEWAY_TYPES, 100);

        expect(rows.map((r) => r.id)).toEqual(['e2', 'e3']);
      });

      it('returns every event from cursor 0', async () => {
        await insertEvent(t.storage.db, event('e1'));
        await insertEvent(t.storage.db, event('e2'));

        expect((await findEventsAfter(t.storage.db, 0, GATEWAY_TYPES, 100)).map((r) => r.id)).toEqual([
          'e1',
          'e2',
        ]);
      });

      it('returns only the events of the given types', async () => {
        await insertEvent(t.storage.db, event('e1', { type: 'PUBLISH_API' }));
        await insertEvent(t.storage.db, event('e2', { type: 'PUBLISH_DICTIONARY' }));
        await insertEvent(t.storage.db, event('e3', { type: 'STOP_API' }));
        await insertEvent(t.storage.db, event('e4', { type: 'START_API' }));

        const rows = await findEventsAfter(t.storage.db, 0, ['PUBLISH_API', 'STOP_API'], 100);

        expect(rows.map((r) => r.id)).toEqual(['e1', 'e3']);
      });

      it('returns at most limit events, the oldest first', async () => {
        for (let i = 1; i <= 5; i++) await insertEvent(t.storage.db, event(`e${i}`));

        const first = await findEventsAfter(t.storage.db, 0, GATEWAY_TYPES, 2);
        const next = await findEventsAfter(t.storage.db, first[1]!.seq, GATEWAY_TYPES, 2);

        expect(first.map((r) => r.id)).toEqual(['e1', 'e2']);
        expect(next.map((r) => r.id)).toEqual(['e3', 'e4']);
      });

      it('returns nothing once the cursor is at the last event', async () => {
        await insertEvent(t.storage.db, event('e1'));
        const last = await insertEvent(t.storage.db, event('e2'));

        expect(await findEventsAfter(t.storage.db, last.seq, GATEWAY_TYPES, 100)).toEqual([]);
      });

      it('returns nothing for an empty list of types', async () => {
        await insertEvent(t.storage.db, event('e1'));

        expect(await findEventsAfter(t.storage.db, 0, [], 100)).toEqual([]);
      });
    });

    describe('findEventsOfApi', () => {
      it('returns the events of the API, newest first', async () => {
        await insertEvent(t.storage.db, event('e1', { api_id: 'api1', type: 'PUBLISH_API' }));
        await insertEvent(t.storage.db, event('e2', { api_id: 'api2', type: 'PUBLISH_API' }));
        await insertEvent(t.storage.db, event('e3', { api_id: 'api1', type: 'START_API' }));
        await insertEvent(t.storage.db, event('e4', { api_id: null, type: 'PUBLISH_DICTIONARY' }));

        const rows = await findEventsOfApi(t.storage.db, 'api1', undefined);

        expect(rows.map((r) => r.id)).toEqual(['e3', 'e1']);
      });

      it('returns only the events of the given types', async () => {
        await insertEvent(t.storage.db, event('e1', { type: 'PUBLISH_API' }));
        await insertEvent(t.storage.db, event('e2', { type: 'START_API' }));
        await insertEvent(t.storage.db, event('e3', { type: 'PUBLISH_API' }));
        await insertEvent(t.storage.db, event('e4', { type: 'STOP_API' }));

        const rows = await findEventsOfApi(t.storage.db, 'api1', ['PUBLISH_API', 'STOP_API']);

        expect(rows.map((r) => r.id)).toEqual(['e4', 'e3', 'e1']);
      });

      it('returns events of every type for an empty list of types', async () => {
        await insertEvent(t.storage.db, event('e1', { type: 'PUBLISH_API' }));
        await insertEvent(t.storage.db, event('e2', { type: 'STOP_API' }));

        expect((await findEventsOfApi(t.storage.db, 'api1', [])).map((r) => r.id)).toEqual(['e2', 'e1']);
      });

      it('returns nothing for an API without events', async () => {
        await insertEvent(t.storage.db, event('e1', { api_id: 'api1' }));

        expect(await findEventsOfApi(t.storage.db, 'api9', undefined)).toEqual([]);
      });
    });
  });
}

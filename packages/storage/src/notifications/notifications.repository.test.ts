import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  deleteNotificationsOfUser,
  findNotificationsOfUser,
  insertNotification,
} from './notifications.repository.js';
import type { NewNotificationRow } from './notifications.table.js';

const NOW = 1_790_000_000_000;

function notification(id: string, changes: Partial<NewNotificationRow> = {}): NewNotificationRow {
  return { id, user_id: 'u1', title: `Title ${id}`, message: `Message ${id}`, created_at: NOW, ...changes };
}

const ALL = { offset: 0, limit: 100 };

for (const dialect of await testDialects()) {
  describe(`${dialect}: notifications repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('notifications').execute();
    });

    async function idsOf(userId: string): Promise<string[]> {
      return (await findNotificationsOfUser(t.storage.db, userId, ALL)).rows.map((r) => r.id);
    }

    describe('insertNotification and findNotificationsOfUser', () => {
      it('stores every column of the notification', async () => {
        const row = notification('n1', {
          title: 'Subscription accepted',
          message: 'Your subscription to Echo',
        });
        await insertNotification(t.storage.db, row);

        expect(await findNotificationsOfUser(t.storage.db, 'u1', ALL)).toEqual({ rows: [row], total: 1 });
      });

      it("returns only the user's notifications, newest first", async () => {
        await insertNotification(t.storage.db, notification('n1', { created_at: NOW + 1 }));
        await insertNotification(t.storage.db, notification('n2', { created_at: NOW + 3 }));
        await insertNotification(t.storage.db, notification('n3', { user_id: 'u2', created_at: NOW + 2 }));
        await insertNotification(t.storage.db, notification('n4', { created_at: NOW + 2 }));

        const result = await findNotificationsOfUser(t.storage.db, 'u1', ALL);

        expect(result.rows.map((r) => r.id)).toEqual(['n2', 'n4', 'n1']);
        expect(result.total).toBe(3);
      });

      it('orders notifications of the same instant by id', async () => {
        for (const id of ['n3', 'n1', 'n2']) await insertNotification(t.storage.db, notification(id));

        expect(await idsOf('u1')).toEqual(['n1', 'n2', 'n3']);
      });

      it('pages with offset and limit and counts all the notifications of the user in the total', async () => {
        for (let i = 0; i < 5; i++)
          await insertNotification(t.storage.db, notification(`n${i}`, { created_at: NOW + i }));
        await insertNotification(t.storage.db, notification('other', { user_id: 'u2' }));

        const first = await findNotificationsOfUser(t.storage.db, 'u1', { offset: 0, limit: 2 });
        const last = await findNotificationsOfUser(t.storage.db, 'u1', { offset: 4, limit: 2 });
        const beyond = await findNotificationsOfUser(t.storage.db, 'u1', { offset: 5, limit: 2 });

        expect(first.rows.map((r) => r.id)).toEqual(['n4', 'n3']);
        expect(first.total).toBe(5);
        expect(last.rows.map((r) => r.id)).toEqual(['n0']);
        expect(last.total).toBe(5);
        expect(beyond).toEqual({ rows: [], total: 5 });
      });

      it('returns nothing for a user without notifications', async () => {
        await insertNotification(t.storage.db, notification('n1'));

        expect(await findNotificationsOfUser(t.storage.db, 'u9', ALL)).toEqual({ rows: [], total: 0 });
      });
    });

    describe('deleteNotificationsOfUser', () => {
      it('deletes one notification of the user by id and returns 1', async () => {
        await insertNotification(t.storage.db, notification('n1'));
        await insertNotification(t.storage.db, notification('n2'));

        expect(await deleteNotificationsOfUser(t.storage.db, 'u1', 'n1')).toBe(1);
        expect(await idsOf('u1')).toEqual(['n2']);
      });

      it("does not delete another user's notification, even by its id", async () => {
        await insertNotification(t.storage.db, notification('n1', { user_id: 'u2' }));

        expect(await deleteNotificationsOfUser(t.storage.db, 'u1', 'n1')).toBe(0);
        expect(await idsOf('u2')).toEqual(['n1']);
      });

      it("deletes all the user's notifications and only those, returning how many went", async () => {
        await insertNotification(t.storage.db, notification('n1'));
        await insertNotification(t.storage.db, notification('n2'));
        await insertNotification(t.storage.db, notification('n3', { user_id: 'u2' }));

        expect(await deleteNotificationsOfUser(t.storage.db, 'u1')).toBe(2);
        expect(await idsOf('u1')).toEqual([]);
        expect(await idsOf('u2')).toEqual(['n3']);
      });

      it('returns 0 when the user has nothing to delete', async () => {
        await insertNotification(t.storage.db, notification('n1', { user_id: 'u2' }));

        expect(await deleteNotificationsOfUser(t.storage.db, 'u1')).toBe(0);
        expect(await deleteNotificationsOfUser(t.storage.db, 'u1', 'missing')).toBe(0);
      });
    });
  });
}

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import { findRecentMails, insertMail, updateMailStatus } from './mails.repository.js';
import type { NewMailRow } from './mails.table.js';

const NOW = 1_790_000_000_000;

function mail(id: string, changes: Partial<NewMailRow> = {}): NewMailRow {
  return {
    id,
    recipients: '["jdoe@example.test"]',
    subject: `Subject ${id}`,
    text: 'Hello',
    status: 'PENDING',
    created_at: NOW,
    ...changes,
  };
}

for (const dialect of await testDialects()) {
  describe(`${dialect}: mails repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await t.destroy();
    });
    beforeEach(async () => {
      await t.storage.db.deleteFrom('mails').execute();
    });

    describe('insertMail', () => {
      it('stores every column of the mail', async () => {
        const row = {
          id: 'm1',
          recipients: '["a@example.test","b@example.test"]',
          subject: 'Welcome',
          text: 'Hello',
          html: '<p>Hello</p>',
          status: 'SENT',
          error: null,
          created_at: NOW,
          sent_at: NOW + 1,
        };
        await insertMail(t.storage.db, row);

        expect(await findRecentMails(t.storage.db, 10)).toEqual([row]);
      });

      it('leaves html, error and sending instant null unless given', async () => {
        await insertMail(t.storage.db, mail('m1'));

        expect((await findRecentMails(t.storage.db, 10))[0]).toMatchObject({
          html: null,
          error: null,
          sent_at: null,
        });
      });
    });

    describe('updateMailStatus', () => {
      it('records a successful delivery with its instant', async () => {
        await insertMail(t.storage.db, mail('m1'));

        await updateMailStatus(t.storage.db, 'm1', 'SENT', null, NOW + 7);

        expect((await findRecentMails(t.storage.db, 10))[0]).toMatchObject({
          status: 'SENT',
          error: null,
          sent_at: NOW + 7,
        });
      });

      it('records a failure with its error and clears an earlier sending instant', async () => {
        await insertMail(t.storage.db, mail('m1', { status: 'SENT', sent_at: NOW + 1 }));

        await updateMailStatus(t.storage.db, 'm1', 'FAILED', 'Connection refused', null);

        expect((await findRecentMails(t.storage.db, 10))[0]).toMatchObject({
          status: 'FAILED',
          error: 'Connection refused',
          sent_at: null,
        });
      });

      it('changes that mail only', async () => {
        await insertMail(t.storage.db, mail('m1'));
        await insertMail(t.storage.db, mail('m2'));

        await updateMailStatus(t.storage.db, 'm1', 'LOGGED', null, NOW);

        const rows = await findRecentMails(t.storage.db, 10);
        expect(rows.map((r) => [r.id, r.status])).toEqual([
          ['m1', 'LOGGED'],
          ['m2', 'PENDING'],
        ]);
      });
    });

    describe('findRecentMails', () => {
      it('returns the newest mails first, at most limit of them', async () => {
        for (let i = 0; i < 5; i++) await insertMail(t.storage.db, mail(`m${i}`, { created_at: NOW + i }));

        expect((await findRecentMails(t.storage.db, 3)).map((r) => r.id)).toEqual(['m4', 'm3', 'm2']);
        expect(await findRecentMails(t.storage.db, 10)).toHaveLength(5);
      });

      it('orders mails of the same instant by id', async () => {
        for (const id of ['m3', 'm1', 'm2']) await insertMail(t.storage.db, mail(id));

        expect((await findRecentMails(t.storage.db, 10)).map((r) => r.id)).toEqual(['m1', 'm2', 'm3']);
      });

      it('returns nothing when the outbox is empty', async () => {
        expect(await findRecentMails(t.storage.db, 10)).toEqual([]);
      });
    });
  });
}

import type { Executor } from '../database.js';
import type { MailRow, NewMailRow } from './mails.table.js';

export async function insertMail(db: Executor, row: NewMailRow): Promise<void> {
  await db.insertInto('mails').values(row).execute();
}

export async function updateMailStatus(
  db: Executor,
  id: string,
  status: string,
  error: string | null,
  sentAt: number | null,
): Promise<void> {
  await db.updateTable('mails').set({ status, error, sent_at: sentAt }).where('id', '=', id).execute();
}

/** The newest mails first (the outbox screen and tests read it). */
export async function findRecentMails(db: Executor, limit: number): Promise<MailRow[]> {
  return db
    .selectFrom('mails')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

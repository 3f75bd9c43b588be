import type { Insertable, Selectable } from 'kysely';

/** The mail outbox: every mail the platform sends, with its delivery status (SENT, LOGGED, FAILED). */
export interface MailTable {
  id: string;
  /** JSON list of addresses. */
  recipients: string;
  subject: string;
  text: string;
  html: string | null;
  status: string;
  error: string | null;
  created_at: number;
  sent_at: number | null;
}
export type MailRow = Selectable<MailTable>;
export type NewMailRow = Insertable<MailTable>;

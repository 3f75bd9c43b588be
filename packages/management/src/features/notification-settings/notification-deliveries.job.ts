import type { OutboundPolicy } from '@portico/outbound';
import { outboundFetch } from '@portico/outbound';
import type { Database, NotificationDeliveryRow } from '@portico/storage';
import {
  claimNotificationDelivery,
  findDueNotificationDeliveries,
  recordNotificationAttempt,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { MailService } from '../mail/mail.service.js';
import type { ScheduledJob } from '../scheduler/scheduler.js';
import { emailRecipients } from './notification-settings.service.js';

/** Attempts per delivery before it is recorded as FAILED. */
export const MAX_DELIVERY_ATTEMPTS = 5;
/** Wait after the first failure; doubled after each one (10 s, 20 s, 40 s, 80 s). */
export const FIRST_RETRY_MS = 10_000;
const BATCH = 50;
const WEBHOOK_TIMEOUT_MS = 10_000;
/**
 * How long an attempt holds its delivery: longer than a webhook's timeout and a mail's sending, so that
 * a process that takes the scheduler over meanwhile does not send it again; a process that dies while
 * sending leaves it due again after this.
 */
export const DELIVERY_CLAIM_MS = 60_000;

export interface DeliveryJobDeps {
  db: Kysely<Database>;
  mail: MailService;
  policy: OutboundPolicy;
  now(): number;
  log: { warn(details: object, message: string): void };
}

async function deliver(deps: DeliveryJobDeps, d: NotificationDeliveryRow): Promise<void> {
  const payload = JSON.parse(d.payload) as { title: string; message: string };
  if (d.notifier === 'EMAIL') {
    const sent = await deps.mail.send({
      to: emailRecipients(d.target),
      subject: payload.title,
      text: `${payload.message}\n`,
    });
    if (sent.status === 'FAILED') throw new Error('the mail could not be sent');
    return;
  }
  const response = await outboundFetch(d.target, {
    policy: deps.policy,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: d.payload,
    useSystemProxy: d.use_system_proxy === 1,
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    maxBytes: 64 * 1024,
  });
  if (response.status < 200 || response.status >= 300)
    throw new Error(`the webhook answered HTTP ${response.status}`);
}

/**
 * Sends the outbox's due deliveries (mails and webhooks of notification settings). A failure is
 * recorded on the row (`last_error`) and tried again with exponential backoff; after
 * MAX_DELIVERY_ATTEMPTS the row stays FAILED. Each attempt is recorded only if the row still has the
 * attempt count it was read with, so a takeover by another process does not record it twice; each
 * attempt first claims its row (DELIVERY_CLAIM_MS), so that no other process sends it meanwhile.
 */
export function notificationDeliveriesJob(deps: DeliveryJobDeps): ScheduledJob {
  return {
    name: 'notification-deliveries',
    async run() {
      const due = await findDueNotificationDeliveries(deps.db, deps.now(), BATCH);
      for (const d of due) {
        const claimed = deps.now();
        if (
          !(await claimNotificationDelivery(deps.db, d.id, d.attempts, claimed, claimed + DELIVERY_CLAIM_MS))
        )
          continue;
        let error: string | null = null;
        try {
          await deliver(deps, d);
        } catch (e) {
          error = e instanceof Error ? e.message : String(e);
        }
        const attempts = d.attempts + 1;
        const now = deps.now();
        const status = error === null ? 'SENT' : attempts >= MAX_DELIVERY_ATTEMPTS ? 'FAILED' : 'PENDING';
        if (error !== null)
          deps.log.warn({ delivery: d.id, hook: d.hook, attempts, error }, 'notification delivery failed');
        await recordNotificationAttempt(deps.db, d.id, d.attempts, {
          status,
          last_error: error,
          next_attempt_at: error === null ? now : now + FIRST_RETRY_MS * 2 ** (attempts - 1),
          updated_at: now,
        });
      }
    },
  };
}

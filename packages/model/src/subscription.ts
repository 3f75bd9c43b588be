import { z } from 'zod';

/**
 * Subscriptions and API keys (console-apis.md sections 3 to 5 and 9, portal-and-platform.md section 5):
 * statuses, the limits of the dialogs and the key rules, shared by the server and the forms.
 */

export const SUBSCRIPTION_STATUSES = ['PENDING', 'ACCEPTED', 'PAUSED', 'REJECTED', 'CLOSED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** A status of the filters; lower case accepted. */
export const SubscriptionStatus = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(SUBSCRIPTION_STATUSES));

/** What the subscription lists show when no status is asked. */
export const DEFAULT_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['ACCEPTED', 'PENDING', 'PAUSED'];
export const SUBSCRIPTION_PAGE_SIZES = [10, 25, 50, 75, 100] as const;
export const SUBSCRIPTION_DEFAULT_PAGE_SIZE = 10;

/** `POST .../status?status=`: what the API side may do to an accepted or paused subscription. */
export const SUBSCRIPTION_STATUS_ACTIONS = ['PAUSED', 'RESUMED', 'CLOSED'] as const;

export const SUBSCRIPTION_REQUEST_MAX = 150;
export const SUBSCRIPTION_REQUEST_TOO_LONG = `The message has to be less than ${SUBSCRIPTION_REQUEST_MAX} characters long.`;
export const SUBSCRIPTION_REASON_MAX = 1024;

/** How long the previous key of a renewed subscription keeps working (capped at the subscription's end). */
export const API_KEY_RENEWAL_GRACE_MS = 2 * 3600 * 1000;
/** The latest expiry date of a key of a subscription without end. */
export const API_KEY_MAX_EXPIRY = Date.UTC(2099, 11, 31, 23, 59, 59, 999);

/** An instant on the wire: epoch milliseconds, or an ISO 8601 date-time. */
export const Instant = z.union([
  z.number().int().min(0),
  z.iso
    .datetime({ offset: true, local: true })
    .transform((s) => Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s}Z`)),
]);

export const SubscriptionRequestMessage = z
  .string()
  .max(SUBSCRIPTION_REQUEST_MAX, SUBSCRIPTION_REQUEST_TOO_LONG);

import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { API_KEY_MAX_EXPIRY, API_KEY_RENEWAL_GRACE_MS } from '@portico/model';
import type { ApiKeyRow, Database, EventBus, Executor, SubscriptionRow, UserRow } from '@portico/storage';
import {
  findApiKey,
  findApiKeysExpiringUnnotified,
  findApiKeysOfSubscription,
  findPlanById,
  findSubscriptionById,
  insertApiKey,
  updateApiKey,
  updateApiKeysOfSubscription,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import type { MailService } from '../mail/mail.service.js';
import { AfterCommit, runAfterCommit } from './after-commit.js';
import type { SubscriptionNotices } from './subscription-notices.js';
import { maskKey } from './subscription-notices.js';
import { auditSubscription } from './subscriptions.audit.js';
import {
  KEY_ALREADY_REVOKED,
  KEY_EXPIRY_AFTER,
  KEY_EXPIRY_IN_PAST,
  KEY_NEEDS_ACCEPTED,
  KEY_NOT_API_KEY_PLAN,
  apiKeyNotFound,
  subscriptionNotFound,
  subscriptionRefused,
  subscriptionRule,
} from './subscriptions.errors.js';

/** Keys expiring within this delay are announced to their application's owner. */
export const KEY_EXPIRY_NOTICE_MS = 7 * 24 * 3600 * 1000;

/** 192 random bits, URL-safe (keys travel in headers, query strings and the console's URLs). */
export const generateApiKey = (): string => randomBytes(24).toString('base64url');

export interface ApiKeyServiceDeps {
  db: Kysely<Database>;
  bus: EventBus;
  audit: AuditService;
  notices: SubscriptionNotices;
  mail: MailService;
  log: FastifyBaseLogger;
  now: () => number;
}

const auditedKey = (k: ApiKeyRow) => ({
  key: maskKey(k.key),
  expire_at: k.expire_at,
  revoked: k.revoked === 1,
  revoked_at: k.revoked_at,
  paused: k.paused === 1,
});

/**
 * API keys of the subscriptions to API-key plans (console-apis.md section 4): issued when the
 * subscription is accepted, renewed (the previous key keeps working 2 hours, never past the
 * subscription's end), revoked, given an expiry date; paused and revoked with their subscription.
 * Every change moves the key's `updated_at` (the gateways sync what changed) and is announced on the bus.
 */
export class ApiKeyService {
  private readonly db: Kysely<Database>;

  constructor(private readonly deps: ApiKeyServiceDeps) {
    this.db = deps.db;
  }

  flush(after: AfterCommit): Promise<void> {
    return runAfterCommit(after, this.deps);
  }

  private changed(after: AfterCommit, key: { key: string; api_id: string }): void {
    after.publish({ kind: 'apikey', id: key.key, apiId: key.api_id });
  }

  /** A key of the API, or 404. */
  async find(apiId: string, key: string): Promise<ApiKeyRow> {
    const row = await findApiKey(this.db, key);
    if (!row || row.api_id !== apiId) throw apiKeyNotFound(maskKey(key));
    return row;
  }

  /** The keys of a subscription, newest first. */
  list(subscriptionId: string): Promise<ApiKeyRow[]> {
    return findApiKeysOfSubscription(this.db, subscriptionId);
  }

  /** A new key for the subscription, in the caller's transaction; it expires with the subscription. */
  async issue(trx: Executor, s: SubscriptionRow, after: AfterCommit, now: number): Promise<ApiKeyRow> {
    let key = generateApiKey();
    while (await findApiKey(trx, key)) key = generateApiKey();
    await insertApiKey(trx, {
      key,
      subscription_id: s.id,
      application_id: s.application_id,
      plan_id: s.plan_id,
      api_id: s.api_id,
      revoked: 0,
      paused: 0,
      revoked_at: null,
      expire_at: s.ending_at,
      created_at: now,
      updated_at: now,
      expiry_notified_at: null,
    });
    this.changed(after, { key, api_id: s.api_id });
    return (await findApiKey(trx, key))!;
  }

  /** Applies a change to every key of a subscription (not revoked ones, or all) and announces them. */
  async changeAll(
    trx: Executor,
    s: SubscriptionRow,
    changes: Partial<Pick<ApiKeyRow, 'paused' | 'revoked' | 'revoked_at' | 'plan_id'>>,
    after: AfterCommit,
    now: number,
    which: 'live' | 'all' = 'live',
  ): Promise<void> {
    const keys = (await findApiKeysOfSubscription(trx, s.id)).filter(
      (k) => which === 'all' || k.revoked === 0,
    );
    if (keys.length === 0) return;
    const stamp = Math.max(now, ...keys.map((k) => k.updated_at + 1));
    await updateApiKeysOfSubscription(trx, s.id, { ...changes, updated_at: stamp }, which);
    for (const k of keys) this.changed(after, k);
  }

  /** Keys not revoked whose expiry is after the subscription's new end now expire with it. */
  async capExpiry(trx: Executor, s: SubscriptionRow, endingAt: number, after: AfterCommit, now: number) {
    for (const k of await findApiKeysOfSubscription(trx, s.id)) {
      if (k.revoked === 1 || (k.expire_at !== null && k.expire_at <= endingAt)) continue;
      await updateApiKey(trx, k.key, {
        expire_at: endingAt,
        expiry_notified_at: null,
        updated_at: Math.max(now, k.updated_at + 1),
      });
      this.changed(after, k);
    }
  }

  private async subscriptionOf(trx: Executor, subscriptionId: string): Promise<SubscriptionRow> {
    const s = await findSubscriptionById(trx, subscriptionId);
    if (!s) throw subscriptionNotFound(subscriptionId);
    return s;
  }

  /**
   * `POST .../subscriptions/{subId}` (renew): a new key; the previous keys keep working for 2 hours,
   * never after the subscription's end nor after their own expiry.
   */
  async renew(actor: UserRow, subscriptionId: string): Promise<ApiKeyRow> {
    const after = new AfterCommit();
    const key = await this.db.transaction().execute(async (trx) => {
      const s = await this.subscriptionOf(trx, subscriptionId);
      if (s.status !== 'ACCEPTED') throw subscriptionRefused(KEY_NEEDS_ACCEPTED, 'API_KEY_STATE');
      const plan = await findPlanById(trx, s.plan_id);
      if (plan?.security !== 'API_KEY') throw subscriptionRefused(KEY_NOT_API_KEY_PLAN, 'API_KEY_STATE');
      const now = this.deps.now();
      const graceEnd = Math.min(now + API_KEY_RENEWAL_GRACE_MS, s.ending_at ?? Infinity);
      let previousUntil: number | null = null;
      for (const k of await findApiKeysOfSubscription(trx, s.id)) {
        if (k.revoked === 1) continue;
        const until = Math.min(graceEnd, k.expire_at ?? Infinity);
        previousUntil = Math.max(previousUntil ?? 0, until);
        await updateApiKey(trx, k.key, {
          expire_at: until,
          // The end of a renewed key is announced with the renewal, not as an expiry.
          expiry_notified_at: now,
          updated_at: Math.max(now, k.updated_at + 1),
        });
        this.changed(after, k);
      }
      const issued = await this.issue(trx, s, after, now);
      await auditSubscription(this.deps.audit, trx, actor, 'APIKEY_RENEWED', s, {
        properties: { API_KEY: maskKey(issued.key) },
        after: auditedKey(issued),
      });
      await this.deps.notices.keyRenewed(trx, after, s, previousUntil);
      return issued;
    });
    await this.flush(after);
    return key;
  }

  /** `DELETE .../keys/{key}`: the key stops working at once. */
  async revoke(actor: UserRow, subscriptionId: string, key: string): Promise<ApiKeyRow> {
    const after = new AfterCommit();
    const revoked = await this.db.transaction().execute(async (trx) => {
      const s = await this.subscriptionOf(trx, subscriptionId);
      const row = await findApiKey(trx, key);
      if (!row || row.subscription_id !== s.id) throw apiKeyNotFound(maskKey(key));
      if (row.revoked === 1) throw subscriptionRefused(KEY_ALREADY_REVOKED, 'API_KEY_STATE');
      if (s.status !== 'ACCEPTED') throw subscriptionRefused(KEY_NEEDS_ACCEPTED, 'API_KEY_STATE');
      const now = Math.max(this.deps.now(), row.updated_at + 1);
      await updateApiKey(trx, key, { revoked: 1, revoked_at: now, updated_at: now });
      this.changed(after, row);
      const updated = (await findApiKey(trx, key))!;
      await auditSubscription(this.deps.audit, trx, actor, 'APIKEY_REVOKED', s, {
        properties: { API_KEY: maskKey(key) },
        before: auditedKey(row),
        after: auditedKey(updated),
      });
      await this.deps.notices.keyRevoked(trx, after, s, updated);
      return updated;
    });
    await this.flush(after);
    return revoked;
  }

  /**
   * `PUT apis/{id}/keys/{key}` (expire_at): from now up to the subscription's end (31 Dec 2099 for a
   * subscription without end). The application's owner is told at once.
   */
  async setExpiry(actor: UserRow, apiId: string, key: string, expireAt: number): Promise<ApiKeyRow> {
    const after = new AfterCommit();
    const changed = await this.db.transaction().execute(async (trx) => {
      const row = await findApiKey(trx, key);
      if (!row || row.api_id !== apiId) throw apiKeyNotFound(maskKey(key));
      if (row.revoked === 1) throw subscriptionRefused(KEY_ALREADY_REVOKED, 'API_KEY_STATE');
      const s = await this.subscriptionOf(trx, row.subscription_id);
      if (s.status !== 'ACCEPTED' && s.status !== 'PAUSED')
        throw subscriptionRefused(KEY_NEEDS_ACCEPTED, 'API_KEY_STATE');
      const now = this.deps.now();
      if (expireAt < now) throw subscriptionRule('expire_at', KEY_EXPIRY_IN_PAST);
      const limit = s.ending_at ?? API_KEY_MAX_EXPIRY;
      if (expireAt > limit) throw subscriptionRule('expire_at', KEY_EXPIRY_AFTER(limit));
      await updateApiKey(trx, key, {
        expire_at: expireAt,
        expiry_notified_at: now,
        updated_at: Math.max(now, row.updated_at + 1),
      });
      this.changed(after, row);
      const updated = (await findApiKey(trx, key))!;
      await auditSubscription(this.deps.audit, trx, actor, 'APIKEY_EXPIRED', s, {
        properties: { API_KEY: maskKey(key) },
        before: auditedKey(row),
        after: auditedKey(updated),
      });
      await this.deps.notices.keyExpiring(trx, after, s, updated, expireAt);
      return updated;
    });
    await this.flush(after);
    return changed;
  }

  /**
   * Tells the owners of the keys that expire within 7 days (with their subscription's end, for
   * instance) and were not announced yet; answers how many keys were announced.
   */
  async notifyExpiringKeys(): Promise<number> {
    const after = new AfterCommit();
    const count = await this.db.transaction().execute(async (trx) => {
      const now = this.deps.now();
      let n = 0;
      for (const k of await findApiKeysExpiringUnnotified(trx, now + KEY_EXPIRY_NOTICE_MS)) {
        const s = await findSubscriptionById(trx, k.subscription_id);
        await updateApiKey(trx, k.key, { expiry_notified_at: now });
        if (!s || (s.status !== 'ACCEPTED' && s.status !== 'PAUSED')) continue;
        await this.deps.notices.keyExpiring(trx, after, s, k, k.expire_at!);
        n++;
      }
      return n;
    });
    await this.flush(after);
    return count;
  }
}

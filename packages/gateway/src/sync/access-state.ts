import type { ApiKeyRow, GatewaySubscriptionRow } from '@portico/storage';

/** What the gateway knows of an API key (from the api_keys table). */
export interface KeyInfo {
  key: string;
  apiId: string;
  planId: string;
  applicationId: string;
  subscriptionId: string;
  revoked: boolean;
  paused: boolean;
  expireAt: number | null;
}

export interface SubscriptionInfo {
  id: string;
  apiId: string;
  planId: string;
  applicationId: string;
  /** The application's name as of the last read (traces carry it; never used to decide access). */
  applicationName?: string | null;
  clientId: string | null;
  status: string;
  startingAt: number | null;
  endingAt: number | null;
}

export const toKeyInfo = (r: ApiKeyRow): KeyInfo => ({
  key: r.key,
  apiId: r.api_id,
  planId: r.plan_id,
  applicationId: r.application_id,
  subscriptionId: r.subscription_id,
  revoked: r.revoked === 1,
  paused: r.paused === 1,
  expireAt: r.expire_at,
});

export const toSubscriptionInfo = (r: GatewaySubscriptionRow): SubscriptionInfo => ({
  id: r.id,
  apiId: r.api_id,
  planId: r.plan_id,
  applicationId: r.application_id,
  applicationName: r.application_name,
  clientId: r.client_id,
  status: r.status,
  startingAt: r.starting_at,
  endingAt: r.ending_at,
});

/** Keys and subscriptions of the APIs this gateway serves, kept up to date by the sync. */
export class AccessState {
  readonly keys = new Map<string, KeyInfo>();
  readonly subscriptions = new Map<string, SubscriptionInfo>();
  private readonly byClient = new Map<string, Set<string>>();

  putKey(k: KeyInfo): void {
    this.keys.set(k.key, k);
  }

  putSubscription(s: SubscriptionInfo): void {
    const previous = this.subscriptions.get(s.id);
    if (previous?.clientId) this.byClient.get(`${previous.apiId}\n${previous.clientId}`)?.delete(s.id);
    this.subscriptions.set(s.id, s);
    if (s.clientId) {
      const k = `${s.apiId}\n${s.clientId}`;
      let set = this.byClient.get(k);
      if (!set) this.byClient.set(k, (set = new Set()));
      set.add(s.id);
    }
  }

  /** Subscriptions of an application (by OAuth2/JWT client id) to an API. */
  subscriptionsOfClient(apiId: string, clientId: string): SubscriptionInfo[] {
    const ids = this.byClient.get(`${apiId}\n${clientId}`);
    return ids ? [...ids].map((id) => this.subscriptions.get(id)!).filter(Boolean) : [];
  }

  deleteSubscription(id: string): void {
    const previous = this.subscriptions.get(id);
    if (previous?.clientId) this.byClient.get(`${previous.apiId}\n${previous.clientId}`)?.delete(id);
    this.subscriptions.delete(id);
  }

  /** Keeps the keys and subscriptions of the APIs given only. */
  retainApis(apiIds: ReadonlySet<string>): void {
    for (const [key, k] of this.keys) if (!apiIds.has(k.apiId)) this.keys.delete(key);
    for (const [id, s] of this.subscriptions) if (!apiIds.has(s.apiId)) this.deleteSubscription(id);
  }

  clear(): void {
    this.keys.clear();
    this.subscriptions.clear();
    this.byClient.clear();
  }
}

/** A subscription lets requests through while accepted and within its dates. */
export function subscriptionActive(s: SubscriptionInfo | undefined, now: number): s is SubscriptionInfo {
  return (
    s !== undefined &&
    s.status === 'ACCEPTED' &&
    (s.startingAt === null || s.startingAt <= now) &&
    (s.endingAt === null || s.endingAt > now)
  );
}

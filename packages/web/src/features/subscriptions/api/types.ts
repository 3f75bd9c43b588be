import type { SubscriptionStatus } from '@portico/model';
import type { PlanSecurity } from '@portico/model';

export type { SubscriptionStatus };

/** A row of a subscription list: references by id, named by the page's metadata. */
export interface SubscriptionItem {
  id: string;
  api: string;
  plan: string;
  application: string;
  status: SubscriptionStatus;
  request: string | null;
  reason: string | null;
  created_at: number;
  updated_at: number;
  processed_at: number | null;
  starting_at: number | null;
  ending_at: number | null;
  paused_at: number | null;
  closed_at: number | null;
}

/** One subscription with its API, plan, application and people (console-apis.md section 3). */
export interface Subscription {
  id: string;
  status: SubscriptionStatus;
  request: string | null;
  reason: string | null;
  client_id: string | null;
  created_at: number;
  updated_at: number;
  processed_at: number | null;
  starting_at: number | null;
  ending_at: number | null;
  paused_at: number | null;
  closed_at: number | null;
  api: { id: string; name: string | null; version: string | null };
  plan: { id: string; name: string | null; security: PlanSecurity | null; validation: string | null };
  application: {
    id: string;
    name: string | null;
    type: string | null;
    description: string | null;
    client_id: string | null;
    owner: { id: string; displayName: string; email: string | null } | null;
  };
  subscribed_by: { id: string; displayName: string } | null;
  processed_by: { id: string; displayName: string } | null;
}

/** An API key of a subscription. */
export interface ApiKey {
  key: string;
  subscription: string;
  created_at: number;
  updated_at: number;
  expire_at: number | null;
  expired: boolean;
  revoked: boolean;
  revoked_at: number | null;
  paused: boolean;
}

/** The filters of a subscription list (the query of its URL). */
export interface SubscriptionFilters {
  page: number;
  size: number;
  status: SubscriptionStatus[];
  /** API side: applications; application side: APIs. */
  application?: string[];
  plan?: string[];
  api?: string[];
}

/** A task of `GET user/tasks`: a subscription waiting for validation. */
export interface Task {
  type: 'SUBSCRIPTION_APPROVAL';
  data: {
    id: string;
    api: string;
    application: string;
    plan: string;
    request: string | null;
    created_at: number;
  };
  created_at: number;
}

/** What the subscription screens read of a plan. */
export interface ApiPlan {
  id: string;
  name: string;
  security: PlanSecurity;
  status: 'STAGING' | 'PUBLISHED' | 'DEPRECATED' | 'CLOSED';
  order: number;
  comment_required: boolean;
  comment_message: string | null;
}

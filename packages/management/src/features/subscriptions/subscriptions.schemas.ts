import { z } from 'zod';
import {
  Instant,
  SUBSCRIPTION_REASON_MAX,
  SUBSCRIPTION_STATUSES,
  SubscriptionRequestMessage,
  SubscriptionStatus,
} from '@portico/model';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { csvOf, idList } from '../../http/query-lists.js';
import type { ApiService } from '../apis/apis.service.js';
import type { PlanService } from '../plans/plans.service.js';
import type { ApiKeyService } from './api-keys.service.js';
import type { SubscriptionService } from './subscriptions.service.js';

/** The params, queries and bodies of the subscription and key calls (API and application side). */
export const ApiParams = z.object({ api: z.string().min(1) });
export const ApiSubscriptionParams = z.object({ api: z.string().min(1), subscription: z.string().min(1) });
export const ApiKeyParams = ApiSubscriptionParams.extend({ key: z.string().min(1) });
export const ApplicationParams = z.object({ application: z.string().min(1) });
export const ApplicationSubscriptionParams = z.object({
  application: z.string().min(1),
  subscription: z.string().min(1),
});

export const StatusList = csvOf(SubscriptionStatus, SUBSCRIPTION_STATUSES, 'status');

export const Paging = {
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(10),
};

export const ApiListQuery = z.object({ ...Paging, status: StatusList, application: idList, plan: idList });
export const ApplicationListQuery = z.object({ ...Paging, status: StatusList, api: idList, plan: idList });

export const RequestBody = z.object({ request: SubscriptionRequestMessage.nullish() }).nullish();
export const Reason = z.string().max(SUBSCRIPTION_REASON_MAX);

export const ProcessBody = z.object({
  accepted: z.boolean(),
  reason: Reason.nullish(),
  starting_at: Instant.nullish(),
  ending_at: Instant.nullish(),
});
export const DatesBody = z.object({
  id: z.string().optional(),
  starting_at: Instant.nullish(),
  ending_at: Instant.nullish(),
});
export const TransferBody = z.object({ id: z.string().optional(), plan: z.string().min(1) });
export const ExpiryBody = z.object({ expire_at: Instant });

/** What the subscription and key routes need. */
export interface SubscriptionRouteDeps {
  ctx: AppContext;
  guards: PermissionGuards;
  apis: ApiService;
  plans: PlanService;
  subscriptions: SubscriptionService;
  keys: ApiKeyService;
}

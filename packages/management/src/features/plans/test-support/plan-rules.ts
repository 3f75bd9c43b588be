import type { Dialect, UserRow } from '@portico/storage';
import { findPlanById } from '@portico/storage';
import type { TestApp } from '../../../test-support/index.js';
import { createUser, startTestApp } from '../../../test-support/index.js';
import type { SubscriptionServices } from '../../subscriptions/subscriptions.wiring.js';
import { newApi, planInput, subscriptionServices } from '../../subscriptions/test-support/index.js';

/** Shared setup of the plan rule tests (creation and changes, lifecycle). */

export const JWT_DEFINITION = JSON.stringify({
  signature: 'HMAC_HS256',
  resolverParameter: 'a-secret-of-32-characters-long!!',
});

/** An API and its owner. */
export interface PlanWorld {
  t: TestApp;
  s: SubscriptionServices;
  owner: UserRow;
  apiId: string;
}

export async function startPlanWorld(dialect: Dialect): Promise<PlanWorld> {
  const t = await startTestApp(dialect);
  const s = subscriptionServices(t);
  const owner = await createUser(t.db);
  const apiId = (await newApi(s, owner)).id;
  return { t, s, owner, apiId };
}

/** A plan of the API in a status, reached through the service. */
export function planInStatus(world: () => PlanWorld) {
  return async (status: 'STAGING' | 'PUBLISHED' | 'DEPRECATED' | 'CLOSED', fields = {}) => {
    const { t, s, owner, apiId } = world();
    const plan = await s.plans.create(owner, apiId, planInput(fields));
    if (status === 'STAGING') return plan;
    await s.plans.publish(owner, apiId, plan.id);
    if (status === 'DEPRECATED') return s.plans.deprecate(owner, apiId, plan.id);
    if (status === 'CLOSED') return s.plans.close(owner, apiId, plan.id);
    return (await findPlanById(t.db, plan.id))!;
  };
}

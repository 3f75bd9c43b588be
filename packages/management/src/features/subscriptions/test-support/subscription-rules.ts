import type { PlanRow, SubscriptionRow, UserRow } from '@portico/storage';
import { findApiKeysOfSubscription, findSubscriptionById } from '@portico/storage';
import type { Dialect } from '@portico/storage';
import type { TestApp } from '../../../test-support/index.js';
import { createUser, grantRoleOn, startTestApp } from '../../../test-support/index.js';
import type { SubscriptionServices } from '../subscriptions.wiring.js';
import { newApi, ownedApplication, publishedPlan, subscriptionServices } from './index.js';

/** Shared setup of the subscription rule tests (subscribe, lifecycle). */

export const DAY = 86_400_000;
export const JWT_DEFINITION = JSON.stringify({
  signature: 'HMAC_HS256',
  resolverParameter: 'a-secret-of-32-characters-long!!',
});
export type Status = 'PENDING' | 'ACCEPTED' | 'PAUSED' | 'REJECTED' | 'CLOSED';

/** An API with a published manual plan, its publisher, a second owner who validates, and a consumer. */
export interface RulesWorld {
  t: TestApp;
  s: SubscriptionServices;
  publisher: UserRow;
  validator: UserRow;
  consumer: UserRow;
  apiId: string;
  plan: PlanRow;
}

export async function startRulesWorld(dialect: Dialect): Promise<RulesWorld> {
  const t = await startTestApp(dialect);
  const s = subscriptionServices(t);
  const publisher = await createUser(t.db);
  const validator = await createUser(t.db);
  const consumer = await createUser(t.db, { email: `consumer-${dialect}@example.test` });
  const apiId = (await newApi(s, publisher)).id;
  await grantRoleOn(t.db, validator.id, 'API', apiId, 'OWNER');
  const plan = await publishedPlan(s, publisher, apiId);
  return { t, s, publisher, validator, consumer, apiId, plan };
}

/** Subscribing and reading back, on the world started in `beforeAll`. */
export function rulesHelpers(world: () => RulesWorld) {
  const application = (fields = {}) => ownedApplication(world().t, world().consumer, fields);
  const subscribe = async (p: PlanRow = world().plan, fields = {}) =>
    world().s.subscriptions.subscribe(world().consumer, {
      planId: p.id,
      applicationId: (await application(fields)).id,
    });

  /** A subscription of a new application to the plan, brought to a status through the service. */
  const subscriptionIn = async (status: Status, p: PlanRow = world().plan): Promise<SubscriptionRow> => {
    const { t, s, publisher, apiId } = world();
    const sub = await subscribe(p);
    if (status === 'PENDING') return sub;
    if (status === 'REJECTED') return s.subscriptions.reject(publisher, apiId, sub.id, 'no');
    await s.subscriptions.accept(publisher, apiId, sub.id, {});
    if (status === 'PAUSED') return s.subscriptions.pause(publisher, apiId, sub.id);
    if (status === 'CLOSED') return s.subscriptions.close(publisher, apiId, sub.id);
    return (await findSubscriptionById(t.db, sub.id))!;
  };
  const statusOf = async (id: string) => (await findSubscriptionById(world().t.db, id))?.status;
  const keysOf = (id: string) => findApiKeysOfSubscription(world().t.db, id);
  return { application, subscribe, subscriptionIn, statusOf, keysOf };
}

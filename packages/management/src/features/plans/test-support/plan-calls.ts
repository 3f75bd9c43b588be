import { expect } from 'vitest';
import type { Dialect } from '@portico/storage';
import type { SignedInUser, TestApp } from '../../../test-support/index.js';
import { call, grantRoleOn, signInNewUser, startTestApp } from '../../../test-support/index.js';
import type { ApiUsers } from '../../apis/test-support/index.js';
import { apiUsers, createApiAs } from '../../apis/test-support/index.js';

/** Shared setup of the HTTP tests of plans. */

export const RATE_LIMIT = { rate: { limit: 3, periodTime: 1, periodTimeUnit: 'MINUTES' } };

/** An API of the publisher, with a reviewer. */
export interface PlanCallsWorld {
  t: TestApp;
  u: ApiUsers;
  reviewer: SignedInUser;
  apiId: string;
}

export async function startPlanCallsWorld(dialect: Dialect): Promise<PlanCallsWorld> {
  const t = await startTestApp(dialect);
  const u = await apiUsers(t);
  const reviewer = await signInNewUser(t.app, t.db);
  const apiId = (await createApiAs(t, u.publisher.session)).id;
  await grantRoleOn(t.db, reviewer.user.id, 'API', apiId, 'REVIEWER');
  return { t, u, reviewer, apiId };
}

/** The calls the tests repeat, on the world started in `beforeAll`. */
export function planCallsHelpers(world: () => PlanCallsWorld) {
  const plansUrl = (id = world().apiId) => `/apis/${id}/plans`;
  const createPlan = async (payload: Record<string, unknown> = {}) => {
    const res = await call(world().t.app, world().u.publisher.session, {
      method: 'POST',
      url: plansUrl(),
      payload: { name: 'Gold plan', description: 'For partners', security: 'API_KEY', ...payload },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; status: string; order: number }>();
  };
  const action = (planId: string, name: string, session = world().u.publisher.session) =>
    call(world().t.app, session, { method: 'POST', url: `${plansUrl()}/${planId}/${name}` });
  return { plansUrl, createPlan, action };
}

import { afterAll, beforeAll, expect } from 'vitest';
import type { Dialect } from '@portico/storage';
import type { SignedInUser, TestApp, TestSession } from '../../../test-support/index.js';
import { call, grantRoleOn, signInNewUser, startTestApp } from '../../../test-support/index.js';
import type { ApiUsers } from '../../apis/test-support/index.js';
import { apiUsers, createApiAs } from '../../apis/test-support/index.js';

/** Shared setup of the HTTP tests of subscriptions and keys (API side). */

export const DAY = 86_400_000;

export interface SubscriptionJson {
  id: string;
  status: string;
  plan: { id: string; name: string; security: string };
  application: { id: string; name: string; owner: { displayName: string } };
  [key: string]: unknown;
}

/** An API of the publisher, a reviewer and a second owner who validates, and its published plans. */
export interface CallsWorld {
  t: TestApp;
  u: ApiUsers;
  reviewer: SignedInUser;
  validator: SignedInUser;
  apiId: string;
  /** Manual validation, API key. */
  plan: string;
  autoPlan: string;
  otherPlan: string;
  keylessPlan: string;
  jwtPlan: string;
}

/** Creates a plan of the API through the publisher (published unless told otherwise). */
async function createPlan(
  t: TestApp,
  session: TestSession,
  apiId: string,
  payload: Record<string, unknown>,
  publish = true,
) {
  const res = await call(t.app, session, {
    method: 'POST',
    url: `/apis/${apiId}/plans`,
    payload: { name: 'Some plan', description: 'x', security: 'API_KEY', ...payload },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json<{ id: string }>().id;
  if (publish) await call(t.app, session, { method: 'POST', url: `/apis/${apiId}/plans/${id}/_publish` });
  return id;
}

export async function startCallsWorld(dialect: Dialect): Promise<CallsWorld> {
  const t = await startTestApp(dialect);
  const u = await apiUsers(t);
  const reviewer = await signInNewUser(t.app, t.db);
  const validator = await signInNewUser(t.app, t.db);
  const publisher = u.publisher.session;
  const apiId = (await createApiAs(t, publisher)).id;
  await grantRoleOn(t.db, reviewer.user.id, 'API', apiId, 'REVIEWER');
  await grantRoleOn(t.db, validator.user.id, 'API', apiId, 'OWNER');
  const newPlan = (payload: Record<string, unknown>) => createPlan(t, publisher, apiId, payload);
  const plan = await newPlan({ name: 'Manual plan' });
  const autoPlan = await newPlan({ name: 'Auto plan', validation: 'AUTO' });
  const otherPlan = await newPlan({ name: 'Other plan' });
  const keylessPlan = await newPlan({ name: 'Free plan', security: 'KEY_LESS' });
  const jwtPlan = await newPlan({
    name: 'Token plan',
    security: 'JWT',
    securityDefinition: {
      signature: 'HMAC_HS256',
      resolverParameter: 'a-very-secret-hmac-key-of-32-chars',
    },
  });
  return { t, u, reviewer, validator, apiId, plan, autoPlan, otherPlan, keylessPlan, jwtPlan };
}

/** The calls the tests repeat, on the world started in `beforeAll`. */
export function callsHelpers(world: () => CallsWorld) {
  const admin = () => world().u.admin;
  const publisher = () => world().u.publisher.session;
  const newPlan = (payload: Record<string, unknown>, publish = true) =>
    createPlan(world().t, publisher(), world().apiId, payload, publish);
  const newApplication = async (session: TestSession = publisher(), name = 'Consumer app') => {
    const res = await call(world().t.app, session, {
      method: 'POST',
      url: '/applications',
      payload: { name, description: 'x' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };
  /** The application's owner asks for a subscription (pending on a plan with manual validation). */
  const subscribe = async (planId = world().plan, application?: string) => {
    const res = await call(world().t.app, publisher(), {
      method: 'POST',
      url: `/applications/${application ?? (await newApplication())}/subscriptions?plan=${planId}`,
      payload: { request: 'Let me in' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<SubscriptionJson>();
  };
  const accepted = async (planId = world().plan) => {
    const sub = await subscribe(planId);
    if (sub.status === 'ACCEPTED') return sub;
    const res = await call(world().t.app, world().validator.session, {
      method: 'POST',
      url: `/apis/${world().apiId}/subscriptions/${sub.id}/_process`,
      payload: { accepted: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<SubscriptionJson>();
  };
  const sub = (id: string, rest = '') => `/apis/${world().apiId}/subscriptions/${id}${rest}`;
  return { admin, publisher, newPlan, newApplication, subscribe, accepted, sub };
}

/**
 * The world started before the file's tests and closed after them (its fields are set by then), with
 * the helpers on it.
 */
export function useCallsWorld(dialect: Dialect) {
  const w = {} as CallsWorld;
  beforeAll(async () => {
    Object.assign(w, await startCallsWorld(dialect));
  });
  afterAll(() => w.t?.close());
  return { w, ...callsHelpers(() => w) };
}

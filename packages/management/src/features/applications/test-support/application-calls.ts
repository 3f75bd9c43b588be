import { expect } from 'vitest';
import type { Dialect } from '@portico/storage';
import type { SignedInUser, TestApp, TestSession } from '../../../test-support/index.js';
import { call, signInNewUser, startTestApp } from '../../../test-support/index.js';
import type { ApiUsers } from '../../apis/test-support/index.js';
import { apiUsers, createApiAs } from '../../apis/test-support/index.js';
import { useStartedApp } from '../../apis/test-support/suite.js';

/** Shared setup of the `application calls` route tests (applications*.routes.test.ts). */

export interface AppJson {
  id: string;
  name: string;
  type: string;
  settings: { app?: { client_id: string | null }; oauth?: { client_id: string; client_secret: string } };
  owner: { id: string; displayName: string } | null;
}

export interface ApplicationCalls {
  t: TestApp;
  u: ApiUsers;
  dev: SignedInUser;
  colleague: SignedInUser;
  apiId: string;
  plan: string;
  autoPlan: string;
  commentPlan: string;
  jwtPlan: string;
  createApp: (session: TestSession, payload?: Record<string, unknown>) => Promise<AppJson>;
  newPlan: (payload: Record<string, unknown>) => Promise<string>;
  subscribe: (
    session: TestSession,
    application: string,
    planId?: string,
    payload?: Record<string, unknown>,
  ) => Promise<{ id: string; status: string }>;
}

/** Starts the app with two developers and a PUBLIC API with published plans (manual, auto, comment, JWT). */
export async function startApplicationCallsApp(dialect: Dialect): Promise<ApplicationCalls> {
  const createApp = async (session: TestSession, payload: Record<string, unknown> = {}) => {
    const res = await call(t.app, session, {
      method: 'POST',
      url: '/applications/',
      payload: { name: 'My app', description: 'Does things', ...payload },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<AppJson>();
  };
  const newPlan = async (payload: Record<string, unknown>) => {
    const res = await call(t.app, u.publisher.session, {
      method: 'POST',
      url: `/apis/${apiId}/plans`,
      payload: { name: 'A plan', description: 'x', security: 'API_KEY', ...payload },
    });
    const id = res.json<{ id: string }>().id;
    await call(t.app, u.publisher.session, { method: 'POST', url: `/apis/${apiId}/plans/${id}/_publish` });
    return id;
  };
  const subscribe = async (
    session: TestSession,
    application: string,
    planId = autoPlan,
    payload?: Record<string, unknown>,
  ) => {
    const res = await call(t.app, session, {
      method: 'POST',
      url: `/applications/${application}/subscriptions/?plan=${planId}`,
      ...(payload === undefined ? {} : { payload }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; status: string }>();
  };

  const t = await startTestApp(dialect);
  const u = await apiUsers(t);
  const dev = await signInNewUser(t.app, t.db, {}, { firstname: 'Dev' });
  const colleague = await signInNewUser(t.app, t.db, {}, { firstname: 'Colleague' });
  const apiId = (await createApiAs(t, u.publisher.session, { name: 'Weather' })).id;
  await call(t.app, u.publisher.session, {
    method: 'PUT',
    url: `/apis/${apiId}`,
    payload: { visibility: 'PUBLIC' },
  });
  const plan = await newPlan({ name: 'Manual' });
  const autoPlan = await newPlan({ name: 'Auto', validation: 'AUTO' });
  const commentPlan = await newPlan({
    name: 'Commented',
    comment_required: true,
    comment_message: 'Your use case?',
  });
  const jwtPlan = await newPlan({
    name: 'Token',
    security: 'JWT',
    securityDefinition: {
      signature: 'HMAC_HS256',
      resolverParameter: 'a-very-secret-hmac-key-of-32-chars',
    },
  });
  return { t, u, dev, colleague, apiId, plan, autoPlan, commentPlan, jwtPlan, createApp, newPlan, subscribe };
}

/** Starts that app before the tests of the suite and closes it after them. */
export const useApplicationCallsApp = (dialect: Dialect, set: (calls: ApplicationCalls) => void): void =>
  useStartedApp(() => startApplicationCallsApp(dialect), set);

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test-support/index.js';
import { call, startTestApp } from '../../test-support/index.js';
import type { ApiUsers } from './test-support/index.js';
import { apiUsers, createApiAs, getApi } from './test-support/index.js';

describe("sqlite: an API's tracing setting (proxy.tracing)", () => {
  let t: TestApp;
  let u: ApiUsers;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    u = await apiUsers(t);
  });
  afterAll(() => t?.close());

  async function saveTracing(tracing: unknown) {
    const api = await createApiAs(t, u.publisher.session);
    const { etag, body } = await getApi(t, u.publisher.session, api.id);
    const proxy = (body as { proxy: Record<string, unknown> }).proxy;
    const res = await call(t.app, u.publisher.session, {
      method: 'PUT',
      url: `/apis/${api.id}`,
      headers: { 'if-match': etag },
      payload: { ...body, proxy: { ...proxy, tracing } },
    });
    return { res, id: api.id };
  }

  it('keeps the switch and the ratio, and reads them back', async () => {
    const { res, id } = await saveTracing({ enabled: true, sampling_ratio: 0.25 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ proxy: { tracing: unknown } }>().proxy.tracing).toEqual({
      enabled: true,
      sampling_ratio: 0.25,
    });
    const again = await getApi(t, u.publisher.session, id);
    expect((again.body as { proxy: { tracing: unknown } }).proxy.tracing).toEqual({
      enabled: true,
      sampling_ratio: 0.25,
    });
  });

  it('refuses a ratio outside 0 to 1, naming the field', async () => {
    const { res } = await saveTracing({ enabled: true, sampling_ratio: 1.5 });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/sampling_ratio/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test-support/index.js';
import { basic, createUser, startTestApp } from '../../test-support/index.js';
import { ADDRESS_FREE_FAILURES } from '../auth/login-throttle.js';

/**
 * The login throttle counts failures per client address (and per account: each attempt here names
 * another account, so that only the address counter is at stake). Behind a reverse proxy every connection comes
 * from the proxy: with the proxy trusted, the client is the address X-Forwarded-For gives; from any
 * other address the header is ignored, so a client cannot pick its own address.
 */
describe('POST user/login behind a trusted reverse proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { options: { trustedProxies: ['10.0.0.0/8'] } });
  });
  afterAll(() => t?.close());

  const signIn = (username: string, password: string, remoteAddress: string, forwardedFor?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/management/user/login',
      headers: {
        authorization: basic(username, password),
        ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
      },
      remoteAddress,
    });

  it("counts failures per client behind the proxy, not per the proxy's address", async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < ADDRESS_FREE_FAILURES; i++) {
      expect((await signIn(`nobody-${i}`, 'wrong', '10.0.0.2', '203.0.113.1')).statusCode).toBe(401);
    }
    // The client that failed waits; another client through the same proxy signs in.
    expect((await signIn(user.source_id, 'password', '10.0.0.2', '203.0.113.1')).statusCode).toBe(429);
    expect((await signIn(user.source_id, 'password', '10.0.0.2', '203.0.113.2')).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For from an address that is not a trusted proxy', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < ADDRESS_FREE_FAILURES; i++) {
      const res = await signIn(`nobody-else-${i}`, 'wrong', '198.51.100.20', `203.0.113.${10 + i}`);
      expect(res.statusCode).toBe(401);
    }
    // A new forwarded address every time did not help: the failures counted against the connection.
    expect((await signIn(user.source_id, 'password', '198.51.100.20', '203.0.113.99')).statusCode).toBe(429);
  });
});

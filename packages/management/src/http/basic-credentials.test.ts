import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserById } from '@portico/storage';
import { testDialects } from '@portico/storage/testing';
import type { TestApp } from '../test-support/index.js';
import { basic, createUser, errorBody, startTestApp } from '../test-support/index.js';
import { ADDRESS_FREE_FAILURES } from '../features/auth/login-throttle.js';

const WRONG = errorBody(401, 'Wrong user or password');
const THROTTLED = /^Too many failed sign-in attempts, try again in \d+ seconds?$/;

let addresses = 0;
/** An address no other test of the file uses: the throttle counts per address. */
const newAddress = () => `203.0.113.${++addresses}`;

for (const dialect of await testDialects()) {
  describe(`${dialect}: HTTP Basic credentials on every call, throttled`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp(dialect);
    });
    afterAll(() => t?.close());

    const send = (
      method: 'GET' | 'PUT' | 'POST',
      url: string,
      authorization: string,
      remoteAddress: string,
      payload?: Record<string, unknown>,
    ) =>
      t.app.inject({
        method,
        url: `/management${url}`,
        headers: { authorization },
        remoteAddress,
        ...(payload ? { payload } : {}),
      });

    it('identifies the user on any call, reads and writes, without session cookie nor XSRF token', async () => {
      const user = await createUser(t.db, { password: 'basic-pass', firstname: 'Basil' });
      const address = newAddress();
      const read = await send('GET', '/user', basic(user.source_id, 'basic-pass'), address);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({ id: user.id, firstname: 'Basil' });
      expect(read.cookies).toEqual([]);

      const write = await send('PUT', '/user', basic(user.source_id, 'basic-pass'), address, {
        firstname: 'Basilio',
      });
      expect(write.statusCode, write.body).toBe(200);
      expect((await findUserById(t.db, user.id))?.firstname).toBe('Basilio');
      // Calls with Basic credentials are not sign-ins: only user/login counts them.
      expect((await findUserById(t.db, user.id))?.login_count).toBe(0);
    });

    it("lets an administrator's Basic credentials reach guarded calls", async () => {
      const res = await send('GET', '/users?q=admin', basic('admin', 'admin'), newAddress());
      expect(res.statusCode).toBe(200);
    });

    it.each([
      ['a wrong password', (u: string) => basic(u, 'wrong')],
      ['an unknown user', () => basic('nobody-at-all', 'password')],
      ['malformed credentials', () => 'Basic !!!'],
    ])('answers %s with 401 "Wrong user or password", even on a public call', async (_name, header) => {
      const user = await createUser(t.db);
      const res = await send('GET', '/portal', header(user.source_id), newAddress());
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(WRONG);
    });

    it('counts a wrong Basic password on any call as a failed sign-in of the account', async () => {
      const user = await createUser(t.db);
      const address = newAddress();
      for (const url of ['/user', '/apis', '/portal', '/user/tasks', '/users']) {
        expect((await send('GET', url, basic(user.source_id, 'wrong'), address)).statusCode).toBe(401);
      }
      for (const [method, url] of [
        ['GET', '/user'],
        ['POST', '/user/login'],
      ] as const) {
        const blocked = await send(method, url, basic(user.source_id, 'password'), newAddress());
        expect(blocked.statusCode).toBe(429);
        expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
        expect(blocked.json()).toEqual(errorBody(429, THROTTLED));
      }
    });

    it('does not clear the failures of other accounts when someone signs in from the same address', async () => {
      const victim = await createUser(t.db);
      const attacker = await createUser(t.db);
      const address = newAddress();
      for (let i = 0; i < 5; i++)
        await send('POST', '/user/login', basic(victim.source_id, `guess-${i}`), address);

      const own = await send('POST', '/user/login', basic(attacker.source_id, 'password'), address);
      expect(own.statusCode).toBe(200);

      const guess = await send('POST', '/user/login', basic(victim.source_id, 'password'), address);
      expect(guess.statusCode).toBe(429);
    });

    it('makes an address that failed on many accounts wait, for any account, and leaves other addresses alone', async () => {
      const address = newAddress();
      for (let i = 0; i < ADDRESS_FREE_FAILURES; i++) {
        const res = await send('GET', '/user', basic(`sprayed-${i}-${address}`, 'Winter2026!'), address);
        expect(res.statusCode).toBe(401);
      }
      const user = await createUser(t.db);
      const blocked = await send('POST', '/user/login', basic(user.source_id, 'password'), address);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual(errorBody(429, THROTTLED));
      expect(
        (await send('POST', '/user/login', basic(user.source_id, 'password'), newAddress())).statusCode,
      ).toBe(200);
    });
  });
}

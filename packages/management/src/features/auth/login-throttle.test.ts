import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@portico/storage/testing';
import { ACCOUNT_FREE_FAILURES, ADDRESS_FREE_FAILURES, LoginThrottle } from './login-throttle.js';

const ADDRESS = '192.0.2.10';
const ACCOUNT = 'alice';

let t: TestDatabase;

function throttleWithClock() {
  let now = Date.UTC(2026, 0, 1);
  const throttle = new LoginThrottle(t.storage.db, () => now);
  return {
    throttle,
    advance: (ms: number) => {
      now += ms;
    },
    fail: async (times: number, account = ACCOUNT, address = ADDRESS) => {
      for (let i = 0; i < times; i++) await throttle.recordFailure(account, address);
    },
  };
}

/** The counters are in the database (shared by every management node): one SQLite file here. */
describe('LoginThrottle', () => {
  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
  });
  afterAll(() => t?.destroy());
  beforeEach(async () => {
    await t.storage.db.deleteFrom('throttle_counters').execute();
  });

  describe('per account', () => {
    it('lets an account be tried freely for its first four failures', async () => {
      const { throttle, fail } = throttleWithClock();
      await fail(ACCOUNT_FREE_FAILURES - 1);
      expect(await throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(0);
    });

    it('makes the account wait one second after the fifth failure, from any address', async () => {
      const { throttle, fail, advance } = throttleWithClock();
      await fail(5);
      expect(await throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(1);
      expect(await throttle.waitSeconds(ACCOUNT, '198.51.100.99')).toBe(1);
      advance(999);
      expect(await throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(1);
      advance(1);
      expect(await throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(0);
    });

    it('counts failures of one account from many addresses together', async () => {
      const { throttle, fail } = throttleWithClock();
      for (let i = 0; i < 5; i++) await fail(1, ACCOUNT, `198.51.100.${i}`);
      expect(await throttle.waitSeconds(ACCOUNT, '198.51.100.200')).toBe(1);
    });

    it('matches the account whatever its case', async () => {
      const { throttle, fail } = throttleWithClock();
      await fail(5, 'Alice');
      expect(await throttle.waitSeconds('ALICE', ADDRESS)).toBe(1);
    });

    it('doubles the wait at every further failure, up to five minutes', async () => {
      const { throttle, fail } = throttleWithClock();
      await fail(6);
      expect(await throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(2);
      await fail(1);
      expect(await throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(4);
      await fail(20);
      expect(await throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(300);
    });

    it('leaves other accounts alone', async () => {
      const { throttle, fail } = throttleWithClock();
      await fail(5);
      expect(await throttle.waitSeconds('bob', ADDRESS)).toBe(0);
    });
  });

  describe('per address', () => {
    it('makes an address that failed on many accounts wait, for every account', async () => {
      const { throttle, fail } = throttleWithClock();
      for (let i = 0; i < ADDRESS_FREE_FAILURES - 1; i++) await fail(1, `user-${i}`);
      expect(await throttle.waitSeconds('someone-else', ADDRESS)).toBe(0);
      await fail(1, 'user-last');
      expect(await throttle.waitSeconds('someone-else', ADDRESS)).toBe(1);
      expect(await throttle.waitSeconds('someone-else', '198.51.100.1')).toBe(0);
    });
  });

  describe('success', () => {
    it("forgets the account's own failures", async () => {
      const { throttle, fail, advance } = throttleWithClock();
      await fail(5);
      advance(1000);
      await throttle.recordSuccess(ACCOUNT);
      await fail(1);
      expect(await throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(0);
    });

    it('does not forget the failures of other accounts from the same address', async () => {
      const { throttle, fail } = throttleWithClock();
      await fail(5, 'victim');
      await throttle.recordSuccess('attacker');
      expect(await throttle.waitSeconds('victim', ADDRESS)).toBe(1);
    });

    it("does not forget the address's failures", async () => {
      const { throttle, fail } = throttleWithClock();
      for (let i = 0; i < ADDRESS_FREE_FAILURES; i++) await fail(1, `user-${i}`);
      await throttle.recordSuccess('attacker');
      expect(await throttle.waitSeconds('attacker', ADDRESS)).toBe(1);
    });
  });

  describe('forgetting', () => {
    it('forgets failures older than fifteen minutes', async () => {
      const { throttle, fail, advance } = throttleWithClock();
      await fail(4);
      advance(15 * 60 * 1000 + 1);
      await fail(1);
      expect(await throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(0);
    });

    it('still counts failures less than fifteen minutes apart', async () => {
      const { throttle, fail, advance } = throttleWithClock();
      await fail(4);
      advance(14 * 60 * 1000);
      await fail(1);
      expect(await throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(1);
    });

    it('after the longest wait, lets the account try again, and blocks it again at the next failure', async () => {
      const { throttle, fail, advance } = throttleWithClock();
      await fail(30);
      advance(5 * 60 * 1000);
      expect(await throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(0);
      await fail(1);
      expect(await throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(300);
    });
  });
});

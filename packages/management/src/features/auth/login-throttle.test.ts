import { describe, expect, it } from 'vitest';
import { ACCOUNT_FREE_FAILURES, ADDRESS_FREE_FAILURES, LoginThrottle } from './login-throttle.js';

const ADDRESS = '192.0.2.10';
const ACCOUNT = 'alice';

function throttleWithClock() {
  let now = Date.UTC(2026, 0, 1);
  const throttle = new LoginThrottle(() => now);
  return {
    throttle,
    advance: (ms: number) => {
      now += ms;
    },
    fail: (times: number, account = ACCOUNT, address = ADDRESS) => {
      for (let i = 0; i < times; i++) throttle.recordFailure(account, address);
    },
  };
}

describe('LoginThrottle', () => {
  describe('per account', () => {
    it('lets an account be tried freely for its first four failures', () => {
      const { throttle, fail } = throttleWithClock();
      fail(ACCOUNT_FREE_FAILURES - 1);
      expect(throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(0);
    });

    it('makes the account wait one second after the fifth failure, from any address', () => {
      const { throttle, fail, advance } = throttleWithClock();
      fail(5);
      expect(throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(1);
      expect(throttle.waitSeconds(ACCOUNT, '198.51.100.99')).toBe(1);
      advance(999);
      expect(throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(1);
      advance(1);
      expect(throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(0);
    });

    it('counts failures of one account from many addresses together', () => {
      const { throttle, fail } = throttleWithClock();
      for (let i = 0; i < 5; i++) fail(1, ACCOUNT, `198.51.100.${i}`);
      expect(throttle.waitSeconds(ACCOUNT, '198.51.100.200')).toBe(1);
    });

    it('matches the account whatever its case', () => {
      const { throttle, fail } = throttleWithClock();
      fail(5, 'Alice');
      expect(throttle.waitSeconds('ALICE', ADDRESS)).toBe(1);
    });

    it('doubles the wait at every further failure, up to five minutes', () => {
      const { throttle, fail } = throttleWithClock();
      fail(6);
      expect(throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(2);
      fail(1);
      expect(throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(4);
      fail(20);
      expect(throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(300);
    });

    it('leaves other accounts alone', () => {
      const { throttle, fail } = throttleWithClock();
      fail(5);
      expect(throttle.waitSeconds('bob', ADDRESS)).toBe(0);
    });
  });

  describe('per address', () => {
    it('makes an address that failed on many accounts wait, for every account', () => {
      const { throttle, fail } = throttleWithClock();
      for (let i = 0; i < ADDRESS_FREE_FAILURES - 1; i++) fail(1, `user-${i}`);
      expect(throttle.waitSeconds('someone-else', ADDRESS)).toBe(0);
      fail(1, 'user-last');
      expect(throttle.waitSeconds('someone-else', ADDRESS)).toBe(1);
      expect(throttle.waitSeconds('someone-else', '198.51.100.1')).toBe(0);
    });
  });

  describe('success', () => {
    it("forgets the account's own failures", () => {
      const { throttle, fail, advance } = throttleWithClock();
      fail(5);
      advance(1000);
      throttle.recordSuccess(ACCOUNT);
      fail(1);
      expect(throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(0);
    });

    it('does not forget the failures of other accounts from the same address', () => {
      const { throttle, fail } = throttleWithClock();
      fail(5, 'victim');
      throttle.recordSuccess('attacker');
      expect(throttle.waitSeconds('victim', ADDRESS)).toBe(1);
    });

    it("does not forget the address's failures", () => {
      const { throttle, fail } = throttleWithClock();
      for (let i = 0; i < ADDRESS_FREE_FAILURES; i++) fail(1, `user-${i}`);
      throttle.recordSuccess('attacker');
      expect(throttle.waitSeconds('attacker', ADDRESS)).toBe(1);
    });
  });

  describe('forgetting', () => {
    it('forgets failures older than fifteen minutes', () => {
      const { throttle, fail, advance } = throttleWithClock();
      fail(4);
      advance(15 * 60 * 1000 + 1);
      fail(1);
      expect(throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(0);
    });

    it('still counts failures less than fifteen minutes apart', () => {
      const { throttle, fail, advance } = throttleWithClock();
      fail(4);
      advance(14 * 60 * 1000);
      fail(1);
      expect(throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(1);
    });

    it('after the longest wait, lets the account try again, and blocks it again at the next failure', () => {
      const { throttle, fail, advance } = throttleWithClock();
      fail(30);
      advance(5 * 60 * 1000);
      expect(throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(0);
      fail(1);
      expect(throttle.waitSeconds(ACCOUNT, ADDRESS)).toBe(300);
    });
  });
});

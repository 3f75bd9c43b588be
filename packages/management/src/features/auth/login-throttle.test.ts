import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle.js';

const ADDRESS = '192.0.2.10';

function throttleWithClock() {
  let now = Date.UTC(2026, 0, 1);
  const throttle = new LoginThrottle(() => now);
  return {
    throttle,
    advance: (ms: number) => {
      now += ms;
    },
    fail: (times: number, address = ADDRESS) => {
      for (let i = 0; i < times; i++) throttle.recordFailure(address);
    },
  };
}

describe('LoginThrottle', () => {
  it('lets an address try freely for its first four failures', () => {
    const { throttle, fail } = throttleWithClock();
    fail(4);
    expect(throttle.waitSeconds(ADDRESS)).toBe(0);
  });

  it('makes the address wait one second after the fifth failure', () => {
    const { throttle, fail, advance } = throttleWithClock();
    fail(5);
    expect(throttle.waitSeconds(ADDRESS)).toBe(1);
    advance(999);
    expect(throttle.waitSeconds(ADDRESS)).toBe(1);
    advance(1);
    expect(throttle.waitSeconds(ADDRESS)).toBe(0);
  });

  it('doubles the wait at every further failure, up to five minutes', () => {
    const { throttle, fail } = throttleWithClock();
    fail(6);
    expect(throttle.waitSeconds(ADDRESS)).toBe(2);
    fail(1);
    expect(throttle.waitSeconds(ADDRESS)).toBe(4);
    fail(20);
    expect(throttle.waitSeconds(ADDRESS)).toBe(300);
  });

  it('counts each address on its own', () => {
    const { throttle, fail } = throttleWithClock();
    fail(5);
    expect(throttle.waitSeconds('192.0.2.11')).toBe(0);
  });

  it('forgets the failures after a success', () => {
    const { throttle, fail, advance } = throttleWithClock();
    fail(5);
    advance(1000);
    throttle.recordSuccess(ADDRESS);
    fail(1);
    expect(throttle.waitSeconds(ADDRESS)).toBe(0);
  });

  it('forgets failures older than fifteen minutes', () => {
    const { throttle, fail, advance } = throttleWithClock();
    fail(4);
    advance(15 * 60 * 1000 + 1);
    fail(1);
    expect(throttle.waitSeconds(ADDRESS)).toBe(0);
  });

  it('still counts failures less than fifteen minutes apart', () => {
    const { throttle, fail, advance } = throttleWithClock();
    fail(4);
    advance(14 * 60 * 1000);
    fail(1);
    expect(throttle.waitSeconds(ADDRESS)).toBe(1);
  });

  it('after the longest wait, lets the address try again, and blocks it again at the next failure', () => {
    const { throttle, fail, advance } = throttleWithClock();
    fail(30);
    advance(5 * 60 * 1000);
    expect(throttle.waitSeconds(ADDRESS)).toBe(0);
    fail(1);
    expect(throttle.waitSeconds(ADDRESS)).toBe(300);
  });
});

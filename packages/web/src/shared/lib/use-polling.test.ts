import { describe, expect, it } from 'vitest';
import { analyticsTimeout, LONG_TIMEOUT } from '../http/http-error';
import { refreshInterval } from './use-polling';

describe('refresh intervals', () => {
  it('are 10 s by default for tasks and notifications', () => {
    expect(refreshInterval(undefined, 'tasks')).toBe(10_000);
    expect(refreshInterval({}, 'notifications')).toBe(10_000);
  });

  it('follow the configuration, in seconds', () => {
    expect(refreshInterval({ tasks: 30, notifications: 5 }, 'tasks')).toBe(30_000);
    expect(refreshInterval({ tasks: 30, notifications: 5 }, 'notifications')).toBe(5_000);
  });

  it('ignore values that are not a positive number', () => {
    expect(refreshInterval({ tasks: 0 }, 'tasks')).toBe(10_000);
    expect(refreshInterval({ tasks: 'soon' }, 'tasks')).toBe(10_000);
  });
});

describe('analytics time-out', () => {
  it('comes from the configuration, else 30000 ms', () => {
    expect(analyticsTimeout(45_000)).toBe(45_000);
    expect(analyticsTimeout(undefined)).toBe(LONG_TIMEOUT);
    expect(LONG_TIMEOUT).toBe(30_000);
  });
});

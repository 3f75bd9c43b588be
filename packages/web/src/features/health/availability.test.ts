import { describe, expect, it } from 'vitest';
import { STATE_NAMES, availabilityClass } from './health-api';

describe('health figures', () => {
  it('colours availability as section 9 says: 95+ success, 80-94 warning, 30-79 danger, below 30 fatal', () => {
    expect([100, 95].map(availabilityClass)).toEqual(['success', 'success']);
    expect([94.999, 80].map(availabilityClass)).toEqual(['warning', 'warning']);
    expect([79.9, 30].map(availabilityClass)).toEqual(['danger', 'danger']);
    expect([29.99, 0].map(availabilityClass)).toEqual(['fatal', 'fatal']);
  });

  it('names the states by their number: 0 down to 3 up', () => {
    expect(STATE_NAMES).toEqual(['DOWN', 'TRANSITIONALLY_DOWN', 'TRANSITIONALLY_UP', 'UP']);
  });
});

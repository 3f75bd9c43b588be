import { describe, expect, it } from 'vitest';
import { filtersOf, searchOf } from './filters';

describe('the filters of a subscription list', () => {
  it('default to page 1, size 10 and the statuses ACCEPTED, PENDING and PAUSED', () => {
    expect(filtersOf(new URLSearchParams(''), ['application', 'plan'])).toEqual({
      page: 1,
      size: 10,
      status: ['ACCEPTED', 'PENDING', 'PAUSED'],
      application: [],
      plan: [],
    });
  });

  it('read comma lists, in any case, and drop unknown statuses and sizes', () => {
    const filters = filtersOf(new URLSearchParams('page=3&size=25&status=closed,WHATEVER&plan=a,b'), [
      'plan',
    ]);
    expect(filters).toEqual({ page: 3, size: 25, status: ['CLOSED'], plan: ['a', 'b'] });
    expect(filtersOf(new URLSearchParams('size=33&page=-2'), []).size).toBe(10);
    expect(filtersOf(new URLSearchParams('size=33&page=-2'), []).page).toBe(1);
  });

  it('write back the query they were read from', () => {
    const search = '?page=2&size=50&status=PENDING%2CPAUSED&api=x%2Cy';
    expect(searchOf(filtersOf(new URLSearchParams(search), ['api']))).toBe(search);
  });
});

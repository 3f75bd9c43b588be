import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LOG_PAGE_SIZE,
  NO_LOG_FILTERS,
  escapeTerm,
  filtersToQuery,
  formatLogDate,
  isErrorStatus,
  uriTerm,
  viewFromParams,
  viewToParams,
} from './logs-query';

describe('log list query', () => {
  it('gives the URI filter a leading slash and a trailing wildcard, escaping special characters', () => {
    expect(uriTerm('pets')).toBe('\\/pets*');
    expect(uriTerm('/pets/1?x=(a)')).toBe('\\/pets\\/1\\?x=\\(a\\)*');
    expect(uriTerm('/store*')).toBe('\\/store*');
    expect(escapeTerm('a:b c')).toBe('a\\:b\\ c');
  });

  it('ANDs the filters and ORs the values of one filter', () => {
    const q = filtersToQuery(
      {
        ...NO_LOG_FILTERS,
        methods: ['GET', 'POST'],
        statuses: [5],
        consumers: ['app-1'],
        plans: ['p1', 'p2'],
        uri: '/pets',
        query: 'response-time:[100 TO *]',
      },
      'application',
    );
    expect(q).toBe(
      '(method:GET OR method:POST) AND status:[500 TO 599] AND application:app\\-1 AND (plan:p1 OR plan:p2) AND uri:\\/pets* AND (response-time:[100 TO *])',
    );
    expect(filtersToQuery({ ...NO_LOG_FILTERS, consumers: ['a'] }, 'api')).toBe('api:a');
    expect(filtersToQuery(NO_LOG_FILTERS, 'api')).toBe('');
    expect(filtersToQuery({ ...NO_LOG_FILTERS, query: 'status:200' }, 'api')).toBe('status:200');
  });

  it('reads the default view (1 day, page 1, size 15, newest first) and keeps a view through the URL', () => {
    const now = 1_700_000_000_000;
    const view = viewFromParams(new URLSearchParams(), now);
    expect(view).toMatchObject({ timeframe: '1d', from: now - 86_400_000, to: now, page: 1, size: 15 });
    expect(view.field).toBe('-@timestamp');
    expect(viewToParams(view).toString()).toBe('');
    const custom = viewFromParams(
      new URLSearchParams('from=10&to=20&page=3&size=50&method=GET,BAD&status=5,9&q=status:500&field=status'),
      now,
    );
    expect(custom).toMatchObject({
      timeframe: undefined,
      from: 10,
      to: 20,
      page: 3,
      size: 50,
      field: 'status',
    });
    expect(custom.filters.methods).toEqual(['GET']);
    expect(custom.filters.statuses).toEqual([5]);
    expect(viewFromParams(viewToParams(custom), now)).toEqual(custom);
    expect(viewFromParams(new URLSearchParams('size=7'), now).size).toBe(DEFAULT_LOG_PAGE_SIZE);
    expect(viewFromParams(new URLSearchParams('timeframe=5m'), now).from).toBe(now - 300_000);
  });

  it('formats dates as yyyy-MM-dd HH:mm:ss.sss and flags statuses from 400', () => {
    expect(formatLogDate(new Date(2026, 10, 5, 7, 8, 9, 42).getTime())).toBe('2026-11-05 07:08:09.042');
    expect(isErrorStatus(399)).toBe(false);
    expect(isErrorStatus(400)).toBe(true);
  });
});

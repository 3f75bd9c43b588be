import { parse } from 'lucene';
import { describe, expect, it } from 'vitest';
import type { Filter } from './filters';
import { filtersOf, queryOf, rangeValue, withFieldValues, withFilter, withoutFilter } from './filters';

describe('dashboard filters as the q Lucene query', () => {
  const alpha = { field: 'application', value: 'a1b2-c3' };
  const beta = { field: 'application', value: 'f00-42' };
  const failures = { field: 'status', value: rangeValue(500, 599) };

  it('ORs the values of one field and ANDs the fields', () => {
    expect(queryOf([alpha, failures, beta])).toBe(
      '(application:a1b2\\-c3 OR application:f00\\-42) AND status:[500 TO 599]',
    );
    expect(queryOf([])).toBe('');
    expect(queryOf([{ field: '_display', value: 'without' }])).toBe('NOT _exists_:endpoint');
  });

  it('escapes the special characters of terms, and reads them back', () => {
    const path = { field: 'path', value: '/orders-1/a:b (x)' };
    const q = queryOf([path]);
    expect(q).toBe('path:\\/orders\\-1\\/a\\:b\\ \\(x\\)');
    expect(filtersOf(q)).toEqual([path]);
  });

  it('reads back every query it writes, and each one is valid Lucene', () => {
    const lists: Filter[][] = [
      [alpha],
      [alpha, beta, failures],
      [
        { field: 'method', value: 'GET' },
        { field: 'method', value: 'POST' },
        { field: '_display', value: 'only' },
      ],
      [
        { field: 'response-time', value: rangeValue(500, '*') },
        { field: '_display', value: 'without' },
      ],
    ];
    for (const filters of lists) {
      const q = queryOf(filters);
      expect(() => parse(q)).not.toThrow();
      const sorted = (list: Filter[]) =>
        [...list].sort((a, b) => `${a.field}${a.value}`.localeCompare(`${b.field}${b.value}`));
      expect(sorted(filtersOf(q))).toEqual(sorted(filters));
    }
  });

  it('adds a filter once, removes it, and replaces the values of a field', () => {
    expect(withFilter(withFilter([alpha], alpha), failures)).toEqual([alpha, failures]);
    expect(withoutFilter([alpha, failures], alpha)).toEqual([failures]);
    expect(withFieldValues([alpha, failures], 'status', ['[200 TO 299]'])).toEqual([
      alpha,
      { field: 'status', value: '[200 TO 299]' },
    ]);
  });

  it('ignores what it cannot read', () => {
    expect(filtersOf('')).toEqual([]);
    expect(filtersOf('just words')).toEqual([]);
  });
});

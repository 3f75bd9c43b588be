import { describe, expect, it } from 'vitest';
import { seriesOf } from './components/line-widget';
import { slicesOf } from './components/pie-widget';
import { rowsOf } from './components/table-widget';
import type { DashboardKind } from './dashboards';
import { DEFAULT_OPTIONAL_WIDGETS, dashboardWidgets } from './dashboards';

describe('widgets read the answers of the analytics API (Gravitee 1.x shapes)', () => {
  it('a top table keeps the order of the metadata, names keys, links known APIs only', () => {
    const rows = rowsOf('api', {
      values: { b: 3, a: 7, '?': 1, gone: 2 },
      metadata: {
        a: { name: 'Pets', version: '1.0', order: '0' },
        b: { name: 'Orders', version: '2', order: '1' },
        gone: { name: 'Deleted API', deleted: 'true', order: '2' },
        '?': { name: 'Unknown API (not found)', unknown: 'true', order: '3' },
      },
    });
    expect(rows).toEqual([
      { key: 'a', name: 'Pets (1.0)', value: 7, link: '/management/apis/a/analytics' },
      { key: 'b', name: 'Orders (2)', value: 3, link: '/management/apis/b/analytics' },
      { key: 'gone', name: 'Deleted API', value: 2, link: undefined },
      { key: '?', name: 'Unknown API (not found)', value: 1, link: undefined },
    ]);
    expect(
      rowsOf('path', { values: { '/pets': 2 }, metadata: { '/pets': { name: '/pets', order: '0' } } }),
    ).toEqual([{ key: '/pets', name: '/pets', value: 2, link: undefined }]);
    // Countries come as ISO codes, named in the reader's language.
    const countries = { values: { FR: 2, BR: 1 }, metadata: { FR: { order: '0' }, BR: { order: '1' } } };
    expect(rowsOf('geoip.country_iso_code', countries, 'fr').map((r) => r.name)).toEqual([
      'France',
      'Brésil',
    ]);
    expect(rowsOf('geoip.country_iso_code', countries, 'en').map((r) => r.name)).toEqual([
      'France',
      'Brazil',
    ]);
  });

  it('the status pie labels the ranges in order and filters on each as a Lucene range', () => {
    const order = (i: number) => ({ name: '', order: String(i) });
    const slices = slicesOf(
      {
        values: { '500.0-599.0': 2, '100.0-199.0': 0, '200.0-299.0': 6, '300.0-399.0': 0, '400.0-499.0': 1 },
        metadata: {
          '100.0-199.0': order(0),
          '200.0-299.0': order(1),
          '300.0-399.0': order(2),
          '400.0-499.0': order(3),
          '500.0-599.0': order(4),
        },
      },
      ['1xx', '2xx', '3xx', '4xx', '5xx'],
    );
    expect(slices.map((s) => [s.name, s.value, s.range])).toEqual([
      ['1xx', 0, '[100 TO 199]'],
      ['2xx', 6, '[200 TO 299]'],
      ['3xx', 0, '[300 TO 399]'],
      ['4xx', 1, '[400 TO 499]'],
      ['5xx', 2, '[500 TO 599]'],
    ]);
  });

  it('a histogram gives a series per key of a field (named by metadata) and one per metric', () => {
    const series = seriesOf(
      {
        timestamp: { from: 0, to: 2000, interval: 1000 },
        values: [
          {
            name: 'by_api',
            field: 'api',
            buckets: [{ name: 'a', data: [1, 0, 2] }],
            metadata: { a: { name: 'Pets' } },
          },
          {
            name: 'avg_response-time',
            field: 'response-time',
            buckets: [{ name: 'avg_response-time', data: [5, 0, 7] }],
          },
        ],
      },
      (name) => `label of ${name}`,
    );
    expect(series).toEqual([
      { key: 'a', field: 'api', name: 'Pets', data: [1, 0, 2] },
      { field: 'response-time', name: 'label of avg_response-time', data: [5, 0, 7] },
    ]);
  });
});

describe('the optional widgets come from the configuration', () => {
  const ids = (kind: DashboardKind, optional: readonly string[]) =>
    dashboardWidgets(kind, optional).map((w) => `${w.id}@${w.col}`);

  it('go in the configured order, three to a row, after the tables of the platform and API dashboards', () => {
    const platform = ids('platform', ['os_name', 'host', 'user_agent_name']);
    const at = platform.indexOf('hits-by-system@0');
    expect(platform.slice(at, at + 3)).toEqual(['hits-by-system@0', 'hits-by-host@2', 'hits-by-browser@4']);
    expect(platform[at - 1]).toBe('top-overhead-apis@4');
    expect(platform[at + 3]).toBe('response-status@0');
    const api = ids('api', ['user_agent_name']);
    expect(api.filter((id) => id.startsWith('hits-by-') && !id.startsWith('hits-by-application'))).toEqual([
      'hits-by-browser@0',
    ]);
  });

  it('leave out unknown names, repeats, and the application dashboard', () => {
    const platform = ids('platform', ['geo_country', 'geo_city', 'host', 'host', 'map']);
    const at = platform.indexOf('hits-by-country@0');
    expect(platform.slice(at, at + 4)).toEqual([
      'hits-by-country@0',
      'hits-by-city@2',
      'hits-by-host@4',
      'response-status@0',
    ]);
    expect(ids('platform', ['map']).some((id) => /host|browser|system|country|city/.test(id))).toBe(false);
    expect(ids('platform', []).some((id) => /host|browser|system/.test(id))).toBe(false);
    expect(ids('application', DEFAULT_OPTIONAL_WIDGETS).some((id) => /host|browser|system/.test(id))).toBe(
      false,
    );
  });
});

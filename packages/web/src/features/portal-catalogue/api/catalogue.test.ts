import { describe, expect, it } from 'vitest';
import { defaultViewOf } from '../components/apis-page';
import type { CatalogueApi, CatalogueView } from './catalogue';
import { viewsHoldingApis } from './catalogue';

const view = (id: string, extra: Partial<CatalogueView> = {}): CatalogueView => ({
  id,
  name: id,
  description: null,
  defaultView: false,
  highlightApi: null,
  picture_url: null,
  totalApis: 99,
  ...extra,
});
const api = (id: string, views: string[]): CatalogueApi => ({
  id,
  name: id,
  version: '1',
  description: null,
  views,
  labels: [],
  picture_url: '',
  has_picture: false,
});

describe('viewsHoldingApis', () => {
  it('counts the given APIs per view, all of them for the all view, and leaves out empty views', () => {
    const views = [view('all'), view('travel'), view('empty'), view('weather')];
    const apis = [api('a', ['travel']), api('b', ['travel', 'weather']), api('c', [])];

    expect(viewsHoldingApis(views, apis).map((v) => [v.id, v.totalApis])).toEqual([
      ['all', 3],
      ['travel', 2],
      ['weather', 1],
    ]);
  });

  it('leaves every view out when the caller sees no API', () => {
    expect(viewsHoldingApis([view('all'), view('travel')], [])).toEqual([]);
  });
});

describe('defaultViewOf', () => {
  it('picks the default view, else the first one, else all', () => {
    expect(defaultViewOf([view('a'), view('b', { defaultView: true })])).toBe('b');
    expect(defaultViewOf([view('a'), view('b')])).toBe('a');
    expect(defaultViewOf([])).toBe('all');
  });
});

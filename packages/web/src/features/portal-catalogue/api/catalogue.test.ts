import { describe, expect, it } from 'vitest';
import { defaultViewOf } from '../components/apis-page';
import type { CatalogueView } from './catalogue';
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

describe('viewsHoldingApis', () => {
  it("keeps the views holding APIs the caller may see (the server's counts), in their order", () => {
    const views = [
      view('all', { totalApis: 3 }),
      view('travel', { totalApis: 2 }),
      view('empty', { totalApis: 0 }),
    ];
    expect(viewsHoldingApis(views).map((v) => v.id)).toEqual(['all', 'travel']);
  });

  it('leaves every view out when the caller sees no API', () => {
    expect(viewsHoldingApis([view('all', { totalApis: 0 }), view('travel', { totalApis: 0 })])).toEqual([]);
  });
});

describe('defaultViewOf', () => {
  it('picks the default view, else the first one, else all', () => {
    expect(defaultViewOf([view('a'), view('b', { defaultView: true })])).toBe('b');
    expect(defaultViewOf([view('a'), view('b')])).toBe('a');
    expect(defaultViewOf([])).toBe('all');
  });
});

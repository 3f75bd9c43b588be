import { describe, expect, it } from 'vitest';
import type { ApiChoice } from './api-choice';
import { API_CHOICE_LIMIT, apiChoiceList, apiOption, apiSearchText, firstMatches } from './api-choice';

const api = (n: number, version: string | undefined = '1.0'): ApiChoice => ({
  id: `api-${n}`,
  name: `Weather ${n}`,
  version,
});

describe('apiOption', () => {
  it('labels an API with its name and version, or its name alone', () => {
    expect(apiOption(api(1))).toEqual({ value: 'api-1', label: 'Weather 1 (1.0)' });
    expect(apiOption(api(2, ''))).toEqual({ value: 'api-2', label: 'Weather 2' });
  });
});

describe('firstMatches', () => {
  it('keeps the first 20 matches in their order and counts them all', () => {
    const found = firstMatches(Array.from({ length: 45 }, (_, i) => api(i + 1)));
    expect(API_CHOICE_LIMIT).toBe(20);
    expect(found.total).toBe(45);
    expect(found.apis).toHaveLength(20);
    expect(found.apis[0]?.label).toBe('Weather 1 (1.0)');
    expect(found.apis[19]?.label).toBe('Weather 20 (1.0)');
  });

  it('keeps every match when there are 20 or fewer', () => {
    expect(firstMatches([api(1), api(2)])).toEqual({
      apis: [apiOption(api(1)), apiOption(api(2))],
      total: 2,
    });
    expect(firstMatches([])).toEqual({ apis: [], total: 0 });
  });
});

describe('apiSearchText', () => {
  it('searches for the trimmed text once longer than 3 characters, as the catalogue', () => {
    expect(apiSearchText('', undefined)).toBeUndefined();
    expect(apiSearchText('wea', undefined)).toBeUndefined();
    expect(apiSearchText('  wea  ', undefined)).toBeUndefined();
    expect(apiSearchText(' weat ', undefined)).toBe('weat');
    expect(apiSearchText('weather forecasts', undefined)).toBe('weather forecasts');
  });

  it("does not search while the box shows the chosen API's label", () => {
    expect(apiSearchText('Weather 1 (1.0)', 'Weather 1 (1.0)')).toBeUndefined();
    expect(apiSearchText('Weather 1 (1.', 'Weather 1 (1.0)')).toBe('Weather 1 (1.');
  });
});

describe('apiChoiceList', () => {
  const none = {
    query: undefined,
    pending: false,
    found: undefined,
    subscribed: undefined,
    chosen: undefined,
  };
  const found = firstMatches([api(1), api(2)]);

  it('offers the matches of the search', () => {
    expect(apiChoiceList({ ...none, query: 'weat', found })).toEqual({
      kind: 'found',
      apis: found.apis,
      total: 2,
    });
  });

  it("keeps the previous search's matches while the next one is on its way", () => {
    expect(apiChoiceList({ ...none, query: 'weath', pending: true, found })).toMatchObject({ kind: 'found' });
  });

  it('says it searches before the first answer, and that nothing matches after it', () => {
    expect(apiChoiceList({ ...none, query: 'weat', pending: true })).toEqual({
      kind: 'text',
      text: 'support.ticket.apiSearch.searching',
    });
    const empty = firstMatches([]);
    expect(apiChoiceList({ ...none, query: 'weat', pending: true, found: empty })).toMatchObject({
      text: 'support.ticket.apiSearch.searching',
    });
    expect(apiChoiceList({ ...none, query: 'zeppelin', found: empty })).toEqual({
      kind: 'text',
      text: 'support.ticket.apiSearch.none',
      q: 'zeppelin',
    });
  });

  it('offers, without a search, the APIs the chosen application subscribes to', () => {
    expect(apiChoiceList({ ...none, subscribed: [api(3), api(4)] })).toEqual({
      kind: 'initial',
      chosen: undefined,
      subscribed: [apiOption(api(3)), apiOption(api(4))],
    });
  });

  it('keeps the chosen API among the options, apart when the application does not subscribe to it', () => {
    const chosen = apiOption(api(1));
    expect(apiChoiceList({ ...none, chosen })).toEqual({ kind: 'initial', chosen, subscribed: [] });
    expect(apiChoiceList({ ...none, chosen, subscribed: [api(1), api(4)] })).toEqual({
      kind: 'initial',
      chosen: undefined,
      subscribed: [chosen, apiOption(api(4))],
    });
  });

  it('asks to type when there is nothing to offer yet', () => {
    expect(apiChoiceList(none)).toEqual({ kind: 'text', text: 'support.ticket.apiSearch.hint' });
    expect(apiChoiceList({ ...none, subscribed: [] })).toEqual({
      kind: 'text',
      text: 'support.ticket.apiSearch.hint',
    });
  });
});

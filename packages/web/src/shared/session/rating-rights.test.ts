import { describe, expect, it } from 'vitest';
import { mayReadRatings, ratingRightsQueryOptions } from './rating-rights';

describe('mayReadRatings', () => {
  it('lets anybody read the ratings of a PUBLIC API, whatever their rights', () => {
    expect(mayReadRatings({ visibility: 'PUBLIC' }, undefined)).toBe(true);
    expect(mayReadRatings({ visibility: 'PUBLIC' }, { RATING: '' })).toBe(true);
  });

  it('needs RATING R (api-rating-r) on another API', () => {
    expect(mayReadRatings({ visibility: 'PRIVATE' }, { RATING: 'CRU', RATING_ANSWER: 'R' })).toBe(true);
    expect(mayReadRatings({ visibility: 'PRIVATE' }, { RATING: 'R' })).toBe(true);
    expect(mayReadRatings({ visibility: 'PRIVATE' }, { RATING: 'CD', RATING_ANSWER: 'R' })).toBe(false);
    expect(mayReadRatings({ visibility: 'PRIVATE' }, { DEFINITION: 'R' })).toBe(false);
  });

  it('shows no link while the rights are unknown on another API', () => {
    expect(mayReadRatings({ visibility: 'PRIVATE' }, undefined)).toBe(false);
  });
});

describe('ratingRightsQueryOptions', () => {
  it("keeps the rights under the API's ratings, which saving a rating refreshes", () => {
    expect(ratingRightsQueryOptions('a b').queryKey).toEqual(['portal', 'apis', 'a b', 'ratings', 'rights']);
  });
});

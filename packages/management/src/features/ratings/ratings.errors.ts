import { DomainError } from '@portico/model';

/** Rating is switched off in the portal settings (`portal.rating.enabled`): as Gravitee, 503. */
export const RATING_UNAVAILABLE = 'API rating is not available';
export const ratingUnavailable = () => new DomainError(503, RATING_UNAVAILABLE, 'API_RATING_UNAVAILABLE');

export const ratingAlreadyExists = () =>
  new DomainError(
    400,
    'You have already rated this API: change your rating instead',
    'RATING_ALREADY_EXISTS',
  );

export const notOwnRating = () =>
  new DomainError(403, 'Only the author of a rating may change it', 'RATING_NOT_OWNED');

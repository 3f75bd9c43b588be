import { DomainError, ValidationError, notFound } from '@portico/model';

/**
 * The refusals of the subscription and API key rules (console-apis.md sections 4 and 5,
 * portal-and-platform.md section 5), each with a message a user can act on.
 */

export const subscriptionNotFound = (id: string) => notFound('Subscription', id);
export const apiKeyNotFound = (key: string) => notFound('ApiKey', key);
export const applicationNotFound = (id: string) => notFound('Application', id);

export const PLAN_NOT_SUBSCRIBABLE = 'Only a published plan can be subscribed to.';
export const KEYLESS_NOT_SUBSCRIBABLE = 'A key-less plan needs no subscription: anybody may call the API.';
export const ALREADY_SUBSCRIBED =
  'The application already has a pending or accepted subscription to this plan.';
export const CLIENT_ID_REQUIRED =
  'client id required: an OAuth2 or JWT plan needs an application with a client id.';
export const ONE_OAUTH_SUBSCRIPTION =
  'The application already has an OAuth2 or JWT subscription to this API: only one is allowed.';
export const COMMENT_REQUIRED = (message: string | null) =>
  `A message to the API publisher is required${message ? `: ${message}` : '.'}`;

export const NOT_PENDING = 'Only a pending subscription can be accepted or rejected.';
export const NOT_ACCEPTED = 'Only an accepted subscription can be paused.';
export const NOT_PAUSED = 'Only a paused subscription can be resumed.';
export const NOT_CLOSABLE = 'Only an accepted or paused subscription can be closed.';
export const NOT_CLOSABLE_BY_APPLICATION = 'Only a pending, accepted or paused subscription can be closed.';
export const NOT_TRANSFERABLE = 'Only an accepted or paused subscription can be transferred.';
export const NOT_CHANGEABLE = 'Only the dates of an accepted or paused subscription can be changed.';
export const TRANSFER_SAME_PLAN = 'The subscription is already on this plan.';
export const TRANSFER_PLAN_NOT_PUBLISHED = 'A subscription can only be transferred to a published plan.';
export const TRANSFER_OTHER_SECURITY =
  'A subscription can only be transferred to a plan of the same security type.';
export const START_BEFORE_TODAY = 'The start date may not be before today.';
export const END_BEFORE_START = 'The end date may not be before the start date.';
export const END_BEFORE_NOW = 'The end date may not be earlier than now.';

export const KEY_NEEDS_ACCEPTED =
  'API keys can only be renewed or revoked while the subscription is accepted.';
export const KEY_NOT_API_KEY_PLAN = 'The plan of this subscription does not use API keys.';
export const KEY_ALREADY_REVOKED = 'The API key is already revoked.';
export const KEY_EXPIRY_IN_PAST = 'The expiration date may not be earlier than now.';
export const KEY_EXPIRY_AFTER = (limit: number) =>
  `The expiration date may not be after ${new Date(limit).toISOString()} (the end of the subscription).`;

export const subscriptionRefused = (message: string, code = 'SUBSCRIPTION_STATE') =>
  new DomainError(400, message, code);
export const subscriptionRule = (field: string, message: string) => new ValidationError(field, message);

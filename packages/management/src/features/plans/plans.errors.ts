import { DomainError, ValidationError, notFound } from '@portico/model';

/** The refusals of the plan rules (console-apis.md sections 4 and 5), each with a message a user can act on. */

export const planNotFound = (id: string) => notFound('Plan', id);

export const PLAN_NOT_STAGING = 'Only a staging plan can be published.';
export const PLAN_NOT_PUBLISHED = 'Only a published plan can be deprecated.';
export const PLAN_ALREADY_CLOSED = 'The plan is already closed.';
export const PLAN_CLOSED = 'A closed plan can not be changed.';
export const PLAN_SECURITY_FIXED = 'The security type of a plan can not be changed once it exists.';
export const KEYLESS_PLAN_EXISTS =
  'The API already has a published or deprecated key-less plan: only one is allowed.';
export const PLAN_HAS_SUBSCRIPTIONS =
  'The plan has accepted, pending or paused subscriptions: close them (or close the plan) before deleting it.';

export const planStateRefused = (message: string) => new DomainError(400, message, 'PLAN_STATE');
export const planRule = (field: string, message: string) => new ValidationError(field, message);
export const planNotDeletable = () => new DomainError(400, PLAN_HAS_SUBSCRIPTIONS, 'PLAN_HAS_SUBSCRIPTIONS');

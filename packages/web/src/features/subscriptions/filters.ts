import {
  DEFAULT_SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_DEFAULT_PAGE_SIZE,
  SUBSCRIPTION_PAGE_SIZES,
  SUBSCRIPTION_STATUSES,
} from '@portico/model';
import type { SubscriptionFilters, SubscriptionStatus } from './api/types';

export { DEFAULT_SUBSCRIPTION_STATUSES, SUBSCRIPTION_PAGE_SIZES, SUBSCRIPTION_STATUSES };

/** The id lists a subscription list filters on: plans and applications (API side), APIs (application side). */
export type ListFilter = 'application' | 'plan' | 'api';

const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * The filters of a subscription list from its URL (`?page&size&status&application&plan`, comma lists):
 * page 1, size 10 and the statuses ACCEPTED, PENDING, PAUSED unless the URL says otherwise.
 */
export function filtersOf(params: URLSearchParams, lists: readonly ListFilter[]): SubscriptionFilters {
  const page = Number.parseInt(params.get('page') ?? '', 10);
  const size = Number.parseInt(params.get('size') ?? '', 10);
  const statuses = list(params.get('status'))
    .map((s) => s.toUpperCase())
    .filter((s): s is SubscriptionStatus => (SUBSCRIPTION_STATUSES as readonly string[]).includes(s));
  const filters: SubscriptionFilters = {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    size: (SUBSCRIPTION_PAGE_SIZES as readonly number[]).includes(size)
      ? size
      : SUBSCRIPTION_DEFAULT_PAGE_SIZE,
    status: statuses.length > 0 ? statuses : [...DEFAULT_SUBSCRIPTION_STATUSES],
  };
  for (const name of lists) filters[name] = list(params.get(name));
  return filters;
}

/** The URL query of filters (empty lists left out). */
export function searchOf(filters: SubscriptionFilters): string {
  const params = new URLSearchParams();
  params.set('page', String(filters.page));
  params.set('size', String(filters.size));
  params.set('status', filters.status.join(','));
  for (const name of ['application', 'plan', 'api'] as const) {
    const values = filters[name];
    if (values && values.length > 0) params.set(name, values.join(','));
  }
  return `?${params.toString()}`;
}

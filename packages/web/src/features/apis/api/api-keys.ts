import type { ApiListOrder } from './types';

/** The query keys of the APIs (plans and pages of an API live under `['apis', id, ...]` too). */
export const apiKeys = {
  all: ['apis'] as const,
  lists: () => [...apiKeys.all, 'list'] as const,
  list: (q: string, order: ApiListOrder) => [...apiKeys.lists(), { q, order }] as const,
  detail: (id: string) => [...apiKeys.all, id] as const,
  entity: (id: string) => [...apiKeys.detail(id), 'entity'] as const,
  state: (id: string) => [...apiKeys.detail(id), 'state'] as const,
  quality: (id: string) => [...apiKeys.detail(id), 'quality'] as const,
  events: (id: string) => [...apiKeys.detail(id), 'events'] as const,
  members: (id: string) => [...apiKeys.detail(id), 'members'] as const,
  groups: (id: string) => [...apiKeys.detail(id), 'groups'] as const,
  metadata: (id: string) => [...apiKeys.detail(id), 'metadata'] as const,
  activePlans: (id: string) => [...apiKeys.detail(id), 'plans', 'active'] as const,
};

/** Reference data the API screens pick from. */
export const referenceKeys = {
  roles: (scope: string) => ['roles', scope] as const,
  userTags: () => ['user', 'tags'] as const,
  views: () => ['configuration', 'views'] as const,
  tags: () => ['configuration', 'tags'] as const,
  groups: () => ['configuration', 'groups'] as const,
  users: (q: string) => ['search', 'users', q] as const,
};

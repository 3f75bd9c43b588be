/** Query keys of applications (their subscriptions live under `['applications', id, 'subscriptions']`). */
export const applicationKeys = {
  all: ['applications'] as const,
  lists: () => [...applicationKeys.all, 'list'] as const,
  list: (query: string) => [...applicationKeys.lists(), query] as const,
  detail: (id: string) => [...applicationKeys.all, id] as const,
  entity: (id: string) => [...applicationKeys.detail(id), 'entity'] as const,
  members: (id: string) => [...applicationKeys.detail(id), 'members'] as const,
  roles: () => ['roles', 'APPLICATION'] as const,
  groups: () => ['configuration', 'groups'] as const,
};

/**
 * Query keys of plans. They live under their API's key (`['apis', id, ...]`) so that whatever refreshes
 * an API refreshes its plans too.
 */
export const planKeys = {
  all: (apiId: string) => ['apis', apiId, 'plans'] as const,
  list: (apiId: string) => [...planKeys.all(apiId), 'list'] as const,
  detail: (apiId: string, planId: string) => [...planKeys.all(apiId), 'detail', planId] as const,
  /** The API's deployment state (`GET apis/{id}/state`): a plan change puts the API out of sync. */
  apiState: (apiId: string) => ['apis', apiId, 'state'] as const,
  policies: () => ['policies', 'expanded'] as const,
  groups: () => ['configuration', 'groups'] as const,
};

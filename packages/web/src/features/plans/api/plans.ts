import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import { planKeys } from './plan-keys';
import type { NamedGroup, Plan, PlanInput, PolicyDescription } from './types';

const plansPath = (apiId: string, rest = '') => `apis/${encodeURIComponent(apiId)}/plans${rest}`;
const planPath = (apiId: string, planId: string, rest = '') =>
  plansPath(apiId, `/${encodeURIComponent(planId)}${rest}`);

/** `GET apis/{id}/plans`: every plan of the API in its order (the list filters by status itself). */
export const plansQueryOptions = (apiId: string) =>
  queryOptions({
    queryKey: planKeys.list(apiId),
    queryFn: ({ signal }) => http.get<Plan[]>(plansPath(apiId), { signal }),
  });

export const usePlans = (apiId: string) => useQuery(plansQueryOptions(apiId));

/** `GET apis/{id}/plans/{planId}`. */
export const usePlan = (apiId: string, planId: string | undefined) =>
  useQuery({
    queryKey: planKeys.detail(apiId, planId ?? ''),
    queryFn: ({ signal }) => http.get<Plan>(planPath(apiId, planId!), { signal }),
    enabled: !!planId,
  });

/** `GET policies?expandSchema=true`: the gateway's policies with their configuration schemas. */
export const usePolicies = () =>
  useQuery({
    queryKey: planKeys.policies(),
    queryFn: ({ signal }) =>
      http.get<PolicyDescription[]>('policies', { query: { expandSchema: 'true' }, signal }),
    staleTime: Infinity,
  });

/** `GET configuration/groups` (silent: without it the excluded groups cannot be picked). */
export const useGroups = () =>
  useQuery({
    queryKey: planKeys.groups(),
    queryFn: ({ signal }) => http.get<NamedGroup[]>('configuration/groups', { signal, silent: true }),
    staleTime: 5 * 60_000,
    retry: false,
  });

/** A plan changed: its API's plans are read again, and the API may now be out of sync. */
function changed(queryClient: QueryClient, apiId: string): void {
  void queryClient.invalidateQueries({ queryKey: planKeys.all(apiId) });
  void queryClient.invalidateQueries({ queryKey: planKeys.apiState(apiId) });
}

/** `POST apis/{id}/plans` (a new plan is STAGING). */
export function useCreatePlan(apiId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: PlanInput) => http.post<Plan>(plansPath(apiId), plan),
    onSuccess: () => changed(queryClient, apiId),
  });
}

/** `PUT apis/{id}/plans/{planId}` (the security type cannot change). */
export function useUpdatePlan(apiId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...changes }: Partial<PlanInput> & { id: string; order?: number }) =>
      http.put<Plan>(planPath(apiId, id), changes),
    onSuccess: (plan) => {
      queryClient.setQueryData(planKeys.detail(apiId, plan.id), plan);
      changed(queryClient, apiId);
    },
  });
}

export type PlanAction = 'publish' | 'deprecate' | 'close';
const ACTION_PATHS: Record<PlanAction, string> = {
  publish: '/_publish',
  deprecate: '/_depreciate',
  close: '/_close',
};

/** `POST .../_publish`, `_depreciate` or `_close` (`silent`: the screen says what went wrong itself). */
export function usePlanAction(apiId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ plan, action, silent }: { plan: Plan; action: PlanAction; silent?: boolean }) =>
      http.post<Plan>(planPath(apiId, plan.id, ACTION_PATHS[action]), undefined, { silent }),
    onSuccess: (_plan, { action }) => {
      changed(queryClient, apiId);
      // Closing a plan closes its subscriptions.
      if (action === 'close')
        void queryClient.invalidateQueries({ queryKey: ['apis', apiId, 'subscriptions'] });
    },
  });
}

/** `DELETE apis/{id}/plans/{planId}`: refused while the plan has active subscriptions. */
export function useDeletePlan(apiId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: Plan) => http.delete(planPath(apiId, plan.id)),
    onSuccess: () => changed(queryClient, apiId),
  });
}

/** Reordering saves each plan whose place changed with its new order (1 for the first). */
export function useReorderPlans(apiId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ordered: Plan[]) => {
      const moved = ordered
        .map((plan, index) => ({ plan, order: index + 1 }))
        .filter(({ plan, order }) => plan.order !== order);
      for (const { plan, order } of moved) await http.put<Plan>(planPath(apiId, plan.id), { order });
    },
    onMutate: (ordered) => {
      // The cards stay where they were dropped while the orders are saved.
      queryClient.setQueryData<Plan[]>(planKeys.list(apiId), (plans) =>
        plans?.map((plan) => {
          const index = ordered.findIndex((p) => p.id === plan.id);
          return index < 0 ? plan : { ...plan, order: index + 1 };
        }),
      );
    },
    onSettled: () => changed(queryClient, apiId),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import { apiKeys } from './api-keys';
import { apiPath } from './get-api';
import type { Api } from './types';

/** `POST apis/verify`: 400 when the context path is taken (by the same path, a parent or a sub-path). */
export const verifyContextPath = (contextPath: string) =>
  http.post<{ context_path: string; available: boolean }>(
    'apis/verify',
    { context_path: contextPath },
    { silent: true },
  );

export interface NewApiInput {
  name: string;
  version: string;
  description: string;
  context_path: string;
  endpoint: string;
}

export type PlanSecurity = 'KEY_LESS' | 'API_KEY';
export type RateUnit = 'SECONDS' | 'MINUTES';
export type QuotaUnit = 'HOURS' | 'DAYS' | 'WEEKS' | 'MONTHS';

export interface WizardPlan {
  name: string;
  security: PlanSecurity;
  description: string;
  rateLimit?: { limit: number; periodTime: number; periodTimeUnit: RateUnit };
  quota?: { limit: number; periodTime: number; periodTimeUnit: QuotaUnit };
  /** Path authorization (resource filtering): Ant patterns and their methods (none: all). */
  paths: { pattern: string; methods: string[] }[];
}

export interface WizardPage {
  name: string;
  fileName: string;
  type: 'MARKDOWN' | 'SWAGGER';
  content: string;
}

/** The policies of the plan's restrictions, on its root path. */
export function planPaths(plan: WizardPlan): Record<string, Record<string, unknown>[]> {
  const steps: Record<string, unknown>[] = [];
  if (plan.rateLimit) steps.push({ enabled: true, 'rate-limit': { rate: plan.rateLimit, addHeaders: true } });
  if (plan.quota) steps.push({ enabled: true, quota: { quota: plan.quota, addHeaders: true } });
  const rules = plan.paths.filter((p) => p.pattern.trim() !== '');
  if (rules.length > 0) {
    steps.push({
      enabled: true,
      'resource-filtering': {
        whitelist: rules.map((r) => ({ pattern: r.pattern.trim(), methods: r.methods })),
        blacklist: [],
      },
    });
  }
  return steps.length > 0 ? { '/': steps } : {};
}

/**
 * The creation: `POST apis`, its plan (`POST apis/{id}/plans`), its pages, then with `deploy` the
 * deployment and the start. Without deploy the plan is STAGING and the pages unpublished; with it the
 * plan is PUBLISHED and the pages published. The management API has no page calls yet: the pages go in
 * with `POST apis/{id}/import`, the API's own definition carrying them.
 */
export function useCreateApi() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      api: NewApiInput;
      plan: WizardPlan | undefined;
      pages: WizardPage[];
      deploy: boolean;
    }): Promise<Api> => {
      const created = await http.request<Api>('apis', { method: 'POST', body: input.api });
      const id = created.data.id;
      let etag = created.headers.get('ETag') ?? undefined;
      let api = created.data;
      if (input.plan) {
        await http.post(apiPath(id, '/plans'), {
          name: input.plan.name,
          description: input.plan.description,
          security: input.plan.security,
          validation: 'AUTO',
          status: input.deploy ? 'PUBLISHED' : 'STAGING',
          paths: planPaths(input.plan),
        });
      }
      if (input.pages.length > 0) {
        const {
          owner: _owner,
          picture_url: _picture,
          state: _state,
          created_at: _created,
          updated_at: _updated,
          deployed_at: _deployed,
          ...definition
        } = api;
        const imported = await http.request<Api>(apiPath(id, '/import'), {
          method: 'POST',
          body: {
            ...definition,
            pages: input.pages.map((page, order) => ({
              name: page.name,
              type: page.type,
              content: page.content,
              order,
              published: input.deploy,
            })),
          },
        });
        api = imported.data;
        etag = imported.headers.get('ETag') ?? etag;
      }
      if (input.deploy) {
        const deployed = await http.request<Api>(apiPath(id, '/deploy'), { method: 'POST', body: {} });
        // START answers 204 with the new entity tag (as Gravitee 1.x): the API is read again.
        await http.request<void>(apiPath(id), {
          method: 'POST',
          query: { action: 'START' },
          ifMatch: deployed.headers.get('ETag') ?? etag,
        });
        const started = await http.request<Api>(apiPath(id));
        api = started.data;
        etag = started.headers.get('ETag') ?? etag;
      }
      queryClient.setQueryData(apiKeys.entity(id), { api, etag });
      return api;
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeys.lists() }),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, LONG_TIMEOUT } from '../../../shared/http';
import { apiKeys } from './api-keys';
import { apiPath } from './get-api';
import type { Api, ApiWithEtag } from './types';

export interface ImportOptions {
  with_documentation: boolean;
  with_path_mapping: boolean;
  with_policy_paths: boolean;
  with_policy_mocks: boolean;
}

/** What an import sends: the file's text (INLINE) or its address (URL), and the options. */
export interface ImportRequest extends ImportOptions {
  type: 'INLINE' | 'URL';
  payload: string;
  /** Swagger/OpenAPI files go to `import/swagger`, native definitions to `import`. */
  swagger: boolean;
}

const body = ({ swagger: _swagger, ...request }: ImportRequest) => ({
  ...request,
  with_policy_mocks: request.with_policy_paths && request.with_policy_mocks,
});

/** `POST apis/import` or `apis/import/swagger`: a new API (the answer carries its id). */
export function useImportNewApi() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: ImportRequest) => {
      const path = request.swagger && request.type === 'INLINE' ? 'apis/import/swagger' : 'apis/import';
      const response = await http.request<Api>(path, {
        method: 'POST',
        body: body(request),
        timeout: LONG_TIMEOUT,
      });
      const value: ApiWithEtag = { api: response.data, etag: response.headers.get('ETag') ?? undefined };
      queryClient.setQueryData(apiKeys.entity(response.data.id), value);
      return response.data;
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeys.lists() }),
  });
}

/** `POST apis/{id}/import`: the API is updated from the file and keeps its id. */
export function useImportOverApi(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: ImportRequest) => {
      const response = await http.request<Api>(apiPath(id, '/import'), {
        method: 'POST',
        body: body(request),
        timeout: LONG_TIMEOUT,
      });
      return { api: response.data, etag: response.headers.get('ETag') ?? undefined };
    },
    onSuccess: (value) => {
      queryClient.setQueryData(apiKeys.entity(id), value);
      void queryClient.invalidateQueries({ queryKey: apiKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: apiKeys.lists() });
    },
  });
}

export const EXPORT_FIELDS = ['groups', 'members', 'pages', 'plans', 'metadata'] as const;
export type ExportField = (typeof EXPORT_FIELDS)[number];
export const EXPORT_VERSIONS = ['current', '1.20', '1.15'] as const;
export type ExportVersion = (typeof EXPORT_VERSIONS)[number];

/** The export's file name, from the API's name and version (as the server names it). */
export function exportFileName(name: string, version: string): string {
  const clean = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'api';
  return `${clean(name)}-${clean(version)}.json`;
}

/** `GET apis/{id}/export?exclude=&version=`, saved by the browser as a JSON file. */
export function useExportApi(api: Pick<Api, 'id' | 'name' | 'version'>) {
  return useMutation({
    mutationFn: async ({ exclude, version }: { exclude: ExportField[]; version: ExportVersion }) => {
      const text = await http.get<string>(apiPath(api.id, '/export'), {
        query: { exclude: exclude.join(',') || undefined, version },
        responseType: 'text',
      });
      const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = exportFileName(api.name, api.version);
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    },
  });
}

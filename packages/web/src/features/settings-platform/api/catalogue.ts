import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';

/** Tenants, global metadata, top APIs and API portal headers (console-applications-and-settings.md 7). */

export interface Tenant {
  id: string;
  name: string;
  description: string | null;
}

export type MetadataFormat = 'STRING' | 'NUMERIC' | 'BOOLEAN' | 'DATE' | 'MAIL' | 'URL';
export interface Metadata {
  key: string;
  name: string;
  /** Lower case on the wire. */
  format: string;
  value: string | null;
  defaultValue: string | null;
}

export interface TopApi {
  api: string;
  name: string;
  version: string;
  description: string | null;
  order: number;
}

export interface ApiHeader {
  id: string;
  name: string;
  value: string;
  order: number;
}

export const catalogueKeys = {
  tenants: ['configuration', 'tenants'] as const,
  metadata: ['configuration', 'metadata'] as const,
  topApis: ['configuration', 'top-apis'] as const,
  apiHeaders: ['configuration', 'apiheaders'] as const,
};

function useInvalidating<V, R>(key: readonly string[], request: (value: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
}

export const useTenants = () =>
  useQuery({
    queryKey: catalogueKeys.tenants,
    queryFn: ({ signal }) => http.get<Tenant[]>('configuration/tenants', { signal }),
  });

/** Save of the tenants table: `POST` the new ones, `PUT` the changed ones, `DELETE` the removed ones. */
export const useSaveTenants = () =>
  useInvalidating(
    catalogueKeys.tenants,
    async (changes: { created: Omit<Tenant, 'id'>[]; updated: Tenant[]; deleted: string[] }) => {
      for (const id of changes.deleted) await http.delete(`configuration/tenants/${encodeURIComponent(id)}`);
      if (changes.updated.length > 0) await http.put('configuration/tenants', changes.updated);
      if (changes.created.length > 0) await http.post('configuration/tenants', changes.created);
    },
  );

export const useGlobalMetadata = () =>
  useQuery({
    queryKey: catalogueKeys.metadata,
    queryFn: ({ signal }) => http.get<Metadata[]>('configuration/metadata', { signal }),
  });

/** `POST configuration/metadata` (no key) or `PUT configuration/metadata` (with its key). */
export const useSaveGlobalMetadata = () =>
  useInvalidating(
    catalogueKeys.metadata,
    (input: { key?: string | undefined; name: string; format: string; value: string }) =>
      input.key
        ? http.put<Metadata>('configuration/metadata', input)
        : http.post<Metadata>('configuration/metadata', input),
  );

export const useDeleteGlobalMetadata = () =>
  useInvalidating(catalogueKeys.metadata, (key: string) =>
    http.delete(`configuration/metadata/${encodeURIComponent(key)}`),
  );

export const useTopApis = () =>
  useQuery({
    queryKey: catalogueKeys.topApis,
    queryFn: ({ signal }) => http.get<TopApi[]>('configuration/top-apis', { signal }),
  });

export const useAddTopApi = () =>
  useInvalidating(catalogueKeys.topApis, (api: string) =>
    http.post<TopApi[]>('configuration/top-apis', { api }),
  );

/** `PUT configuration/top-apis` with every top API in the new order. */
export const useReorderTopApis = () =>
  useInvalidating(catalogueKeys.topApis, (apis: string[]) =>
    http.put<TopApi[]>(
      'configuration/top-apis',
      apis.map((api) => ({ api })),
    ),
  );

export const useRemoveTopApi = () =>
  useInvalidating(catalogueKeys.topApis, (api: string) =>
    http.delete(`configuration/top-apis/${encodeURIComponent(api)}`),
  );

export const useApiHeaders = () =>
  useQuery({
    queryKey: catalogueKeys.apiHeaders,
    queryFn: ({ signal }) => http.get<ApiHeader[]>('configuration/apiheaders', { signal }),
  });

/** `POST configuration/apiheaders` (new, at the end) or `PUT configuration/apiheaders/{id}` (also moves it). */
export const useSaveApiHeader = () =>
  useInvalidating(
    catalogueKeys.apiHeaders,
    (header: { id?: string | undefined; name: string; value: string; order?: number | undefined }) =>
      header.id
        ? http.put<ApiHeader>(`configuration/apiheaders/${encodeURIComponent(header.id)}`, {
            name: header.name,
            value: header.value,
            order: header.order,
          })
        : http.post<ApiHeader>('configuration/apiheaders', { name: header.name, value: header.value }),
  );

export const useDeleteApiHeader = () =>
  useInvalidating(catalogueKeys.apiHeaders, (id: string) =>
    http.delete(`configuration/apiheaders/${encodeURIComponent(id)}`),
  );

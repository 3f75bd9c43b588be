import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';

/** A view of `configuration/views` (console-applications-and-settings.md 3). */
export interface View {
  id: string;
  name: string;
  description: string | null;
  order: number;
  defaultView: boolean;
  hidden: boolean;
  highlightApi: string | null;
  /** Only in the answer of one view: the picture as a data URL. */
  picture?: string | null;
  picture_url: string | null;
  totalApis: number;
}

/** What the view form sends (picture: a data URL, null to remove it, absent to keep it). */
export interface ViewInput {
  name: string;
  description: string | null;
  hidden: boolean;
  defaultView: boolean;
  highlightApi: string | null;
  picture?: string | null;
}

/** An API of `GET apis?view=` and of the API search (the fields the screens show). */
export interface ApiSummary {
  id: string;
  name: string;
  version: string;
  context_path: string;
}

/** Under the console's own key of the views (the API form's picker), so that changes refresh it. */
export const viewKeys = {
  all: ['configuration', 'views'] as const,
  list: () => [...viewKeys.all, 'settings'] as const,
  detail: (id: string) => [...viewKeys.all, 'detail', id] as const,
  apis: (id: string) => ['apis', 'list', { view: id }] as const,
};

const BASE = 'configuration/views';
const one = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/** `GET configuration/views?all=true`: every view, hidden ones too, in their order. */
export const useViews = () =>
  useQuery({
    queryKey: viewKeys.list(),
    queryFn: ({ signal }) => http.get<View[]>(BASE, { query: { all: 'true' }, signal }),
  });

/** `GET configuration/views/{id}` (with its picture). */
export const useView = (id: string | undefined) =>
  useQuery({
    queryKey: viewKeys.detail(id ?? ''),
    queryFn: ({ signal }) => http.get<View>(one(id!), { signal }),
    enabled: !!id,
  });

/** `GET apis?view={id}`: the APIs attached to a view. */
export const useApisOfView = (id: string | undefined) =>
  useQuery({
    queryKey: viewKeys.apis(id ?? ''),
    queryFn: ({ signal }) => http.get<ApiSummary[]>('apis', { query: { view: id! }, signal }),
    enabled: !!id,
  });

function useRefreshViews() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: viewKeys.all });
    void queryClient.invalidateQueries({ queryKey: ['apis'] });
  };
}

/** Adds or removes a view on one API: `GET apis/{id}` for its views, then `PUT apis/{id}` with them. */
async function setViewOnApi(apiId: string, viewId: string, on: boolean): Promise<void> {
  const path = `apis/${encodeURIComponent(apiId)}`;
  const api = await http.get<{ views: string[] }>(path);
  const views = on ? [...new Set([...api.views, viewId])] : api.views.filter((v) => v !== viewId);
  if (views.length !== api.views.length) await http.put(path, { views });
}

/**
 * `POST configuration/views` or `PUT configuration/views/{id}`; after saving, each API attached or
 * detached on the form is updated with its views array (2.3, 7).
 */
export function useSaveView(id: string | undefined) {
  const refresh = useRefreshViews();
  return useMutation({
    mutationFn: async ({
      input,
      attach,
      detach,
    }: {
      input: ViewInput;
      attach: string[];
      detach: string[];
    }) => {
      const view = id ? await http.put<View>(one(id), input) : await http.post<View>(BASE, input);
      for (const api of attach) await setViewOnApi(api, view.id, true);
      for (const api of detach) await setViewOnApi(api, view.id, false);
      return view;
    },
    onSuccess: refresh,
  });
}

/** `PUT configuration/views` with several views: the new order, or a new default or hidden flag. */
export function useUpdateViews() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (views: View[]) =>
      http.put<View[]>(
        BASE,
        views.map((v) => ({
          id: v.id,
          name: v.name,
          description: v.description,
          order: v.order,
          defaultView: v.defaultView,
          hidden: v.hidden,
        })),
      ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: viewKeys.all }),
  });
}

/** `DELETE configuration/views/{id}` (never `all`); its APIs lose it. */
export function useDeleteView() {
  const refresh = useRefreshViews();
  return useMutation({ mutationFn: (id: string) => http.delete(one(id)), onSuccess: refresh });
}

/** `POST apis/_search?q=`: APIs by words of their name, for the autocompletes (from one character). */
export const useApiSearch = (q: string) =>
  useQuery({
    queryKey: ['apis', 'search', q] as const,
    queryFn: ({ signal }) =>
      http.post<ApiSummary[]>('apis/_search', undefined, { query: { q, order: 'name' }, signal }),
    enabled: q.trim().length >= 1,
  });

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DictionaryJson,
  DictionaryListItemJson,
  DictionaryProvider,
  DictionaryTrigger,
} from '@portico/model';
import { http } from '../../../shared/http';

export type Dictionary = DictionaryJson;
export type DictionaryListItem = DictionaryListItemJson;

/** What the form sends on POST and PUT. */
export interface DictionaryInput {
  name: string;
  description: string | null;
  type: Dictionary['type'];
  properties: Record<string, string>;
  provider?: DictionaryProvider | undefined;
  trigger?: DictionaryTrigger | undefined;
}

export const dictionaryKeys = {
  all: ['configuration', 'dictionaries'] as const,
  list: () => [...dictionaryKeys.all, 'list'] as const,
  detail: (id: string) => [...dictionaryKeys.all, 'detail', id] as const,
};

const BASE = 'configuration/dictionaries';
const one = (id: string, rest = '') => `${BASE}/${encodeURIComponent(id)}${rest}`;

/** `GET configuration/dictionaries`. */
export const useDictionaries = () =>
  useQuery({
    queryKey: dictionaryKeys.list(),
    queryFn: ({ signal }) => http.get<DictionaryListItem[]>(BASE, { signal }),
  });

/** `GET configuration/dictionaries/{id}`. */
export const useDictionary = (id: string | undefined) =>
  useQuery({
    queryKey: dictionaryKeys.detail(id ?? ''),
    queryFn: ({ signal }) => http.get<Dictionary>(one(id!), { signal }),
    enabled: !!id,
  });

/** The server's answer replaces the dictionary; the list is read again. */
function useReplacing<V>(request: (value: V) => Promise<Dictionary>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (dictionary) => {
      queryClient.setQueryData(dictionaryKeys.detail(dictionary.id), dictionary);
      void queryClient.invalidateQueries({ queryKey: dictionaryKeys.list() });
    },
  });
}

/** `POST configuration/dictionaries`. */
export const useCreateDictionary = () =>
  useReplacing((input: DictionaryInput) => http.post<Dictionary>(BASE, input));

/** `PUT configuration/dictionaries/{id}`. */
export const useUpdateDictionary = (id: string) =>
  useReplacing((input: DictionaryInput) => http.put<Dictionary>(one(id), input));

export type DictionaryAction = 'deploy' | 'undeploy' | 'start' | 'stop';

/** `POST {id}/_deploy`, `{id}/_undeploy`, `{id}?action=START|STOP`. */
export const useDictionaryAction = (id: string) =>
  useReplacing((action: DictionaryAction) =>
    action === 'deploy' || action === 'undeploy'
      ? http.post<Dictionary>(one(id, `/_${action}`))
      : http.post<Dictionary>(one(id), undefined, { query: { action: action.toUpperCase() } }),
  );

/** `DELETE configuration/dictionaries/{id}`. */
export function useDeleteDictionary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => http.delete(one(id)),
    onSuccess: (_r, id) => {
      queryClient.removeQueries({ queryKey: dictionaryKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: dictionaryKeys.list() });
    },
  });
}

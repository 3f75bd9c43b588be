import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';

/** A sharding tag (console-applications-and-settings.md 3). */
export interface Tag {
  id: string;
  name: string;
  description: string | null;
  restricted_groups: string[];
}
export type TagInput = Omit<Tag, 'id'>;

/** An entrypoint: a URL the portal shows for APIs carrying its tags. */
export interface Entrypoint {
  id: string;
  value: string;
  tags: string[];
}
export type EntrypointInput = Omit<Entrypoint, 'id'>;

export interface Group {
  id: string;
  name: string;
}

export const tagKeys = {
  tags: ['configuration', 'tags'] as const,
  tag: (id: string) => ['configuration', 'tags', id] as const,
  entrypoints: ['configuration', 'entrypoints'] as const,
  entrypoint: (id: string) => ['configuration', 'entrypoints', id] as const,
  groups: ['configuration', 'groups'] as const,
};

const TAGS = 'configuration/tags';
const ENTRYPOINTS = 'configuration/entrypoints';
const path = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

/** `GET configuration/tags`. */
export const useTags = (enabled = true) =>
  useQuery({
    queryKey: tagKeys.tags,
    queryFn: ({ signal }) => http.get<Tag[]>(TAGS, { signal }),
    enabled,
  });

/** `GET configuration/tags/{id}`. */
export const useTag = (id: string | undefined) =>
  useQuery({
    queryKey: tagKeys.tag(id ?? ''),
    queryFn: ({ signal }) => http.get<Tag>(path(TAGS, id!), { signal }),
    enabled: !!id,
  });

/** `GET configuration/groups` (silent: without it restricted groups are shown by id). */
export const useGroups = () =>
  useQuery({
    queryKey: tagKeys.groups,
    queryFn: ({ signal }) => http.get<Group[]>('configuration/groups', { signal, silent: true }),
    staleTime: 60_000,
    retry: false,
  });

/** `POST configuration/tags` or `PUT configuration/tags/{id}`. */
export function useSaveTag(id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TagInput) =>
      id ? http.put<Tag>(path(TAGS, id), input) : http.post<Tag>(TAGS, input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tagKeys.tags }),
  });
}

/** `DELETE configuration/tags/{id}`: entrypoints lose it (those left without a tag go). */
export function useDeleteTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => http.delete(path(TAGS, id)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: tagKeys.tags });
      void queryClient.invalidateQueries({ queryKey: tagKeys.entrypoints });
    },
  });
}

/** `GET configuration/entrypoints`. */
export const useEntrypoints = () =>
  useQuery({
    queryKey: tagKeys.entrypoints,
    queryFn: ({ signal }) => http.get<Entrypoint[]>(ENTRYPOINTS, { signal }),
  });

/** `GET configuration/entrypoints/{id}`. */
export const useEntrypoint = (id: string | undefined) =>
  useQuery({
    queryKey: tagKeys.entrypoint(id ?? ''),
    queryFn: ({ signal }) => http.get<Entrypoint>(path(ENTRYPOINTS, id!), { signal }),
    enabled: !!id,
  });

/** `POST configuration/entrypoints` or `PUT configuration/entrypoints` (the full object). */
export function useSaveEntrypoint(id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EntrypointInput) =>
      id ? http.put<Entrypoint>(ENTRYPOINTS, { id, ...input }) : http.post<Entrypoint>(ENTRYPOINTS, input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tagKeys.entrypoints }),
  });
}

/** `DELETE configuration/entrypoints/{id}`. */
export function useDeleteEntrypoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => http.delete(path(ENTRYPOINTS, id)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tagKeys.entrypoints }),
  });
}

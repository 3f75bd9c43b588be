import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SettingsTree } from '@portico/model';
import { http } from '../../../shared/http';

/** The same key as the client registration flag: both read `GET portal`. */
export const portalSettingsKeys = { all: ['portal'] as const };

/** `GET portal`: the settings (with the private groups for settings readers). */
export const usePortalSettings = () =>
  useQuery({
    queryKey: portalSettingsKeys.all,
    queryFn: ({ signal }) => http.get<SettingsTree>('portal', { signal }),
  });

/** `POST portal` with the changed settings only; the answer is the whole tree. */
export function useSavePortalSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: SettingsTree) => http.post<SettingsTree>('portal', changes),
    onSuccess: (tree) => queryClient.setQueryData(portalSettingsKeys.all, tree),
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SettingsTree } from '@portico/model';
import { http } from '../../../shared/http';

/** The settings of `GET portal` these screens read. */
export interface PortalFlags {
  viewMode: boolean;
  showTags: boolean;
  showViews: boolean;
  entrypoint: string;
}

/** The same key as every reader of `GET portal`: a save here refreshes them. */
const PORTAL = ['portal'] as const;

const at = (tree: SettingsTree, path: string): unknown =>
  path.split('.').reduce<unknown>((node, part) => (node as SettingsTree | undefined)?.[part], tree);

export const flagsOf = (tree: SettingsTree): PortalFlags => ({
  viewMode: at(tree, 'portal.apis.viewMode.enabled') === true,
  showTags: at(tree, 'portal.apis.apiHeaderShowTags.enabled') !== false,
  showViews: at(tree, 'portal.apis.apiHeaderShowViews.enabled') !== false,
  entrypoint: (at(tree, 'portal.entrypoint') as string | undefined) ?? '',
});

/** `GET portal`, read as the flags of the views, tags and portal header screens. */
export const usePortalFlags = () =>
  useQuery({
    queryKey: PORTAL,
    queryFn: ({ signal }) => http.get<SettingsTree>('portal', { signal }),
    select: flagsOf,
  });

/** `POST portal` with one setting (a partial tree, e.g. `portal.apis.viewMode.enabled`). */
export function useSavePortalSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: string; value: string | boolean }) => {
      const tree: SettingsTree = {};
      const parts = key.split('.');
      let node = tree;
      for (const part of parts.slice(0, -1)) node = (node[part] = {}) as SettingsTree;
      node[parts.at(-1)!] = value;
      return http.post<SettingsTree>('portal', tree);
    },
    onSuccess: (tree) => queryClient.setQueryData(PORTAL, tree),
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';

export type PageType = 'FOLDER' | 'MARKDOWN' | 'SWAGGER' | 'RAML' | 'ROOT';
/** The types a user writes in the edit screen from the list's "New page" (FOLDER and ROOT are named in a dialog). */
export const NEW_PAGE_TYPES = [
  'FOLDER',
  'MARKDOWN',
  'SWAGGER',
  'RAML',
] as const satisfies readonly PageType[];

/** A type the list's "New page" menu offers, disabled when the documentation has its one ROOT page. */
export interface NewPageChoice {
  type: PageType;
  disabled: boolean;
}

/**
 * The types "New page" offers in a folder: ROOT (the documentation's root page, one at most) only at
 * the root (~), disabled once the documentation has one.
 */
export function newPageChoices(
  pages: readonly Pick<DocPage, 'type'>[],
  folderId: string | null,
): NewPageChoice[] {
  const choices: NewPageChoice[] = NEW_PAGE_TYPES.map((type) => ({ type, disabled: false }));
  if (folderId === null) choices.push({ type: 'ROOT', disabled: pages.some((p) => p.type === 'ROOT') });
  return choices;
}

export interface PageSource {
  type: string;
  configuration: Record<string, unknown>;
}

/** A documentation page as `apis/{id}/pages` answers it (console-apis.md 3). */
export interface DocPage {
  id: string;
  name: string;
  type: PageType;
  description: string | null;
  content: string | null;
  contentType: string;
  order: number;
  published: boolean;
  homepage: boolean;
  parentId: string | null;
  lastContributor: string | null;
  lastModificationDate: number;
  source: PageSource | null;
  configuration: Record<string, string>;
  excluded_groups: string[];
  /** A fetched page's link to edit it at its source, and the source's name. */
  metadata?: { edit_url?: string; provider_name?: string };
  messages?: string[];
}

export type PageInput = Partial<
  Pick<DocPage, 'name' | 'type' | 'content' | 'published' | 'homepage' | 'parentId' | 'order' | 'source'>
> & { configuration?: Record<string, string>; excluded_groups?: string[] };

export interface NamedGroup {
  id: string;
  name: string;
}

/** The portal's documentation (`portal/pages`), given where the hooks take an API id. */
export const PORTAL_DOCS = ':portal';

/** Where a documentation's pages, fetches and media are: `apis/{id}` or `portal`. */
export const docsBase = (ref: string) => (ref === PORTAL_DOCS ? 'portal' : `apis/${encodeURIComponent(ref)}`);

export const pageKeys = {
  all: (ref: string): readonly string[] =>
    ref === PORTAL_DOCS ? ['portal', 'pages'] : ['apis', ref, 'pages'],
  list: (ref: string) => [...pageKeys.all(ref), 'list'],
  detail: (ref: string, pageId: string) => [...pageKeys.all(ref), 'detail', pageId],
};

const pagesPath = (ref: string, rest = '') => `${docsBase(ref)}/pages${rest}`;
const pagePath = (ref: string, pageId: string) => pagesPath(ref, `/${encodeURIComponent(pageId)}`);

/** `GET apis/{id}/pages`: every page the reader sees (the screens filter by folder themselves). */
export const usePages = (apiId: string) =>
  useQuery({
    queryKey: pageKeys.list(apiId),
    queryFn: ({ signal }) => http.get<DocPage[]>(pagesPath(apiId), { signal }),
  });

/** `GET apis/{id}/pages/{pageId}`. */
export const usePage = (apiId: string, pageId: string | undefined) =>
  useQuery({
    queryKey: pageKeys.detail(apiId, pageId ?? ''),
    queryFn: ({ signal }) => http.get<DocPage>(pagePath(apiId, pageId!), { signal }),
    enabled: !!pageId,
  });

/** `GET configuration/groups` (silent: without it the excluded groups cannot be picked). */
export const usePageGroups = () =>
  useQuery({
    queryKey: ['configuration', 'groups'],
    queryFn: ({ signal }) => http.get<NamedGroup[]>('configuration/groups', { signal, silent: true }),
    staleTime: 5 * 60_000,
    retry: false,
  });

function useChanged(apiId: string) {
  const queryClient = useQueryClient();
  return (page?: DocPage) => {
    if (page) queryClient.setQueryData(pageKeys.detail(apiId, page.id), page);
    void queryClient.invalidateQueries({ queryKey: pageKeys.all(apiId) });
  };
}

/** `POST apis/{id}/pages` (a new page goes to the end of its folder). */
export function useCreatePage(apiId: string) {
  const changed = useChanged(apiId);
  return useMutation({
    mutationFn: (input: PageInput) => http.post<DocPage>(pagesPath(apiId), input),
    onSuccess: changed,
  });
}

/** `PUT apis/{id}/pages/{pageId}`: the whole page (Save). */
export function useUpdatePage(apiId: string) {
  const changed = useChanged(apiId);
  return useMutation({
    mutationFn: ({ id, ...input }: PageInput & { id: string }) =>
      http.put<DocPage>(pagePath(apiId, id), input),
    onSuccess: changed,
  });
}

/** `PATCH apis/{id}/pages/{pageId}`: rename, move, publish or reorder. */
export function usePatchPage(apiId: string) {
  const changed = useChanged(apiId);
  return useMutation({
    mutationFn: ({ id, ...input }: PageInput & { id: string }) =>
      http.patch<DocPage>(pagePath(apiId, id), input),
    onSuccess: changed,
  });
}

/** `DELETE apis/{id}/pages/{pageId}` (the pages of a folder move to the root). */
export function useDeletePage(apiId: string) {
  const changed = useChanged(apiId);
  return useMutation({
    mutationFn: (page: DocPage) => http.delete(pagePath(apiId, page.id)),
    onSuccess: () => changed(),
  });
}

/** A folder, or the documentation's ROOT page (a folder too: it holds pages, it has no content). */
export const isFolderPage = (page: Pick<DocPage, 'type'>) => page.type === 'FOLDER' || page.type === 'ROOT';

/** The folders from the root down to `folderId` (empty at the root). */
export function folderPath(pages: readonly DocPage[], folderId: string | null): DocPage[] {
  const path: DocPage[] = [];
  for (let at = pages.find((p) => p.id === folderId); at && path.length < 100;) {
    path.unshift(at);
    at = at.parentId ? pages.find((p) => p.id === at!.parentId) : undefined;
  }
  return path;
}

/** The pages of one folder (null: the root), in their order. */
export const childrenOf = (pages: readonly DocPage[], folderId: string | null): DocPage[] =>
  pages.filter((p) => (p.parentId ?? null) === folderId).sort((a, b) => a.order - b.order);

import type { DocPage } from '../api/portal-pages';

export const isFolder = (page: DocPage) => page.type === 'FOLDER' || page.type === 'ROOT';

export interface DocNode {
  page: DocPage;
  children: DocNode[];
}

/**
 * The tree of folders and pages in their order. A page whose parent is not in the list is only logged
 * (portal-and-platform.md: API documentation) and left out.
 */
export function docTree(pages: readonly DocPage[], log: (text: string) => void = console.warn): DocNode[] {
  const ids = new Set(pages.map((p) => p.id));
  const byParent = new Map<string | null, DocPage[]>();
  for (const page of pages) {
    const parent = page.parentId ?? null;
    if (parent !== null && !ids.has(parent)) {
      log(`The parent ${parent} of the page ${page.id} is missing`);
      continue;
    }
    byParent.set(parent, [...(byParent.get(parent) ?? []), page]);
  }
  const build = (parent: string | null, depth: number): DocNode[] =>
    (byParent.get(parent) ?? [])
      .sort((a, b) => a.order - b.order)
      .map((page) => ({ page, children: depth < 20 && isFolder(page) ? build(page.id, depth + 1) : [] }));
  return build(null, 0);
}

/** The page selected by default: the first root page that is not a folder. */
export const firstRootPage = (tree: readonly DocNode[]): DocPage | undefined =>
  tree.find((node) => !isFolder(node.page))?.page;

/** The folders that hold a page, from the root down (to open them when the page is selected). */
export function foldersOf(pages: readonly DocPage[], pageId: string | undefined): string[] {
  const folders: string[] = [];
  let at = pages.find((p) => p.id === pageId);
  while (at?.parentId && folders.length < 20) {
    folders.unshift(at.parentId);
    at = pages.find((p) => p.id === at!.parentId);
  }
  return folders;
}

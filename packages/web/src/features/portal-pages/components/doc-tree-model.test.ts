import { describe, expect, it } from 'vitest';
import type { DocPage } from '../api/portal-pages';
import { docTree, firstRootPage, foldersOf } from './doc-tree-model';

const page = (id: string, type: DocPage['type'], order: number, parentId: string | null = null) =>
  ({ id, name: id, type, order, parentId }) as DocPage;

describe('the documentation tree of the portal', () => {
  const pages = [
    page('b', 'MARKDOWN', 2),
    page('folder', 'FOLDER', 0),
    page('inner', 'SWAGGER', 0, 'folder'),
    page('deep', 'FOLDER', 1, 'folder'),
    page('deepest', 'MARKDOWN', 0, 'deep'),
    page('a', 'MARKDOWN', 1),
    page('orphan', 'MARKDOWN', 0, 'gone'),
  ];

  it('nests pages under their folders in their order, and only logs a page whose parent is missing', () => {
    const logged: string[] = [];
    const tree = docTree(pages, (text) => logged.push(text));
    expect(tree.map((n) => n.page.id)).toEqual(['folder', 'a', 'b']);
    expect(tree[0]!.children.map((n) => n.page.id)).toEqual(['inner', 'deep']);
    expect(tree[0]!.children[1]!.children.map((n) => n.page.id)).toEqual(['deepest']);
    expect(logged).toEqual(['The parent gone of the page orphan is missing']);
  });

  it('selects the first root page that is not a folder', () => {
    expect(firstRootPage(docTree(pages, () => undefined))?.id).toBe('a');
    expect(firstRootPage(docTree([page('f', 'FOLDER', 0), page('r', 'ROOT', 1)], () => undefined))).toBe(
      undefined,
    );
  });

  it('opens the folders of the selected page', () => {
    expect(foldersOf(pages, 'deepest')).toEqual(['folder', 'deep']);
    expect(foldersOf(pages, 'a')).toEqual([]);
    expect(foldersOf(pages, undefined)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_IMPORT_DEPTH, MAX_IMPORT_FOLDERS, pathSegments, planImport } from './pages-import.tree.js';

const listed = (...paths: string[]) => paths.map((path) => ({ path }));
const lines = (files: ReturnType<typeof planImport>) =>
  files.map((f) => `${[...f.folders, f.name].join('/')} ${f.type} <- ${f.path}`);

describe('the files an import makes pages of', () => {
  it('keeps the Markdown and OpenAPI files under the folder, with their sub-folders', () => {
    const files = listed(
      'docs/intro.md',
      'docs/api/v2/openapi.yaml',
      'docs/notes.txt',
      'docs/guides/Setup.MARKDOWN',
      'other/outside.md',
      'docsx/prefix-only.md',
    );
    expect(lines(planImport(files, 'docs'))).toEqual([
      'intro MARKDOWN <- docs/intro.md',
      'api/v2/openapi SWAGGER <- docs/api/v2/openapi.yaml',
      'guides/Setup MARKDOWN <- docs/guides/Setup.MARKDOWN',
    ]);
    // The repository's root: every file, its folders included.
    expect(lines(planImport(listed('a.md', 'b/c.json'), '/'))).toEqual([
      'a MARKDOWN <- a.md',
      'b/c SWAGGER <- b/c.json',
    ]);
  });

  it('keeps only the files of the type asked for', () => {
    const files = listed('docs/intro.md', 'docs/api/openapi.json');
    expect(lines(planImport(files, 'docs', 'SWAGGER'))).toEqual([
      'api/openapi SWAGGER <- docs/api/openapi.json',
    ]);
    expect(lines(planImport(files, 'docs', 'MARKDOWN'))).toEqual(['intro MARKDOWN <- docs/intro.md']);
  });

  it('normalises the paths of the source and leaves out those that climb or hold control characters', () => {
    const files = listed(
      '/docs//./intro.md',
      'docs/intro.md',
      'docs/../secrets/key.md',
      'docs/a\u0000b/c.md',
      `docs/${'x'.repeat(256)}/c.md`,
      'docs/.md',
    );
    expect(lines(planImport(files, '/docs/'))).toEqual([
      'intro MARKDOWN <- docs/intro.md',
      // A file named only by its extension keeps its whole name.
      '.md MARKDOWN <- docs/.md',
    ]);
    expect(pathSegments('a/../b')).toBeUndefined();
    expect(pathSegments('./a//b/')).toEqual(['a', 'b']);
  });

  it(`recreates ${MAX_IMPORT_DEPTH} sub-folders down at most and ${MAX_IMPORT_FOLDERS} folders at most`, () => {
    const deep = (n: number) => `docs/${Array.from({ length: n }, (_, i) => `f${i}`).join('/')}/page.md`;
    expect(planImport(listed(deep(MAX_IMPORT_DEPTH), deep(MAX_IMPORT_DEPTH + 1)), 'docs')).toEqual([
      expect.objectContaining({ path: deep(MAX_IMPORT_DEPTH) }),
    ]);

    const many = Array.from({ length: MAX_IMPORT_FOLDERS + 5 }, (_, i) => `docs/f${i}/page.md`);
    const planned = planImport(listed(...many, 'docs/f0/again.md', 'docs/top.md'), 'docs');
    const folders = new Set(planned.flatMap((f) => f.folders));
    expect(folders.size).toBe(MAX_IMPORT_FOLDERS);
    // A file of a folder already made, or of the imported folder itself, still comes in.
    expect(planned.slice(-2).map((f) => f.path)).toEqual(['docs/f0/again.md', 'docs/top.md']);
  });
});

import type { ListedFile } from './fetchers/git-services.js';

const FILE_TYPES: Record<string, 'MARKDOWN' | 'SWAGGER'> = {
  md: 'MARKDOWN',
  markdown: 'MARKDOWN',
  json: 'SWAGGER',
  yaml: 'SWAGGER',
  yml: 'SWAGGER',
};

/** Sub-folders below the imported folder an import recreates at most; deeper files are left out. */
export const MAX_IMPORT_DEPTH = 8;
/** Folders one import recreates at most; the files of further folders are left out. */
export const MAX_IMPORT_FOLDERS = 100;
/** Longest file or folder name taken from a source (the longest name most file systems allow). */
const MAX_SEGMENT_LENGTH = 255;

/** The page type of a file name (Markdown and OpenAPI files only), as the creation wizard reads them. */
export const pageTypeOfFile = (path: string) => FILE_TYPES[path.split('.').pop()?.toLowerCase() ?? ''];

/**
 * A repository path split into its names: empty and `.` parts dropped; undefined when a part climbs
 * (`..`), holds a control character or is longer than a file name can be.
 */
export function pathSegments(path: string): string[] | undefined {
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  // eslint-disable-next-line no-control-regex
  const bad = (s: string) => s === '..' || s.length > MAX_SEGMENT_LENGTH || /[\u0000-\u001f\u007f]/.test(s);
  return segments.some(bad) ? undefined : segments;
}

/** A file an import makes a page of. */
export interface ImportedFile {
  /** The file's repository path, normalised: the page's source reads it. */
  path: string;
  /** The folders from the imported folder down to the file (empty: the file is in the imported folder). */
  folders: string[];
  /** The page name: the file name without its extension. */
  name: string;
  type: 'MARKDOWN' | 'SWAGGER';
}

/**
 * The files of a listing an import makes pages of, in the listing's order: Markdown and OpenAPI
 * files (of `only` type when given) under `folder`, each once, at most MAX_IMPORT_DEPTH sub-folders
 * down and within MAX_IMPORT_FOLDERS folders. A path from the source that climbs, or lies outside the
 * imported folder, is left out.
 */
export function planImport(
  files: readonly ListedFile[],
  folder: string,
  only?: 'MARKDOWN' | 'SWAGGER',
): ImportedFile[] {
  const base = pathSegments(folder) ?? [];
  const seen = new Set<string>();
  const folders = new Set<string>();
  const out: ImportedFile[] = [];
  for (const file of files) {
    const segments = pathSegments(file.path);
    if (!segments || segments.length <= base.length) continue;
    if (base.some((s, i) => segments[i] !== s)) continue;
    const path = segments.join('/');
    const fileName = segments[segments.length - 1]!;
    const type = pageTypeOfFile(fileName);
    if (!type || (only && type !== only) || seen.has(path)) continue;
    const relative = segments.slice(base.length, -1);
    if (relative.length > MAX_IMPORT_DEPTH) continue;
    const chain = relative.map((_, i) => relative.slice(0, i + 1).join('/'));
    const added = chain.filter((f) => !folders.has(f));
    if (folders.size + added.length > MAX_IMPORT_FOLDERS) continue;
    for (const f of added) folders.add(f);
    seen.add(path);
    const name = fileName.replace(/\.[^.]+$/, '');
    out.push({ path, folders: relative, name: name === '' ? fileName : name, type });
  }
  return out;
}

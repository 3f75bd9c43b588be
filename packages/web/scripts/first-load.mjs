// What the signed-out portal home loads, from Vite's build manifest: shared by the size report of the
// build and by the browser test that checks the report against what the browser really fetches.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Source modules whose chunks the signed-out portal home loads besides the entry: its route modules.
 * The toasts load with the first toast (most visits show none).
 */
export const PORTAL_HOME = ['src/app/portal/portal-layout.tsx', 'src/app/portal/home-page.tsx'];

/** Modules of the console's first page: none of their chunks may be part of the portal's first load. */
export const CONSOLE = [
  'src/app/console/console-layout.tsx',
  'src/features/apis/components/list/api-list-page.tsx',
];

export function readManifest(dist) {
  return JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
}

/**
 * A source module's manifest entry. A module that is also imported statically from another chunk may
 * be bundled as a shared chunk (`_toasts-hash.js`) instead of an entry of its own: found by its name.
 */
export function chunkOf(manifest, key) {
  if (manifest[key]) return manifest[key];
  const name = path.basename(key).replace(/\.[^.]+$/, '');
  const shared = Object.keys(manifest).filter((k) => k.startsWith('_') && manifest[k].name === name);
  return shared.length === 1 ? manifest[shared[0]] : undefined;
}

/** The chunk files the given manifest entries load at once: themselves and their static imports. */
export function closure(manifest, keys, seen = new Set()) {
  for (const key of keys) {
    const chunk = chunkOf(manifest, key);
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    if (seen.has(chunk.file)) continue;
    seen.add(chunk.file);
    closure(manifest, chunk.imports ?? [], seen);
  }
  return seen;
}

/** The chunk files of the signed-out portal home: the entry's closure and its route modules'. */
export function portalFirstLoad(manifest) {
  const entry = Object.keys(manifest).filter((key) => manifest[key].isEntry);
  return closure(manifest, [...entry, ...PORTAL_HOME]);
}

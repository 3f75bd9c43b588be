import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import type { CurrentApi } from './state.js';

/** `portico dump`: one file per API, named after its context path, in canonical order. */

/** `/orders/v1` → `orders-v1`; the root path → `root`. */
export function fileNameOf(key: string, taken: Set<string>): string {
  const base =
    key
      .replace(/^\/+/, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 100) || 'root';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

export function serialize(doc: unknown, format: 'yaml' | 'json'): string {
  return format === 'json'
    ? `${JSON.stringify(doc, null, 2)}\n`
    : stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** Writes every API to the folder; answers the paths written. */
export function writeDump(folder: string, apis: CurrentApi[], format: 'yaml' | 'json'): string[] {
  mkdirSync(folder, { recursive: true });
  const taken = new Set<string>();
  const written: string[] = [];
  for (const api of [...apis].sort((a, b) => a.key.localeCompare(b.key))) {
    const file = path.join(folder, `${fileNameOf(api.key, taken)}.${format === 'json' ? 'json' : 'yaml'}`);
    writeFileSync(file, serialize(api.doc, format));
    written.push(file);
  }
  return written;
}

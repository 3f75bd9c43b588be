import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
type Tree = { [key: string]: string | Tree };
const en = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../public/portal/i18n/en.json', import.meta.url)), 'utf8'),
) as Tree;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.ts$/.test(name) && !name.endsWith('.d.ts') ? [file] : [];
  });
}

const lookup = (key: string): string | Tree | undefined =>
  key
    .split('.')
    .reduce<string | Tree | undefined>(
      (node, part) => (typeof node === 'object' ? node[part] : undefined),
      en,
    );

const files = sources(root).map((file) => ({
  file: path.relative(root, file),
  text: readFileSync(file, 'utf8'),
}));
const namespaces = Object.keys(en).join('|');

describe('translation keys of the source', () => {
  it('every t("...") key exists in en.json', () => {
    const missing: string[] = [];
    for (const { file, text } of files) {
      for (const match of text.matchAll(/\bt\(\s*'([^']+)'/g)) {
        // A plural key (t('a.b', { count })) is there as its forms a.b_one, a.b_other...
        const key = match[1]!;
        if (typeof lookup(key) !== 'string' && typeof lookup(`${key}_other`) !== 'string')
          missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every key built in a template (t(`a.b.${x}`)) has its group in en.json', () => {
    const missing: string[] = [];
    for (const { file, text } of files) {
      for (const match of text.matchAll(/\bt\(\s*`([a-zA-Z.]+)\.\$\{/g)) {
        if (typeof lookup(match[1]!) !== 'object') missing.push(`${file}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every key kept in data (menus, messages of the catalogue and of the forms) exists in en.json', () => {
    const missing: string[] = [];
    const keyLike = new RegExp(`'((?:${namespaces})\\.[A-Za-z0-9.-]+)'`, 'g');
    for (const { file, text } of files) {
      for (const match of text.matchAll(keyLike)) {
        const key = match[1]!;
        // File paths and URLs that happen to start like a namespace are not keys.
        if (/\.(tsx?|json|md|css)$/.test(key)) continue;
        if (lookup(key) === undefined && lookup(`${key}_other`) === undefined)
          missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('finds the keys it checks (the scan is not empty)', () => {
    const count = files.reduce((sum, { text }) => sum + [...text.matchAll(/\bt\(\s*'([^']+)'/g)].length, 0);
    expect(count).toBeGreaterThan(80);
  });
});

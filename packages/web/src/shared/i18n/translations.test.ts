import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './languages';

const dir = new URL('../../../public/portal/i18n/', import.meta.url);
type Tree = { [key: string]: string | Tree };

const load = (language: string): Tree =>
  JSON.parse(readFileSync(new URL(`${language}.json`, dir), 'utf8')) as Tree;

/** Every leaf of a translation file as `a.b.c` -> text. */
export function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('translation files', () => {
  const en = flatten(load('en'));

  it('en has texts', () => {
    expect(en.size).toBeGreaterThan(100);
  });

  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    describe(language, () => {
      const texts = flatten(load(language));

      it('has every key of en.json', () => {
        expect([...en.keys()].filter((key) => !texts.has(key))).toEqual([]);
      });

      it('has no key that en.json lacks', () => {
        expect([...texts.keys()].filter((key) => !en.has(key))).toEqual([]);
      });

      it('has no empty text', () => {
        expect([...texts].filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
      });

      it('keeps the placeholders of each en text', () => {
        const wrong = [...en]
          .filter(
            ([key, text]) =>
              texts.has(key) && placeholders(text).join() !== placeholders(texts.get(key)!).join(),
          )
          .map(([key]) => key);
        expect(wrong).toEqual([]);
      });

      it('is translated, not a copy of en', () => {
        // Proper names, product words and language names may stay; most texts must differ.
        const same = [...en].filter(([key, text]) => texts.get(key) === text).length;
        expect(same / en.size).toBeLessThan(0.15);
      });
    });
  }
});

describe('contextual documentation', () => {
  const docs = new URL('../../../public/docs/', import.meta.url);
  const pages = readdirSync(docs).filter((name) => name.endsWith('.md'));

  it('has pages', () => {
    expect(pages.length).toBeGreaterThan(0);
  });

  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    it(`has every page in ${language}`, () => {
      const translated = readdirSync(new URL(`${language}/`, docs));
      expect(pages.filter((page) => !translated.includes(page))).toEqual([]);
    });
  }
});

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

/** i18next's plural forms: `key_one`, `key_other`... each language has the forms of its own rules. */
const PLURAL_FORM = /_(zero|one|two|few|many|other)$/;
const pluralForms = (language: string) => new Intl.PluralRules(language).resolvedOptions().pluralCategories;

/** The keys of a file with each plural key's forms folded into `key_*`. */
const folded = (texts: Map<string, string>) =>
  new Set([...texts.keys()].map((key) => key.replace(PLURAL_FORM, '_*')));

/** The plural keys (`key_*`) whose forms are not exactly those of the language's plural rules. */
function wrongPluralForms(texts: Map<string, string>, language: string): string[] {
  const expected = [...pluralForms(language)].sort().join();
  const forms = new Map<string, string[]>();
  for (const key of texts.keys()) {
    const form = PLURAL_FORM.exec(key)?.[1];
    if (form)
      forms.set(key.replace(PLURAL_FORM, '_*'), [...(forms.get(key.replace(PLURAL_FORM, '_*')) ?? []), form]);
  }
  return [...forms].filter(([, found]) => found.sort().join() !== expected).map(([key]) => key);
}

describe('translation files', () => {
  const en = flatten(load('en'));

  it('en has texts', () => {
    expect(en.size).toBeGreaterThan(100);
  });

  it("has exactly its language's plural forms for each plural key", () => {
    expect(wrongPluralForms(en, 'en')).toEqual([]);
  });

  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    describe(language, () => {
      const texts = flatten(load(language));

      it('has every key of en.json', () => {
        const keys = folded(texts);
        expect([...folded(en)].filter((key) => !keys.has(key))).toEqual([]);
      });

      it('has no key that en.json lacks', () => {
        const keys = folded(en);
        expect([...folded(texts)].filter((key) => !keys.has(key))).toEqual([]);
      });

      it(`has the plural forms of ${language} for each plural key (count)`, () => {
        expect(wrongPluralForms(texts, language)).toEqual([]);
      });

      it('has no empty text', () => {
        expect([...texts].filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
      });

      it('keeps the placeholders of each en text', () => {
        // A plural form keeps the placeholders of en's `_other` form.
        const enText = (key: string) => en.get(key) ?? en.get(key.replace(PLURAL_FORM, '_other'));
        const wrong = [...texts]
          .filter(([key, text]) => {
            const reference = enText(key);
            return reference !== undefined && placeholders(reference).join() !== placeholders(text).join();
          })
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

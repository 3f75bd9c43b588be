#!/usr/bin/env node
// Adds translations to the five language files at once, safely when several people (or agents)
// do it at the same time: `node scripts/i18n-add.mjs fragment.json [more.json ...]` where each
// fragment is { "en": {...}, "fr": {...}, "pt-BR": {...}, "zh": {...}, "ru": {...} } with the same
// keys in every language. Keys are deep-merged (existing values replaced); files are rewritten with
// two-space indentation. A fragment missing a language or a key of en is refused.
import { mkdirSync, readFileSync, renameSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LANGUAGES = ['en', 'fr', 'pt-BR', 'zh', 'ru'];
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../public/portal/i18n');
const lock = path.join(dir, '.lock');

const flat = (o, p = '') =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? flat(v, `${p}${k}.`) : [`${p}${k}`]));

function merge(target, source) {
  for (const [k, v] of Object.entries(source)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      if (typeof target[k] !== 'object' || target[k] === null) target[k] = {};
      merge(target[k], v);
    } else target[k] = v;
  }
  return target;
}

const fragments = process.argv.slice(2).map((f) => ({ file: f, data: JSON.parse(readFileSync(f, 'utf8')) }));
if (fragments.length === 0) {
  console.error('usage: node scripts/i18n-add.mjs fragment.json [...]');
  process.exit(2);
}
for (const { file, data } of fragments) {
  const en = new Set(flat(data.en ?? {}));
  for (const lang of LANGUAGES) {
    if (!data[lang]) throw new Error(`${file}: no "${lang}" translations`);
    const keys = new Set(flat(data[lang]));
    const missing = [...en].filter((k) => !keys.has(k));
    const extra = [...keys].filter((k) => !en.has(k));
    if (missing.length || extra.length) {
      throw new Error(
        `${file}: ${lang} differs from en (missing: ${missing.join(', ') || '-'}; extra: ${extra.join(', ') || '-'})`,
      );
    }
  }
}

// mkdir is atomic: the one who creates the folder holds the lock.
const deadline = Date.now() + 30_000;
for (;;) {
  try {
    mkdirSync(lock);
    break;
  } catch {
    if (Date.now() > deadline)
      throw new Error(`${lock} is held for more than 30 s: remove it if nobody is writing`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}
try {
  for (const lang of LANGUAGES) {
    const file = path.join(dir, `${lang}.json`);
    const current = JSON.parse(readFileSync(file, 'utf8'));
    for (const { data } of fragments) merge(current, data[lang]);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(current, null, 2)}\n`);
    renameSync(tmp, file);
  }
  console.log(`merged ${fragments.length} fragment(s) into ${LANGUAGES.join(', ')}`);
} finally {
  rmdirSync(lock);
}

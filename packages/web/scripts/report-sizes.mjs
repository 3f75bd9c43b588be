// Prints the gzipped size of every JavaScript chunk of the build and of the JavaScript that the signed-out
// portal home loads, and fails when that first load is above the budget or holds console code.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CONSOLE, closure, portalFirstLoad, readManifest } from './first-load.mjs';

const BUDGET_KB = 200;
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifest = readManifest(dist);

const sizes = new Map();
const size = (file) => {
  if (!sizes.has(file)) sizes.set(file, gzipSync(readFileSync(path.join(dist, file))).length / 1024);
  return sizes.get(file);
};

const firstLoad = portalFirstLoad(manifest);
const consoleOnly = [...closure(manifest, CONSOLE)].filter((file) => !firstLoad.has(file));
const consoleInFirstLoad = CONSOLE.map((key) => manifest[key].file).filter((file) => firstLoad.has(file));

const rows = Object.values(manifest)
  .filter((chunk) => chunk.file.endsWith('.js'))
  .map((chunk) => ({ file: chunk.file, src: chunk.src ?? chunk.name ?? '', kb: size(chunk.file) }))
  .sort((a, b) => b.kb - a.kb);

console.log('\nJavaScript chunks (gzipped; * = loaded by the signed-out portal home):');
for (const row of rows) {
  const mark = firstLoad.has(row.file) ? '*' : ' ';
  console.log(`${mark} ${row.kb.toFixed(1).padStart(7)} KB  ${row.file}${row.src ? `  (${row.src})` : ''}`);
}
const total = [...firstLoad].reduce((sum, file) => sum + size(file), 0);
const consoleKb = consoleOnly.reduce((sum, file) => sum + size(file), 0);
console.log(
  `\nportal first load (signed-out home): ${total.toFixed(1)} KB gzipped in ${firstLoad.size} files (budget ${BUDGET_KB} KB)`,
);
console.log(`console route adds: ${consoleKb.toFixed(1)} KB gzipped in ${consoleOnly.length} files`);

if (consoleInFirstLoad.length > 0) {
  console.error(`console code is part of the portal first load: ${consoleInFirstLoad.join(', ')}`);
  process.exit(1);
}
if (total > BUDGET_KB) {
  console.error(`the portal first load is ${total.toFixed(1)} KB gzipped, above the ${BUDGET_KB} KB budget`);
  process.exit(1);
}

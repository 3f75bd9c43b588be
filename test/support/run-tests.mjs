// `npm test`'s last step: the two vitest projects (vitest.config.ts) side by side, in two processes.
// The browser tests (e2e) run one file at a time in one process while the rest (unit) runs in the other,
// so that both cores work; each line is prefixed with its project's name, and the exit code is non-zero
// when either run failed. Arguments are passed to both runs (e.g. a file filter or --reporter=dot).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const projects = ['unit', 'e2e'];
const extra = process.argv.slice(2);
// A file filter may match the files of one project only: the other then has nothing to run.
if (extra.some((arg) => !arg.startsWith('-'))) extra.push('--passWithNoTests');
const vitest = new URL('../../node_modules/vitest/vitest.mjs', import.meta.url);

function run(project) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [vitest.pathname, 'run', '--project', project, '--maxWorkers=1', ...extra],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
      },
    );
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => console.log(`[${project}] ${line}`));
    }
    child.on('error', (error) => {
      console.error(`[${project}] could not start vitest: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const started = Date.now();
const codes = await Promise.all(projects.map(run));
const seconds = Math.round((Date.now() - started) / 1000);
projects.forEach((project, i) =>
  console.log(`${project}: ${codes[i] === 0 ? 'passed' : `FAILED (exit ${codes[i]})`}`),
);
console.log(`both runs took ${seconds} s`);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);

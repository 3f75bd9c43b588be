// Runs two commands side by side (the type check and the linter of `npm test`, which each leave a core
// idle for much of their time) and fails when either fails, after both have finished.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node test/support/run-both.mjs "<command>" ["<command>" ...]');
  process.exit(2);
}
const codes = await Promise.all(
  commands.map(
    (command) =>
      new Promise((resolve) => {
        const child = spawn(command, { shell: true, stdio: 'inherit' });
        child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
        child.on('error', () => resolve(1));
      }),
  ),
);
const failed = commands.filter((_, i) => codes[i] !== 0);
for (const command of failed) console.error(`failed: ${command}`);
process.exit(failed.length > 0 ? 1 : 0);

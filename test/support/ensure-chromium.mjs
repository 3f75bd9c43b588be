#!/usr/bin/env node
// `npm test`'s pretest step: the browser tests drive Debian's chromium through playwright-core (no
// browser download). Find it; when it is missing, install it when this machine permits (root and
// apt-get), otherwise stop at once with one line saying how.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the browser tests look for chromium (test/e2e/support/browser.ts). */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export const INSTALL_COMMANDS = [
  ['apt-get', ['update', '-qq']],
  ['apt-get', ['install', '-y', '-qq', 'chromium']],
];

/**
 * What to do, given the environment: `ready` (chromium is there), `install` (missing, and we may
 * install it) or `fail` (missing, with the one line that says how to get it).
 *
 * env: { chromiumPath: string | undefined (PORTICO_CHROMIUM), isExecutable(file): boolean,
 *        isRoot: boolean, hasAptGet: boolean }
 */
export function decide(env) {
  const chromium = env.chromiumPath || DEFAULT_CHROMIUM;
  if (env.isExecutable(chromium)) return { action: 'ready', chromium };
  if (env.chromiumPath) {
    return {
      action: 'fail',
      message: `PORTICO_CHROMIUM names ${chromium}, which is not an executable file: point it at a Chromium or Chrome binary, or unset it to use ${DEFAULT_CHROMIUM}.`,
    };
  }
  if (env.isRoot && env.hasAptGet) return { action: 'install', chromium };
  const how = env.hasAptGet
    ? 'run `sudo apt-get install -y chromium`'
    : 'install Chromium (Debian package `chromium`)';
  return {
    action: 'fail',
    message: `The browser tests need Chromium at ${DEFAULT_CHROMIUM}: ${how}, or set PORTICO_CHROMIUM to a Chromium or Chrome binary.`,
  };
}

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command) {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir && isExecutable(path.join(dir, command)));
}

/** The real machine. */
export function machine() {
  return {
    chromiumPath: process.env.PORTICO_CHROMIUM || undefined,
    isExecutable,
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    hasAptGet: onPath('apt-get'),
  };
}

function main() {
  const decision = decide(machine());
  if (decision.action === 'ready') return 0;
  if (decision.action === 'fail') {
    console.error(decision.message);
    return 1;
  }
  console.log('Installing chromium for the browser tests (apt-get install chromium)');
  for (const [command, args] of INSTALL_COMMANDS) {
    const result = spawnSync(command, args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) {
      console.error(
        `\`${command} ${args.join(' ')}\` failed: install chromium by hand (apt-get install -y chromium).`,
      );
      return 1;
    }
  }
  if (!isExecutable(decision.chromium)) {
    console.error(
      `chromium was installed but ${decision.chromium} is not there: set PORTICO_CHROMIUM to it.`,
    );
    return 1;
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main();
}

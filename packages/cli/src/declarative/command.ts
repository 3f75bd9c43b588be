import { applyChanges } from './apply.js';
import type { Credentials } from './client.js';
import { ManagementClient } from './client.js';
import { diffAll, formatDiff } from './diff.js';
import { writeDump } from './dump.js';
import { FileError, readApiFiles } from './files.js';
import { loadCurrent } from './state.js';

/** `portico apply` and `portico dump`: declarative configuration over the management REST API. */

export const DECLARATIVE_USAGE = `Usage:
  portico apply <folder or file> [--dry-run] [--prune] [connection]
  portico dump <folder> [--format yaml|json] [connection]

Connection: --url <management URL> (or PORTICO_URL), then --token <bearer token> (or PORTICO_TOKEN),
or --username <name> --password <password> (or PORTICO_USERNAME / PORTICO_PASSWORD).`;

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

const consoleOutput: Output = { out: (t) => console.log(t), err: (t) => console.error(t) };

interface Parsed {
  positional: string[];
  flags: Map<string, string | true>;
}

const VALUE_FLAGS = new Set(['url', 'token', 'username', 'password', 'format']);
const SWITCHES = new Set(['dry-run', 'prune']);

function parseArgs(argv: string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (SWITCHES.has(name)) flags.set(name, true);
    else if (VALUE_FLAGS.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else throw new UsageError(`unknown option --${name}`);
  }
  return { positional, flags };
}

class UsageError extends Error {}

function clientOf(flags: Parsed['flags'], env: NodeJS.ProcessEnv): ManagementClient {
  const value = (flag: string, variable: string) => {
    const given = flags.get(flag);
    return typeof given === 'string' ? given : env[variable] || undefined;
  };
  const url = value('url', 'PORTICO_URL');
  if (!url) throw new UsageError('no management API: give --url or set PORTICO_URL');
  const credentials: Credentials = {
    token: value('token', 'PORTICO_TOKEN'),
    username: value('username', 'PORTICO_USERNAME'),
    password: value('password', 'PORTICO_PASSWORD'),
  };
  if (!credentials.token && credentials.username === undefined)
    throw new UsageError('no credentials: give --token (or PORTICO_TOKEN), or --username and --password');
  return new ManagementClient(url, credentials);
}

async function apply(parsed: Parsed, env: NodeJS.ProcessEnv, io: Output): Promise<number> {
  const [target, ...extra] = parsed.positional;
  if (!target || extra.length > 0) throw new UsageError('apply takes one folder or file');
  if (parsed.flags.has('format')) throw new UsageError('--format is an option of dump');
  const client = clientOf(parsed.flags, env);
  // Every file is read and checked before the platform is asked anything.
  const files = readApiFiles(target);
  const changes = diffAll(files, await loadCurrent(client), parsed.flags.has('prune'));
  io.out(formatDiff(changes));
  if (parsed.flags.has('dry-run') || changes.every((c) => c.kind === '=')) return 0;
  await applyChanges(client, changes);
  io.out('Applied.');
  return 0;
}

async function dump(parsed: Parsed, env: NodeJS.ProcessEnv, io: Output): Promise<number> {
  const [folder, ...extra] = parsed.positional;
  if (!folder || extra.length > 0) throw new UsageError('dump takes one folder');
  if (parsed.flags.has('dry-run') || parsed.flags.has('prune'))
    throw new UsageError('--dry-run and --prune are options of apply');
  const format = parsed.flags.get('format') ?? 'yaml';
  if (format !== 'yaml' && format !== 'json') throw new UsageError('--format is yaml or json');
  const written = writeDump(folder, await loadCurrent(clientOf(parsed.flags, env)), format);
  io.out(`Wrote ${written.length} API${written.length === 1 ? '' : 's'} to ${folder}`);
  return 0;
}

/** Runs `apply` or `dump`; resolves with the exit code (1: refused file or call, 2: bad usage). */
export async function runDeclarative(
  command: 'apply' | 'dump',
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Output = consoleOutput,
): Promise<number> {
  try {
    const parsed = parseArgs(argv);
    return await (command === 'apply' ? apply(parsed, env, io) : dump(parsed, env, io));
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`portico ${command}: ${error.message}\n\n${DECLARATIVE_USAGE}`);
      return 2;
    }
    const prefix = error instanceof FileError ? 'invalid file ' : '';
    io.err(`portico ${command}: ${prefix}${(error as Error).message}`);
    return 1;
  }
}

import { connect, migrateToLatest } from '@portico/storage';
import { loadConfig } from './config.js';
import { runDeclarative } from './declarative/command.js';
import { startComponents } from './start.js';
import { VERSION } from './version.js';

const USAGE = `Usage: portico <command>

Commands:
  start        run everything in one process: management API, gateway and web app
  management   run the management API only
  gateway      run a gateway only (scale out: several gateways on one PostgreSQL and Redis)
  migrate      bring the database schema up to date and exit
  apply        make the platform match API definition files (--dry-run, --prune; see README)
  dump         write every API to a folder, one definition file per API
  version      print the version

Configuration: ./portico.yml (or PORTICO_CONFIG) and environment variables, which win (see README).`;

/** Runs a command; resolves with the exit code (long-running commands resolve when stopped). */
export async function main(argv: string[]): Promise<number> {
  const command = argv[0];
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  if (command === 'version' || command === '--version') {
    console.log(VERSION);
    return 0;
  }
  // Clients of a management API, local or remote: no configuration of this installation is read.
  if (command === 'apply' || command === 'dump') return runDeclarative(command, argv.slice(1));
  const config = loadConfig();
  switch (command) {
    case 'migrate': {
      const storage = connect({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        connectTimeoutMs: config.databaseConnectTimeoutMs,
      });
      try {
        const applied = await migrateToLatest(storage.db);
        console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database schema is up to date.');
      } finally {
        await storage.close();
      }
      return 0;
    }
    case 'start':
    case 'management':
    case 'gateway': {
      const running = await startComponents(config, {
        management: command !== 'gateway',
        gateway: command !== 'management',
        web: command === 'start',
      });
      // First signal: drain (README "Running as a cluster"); a second one cuts the drain short.
      const hurry = new AbortController();
      await waitForSignal(() => {
        console.log('second signal: ending the drain now');
        hurry.abort();
      });
      await running.drain(hurry.signal);
      return 0;
    }
    default:
      console.error(`Unknown command "${command}".\n\n${USAGE}`);
      return 1;
  }
}

/** Resolves at the first SIGINT or SIGTERM; `again` runs at the next one. */
function waitForSignal(again: () => void): Promise<void> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      console.log(`${signal} received: draining, then stopping`);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.once('SIGINT', again);
      process.once('SIGTERM', again);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

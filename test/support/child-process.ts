import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A port nobody listened on a moment ago (the system picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.unref();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** How many times a start is tried on new ports when one it was given was taken meanwhile. */
const PORT_CLASH_ATTEMPTS = 3;

/**
 * Runs `start` again when it failed with EADDRINUSE. A port that `freePort` found free can be taken
 * before the process listens on it: the system hands out listening ports and client sockets (of other
 * tests running meanwhile) from the same range. `start` picks new free ports on each call.
 */
export async function retryOnPortClash<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      const clash = error instanceof Error && error.message.includes('EADDRINUSE');
      if (!clash || attempt >= PORT_CLASH_ATTEMPTS) throw error;
    }
  }
}

/** Collects what a child process prints; `closed` settles after its last output, which 'exit' may precede. */
export function watchChild(child: ChildProcess): {
  output: () => string;
  exited: Promise<void>;
  closed: Promise<void>;
} {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    output: () => output,
    exited: new Promise((resolve) => child.once('exit', () => resolve())),
    closed: new Promise((resolve) => child.once('close', () => resolve())),
  };
}

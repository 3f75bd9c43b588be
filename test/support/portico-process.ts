import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort, retryOnPortClash, watchChild } from './child-process.js';

export { freePort } from './child-process.js';

/**
 * The built CLI (`npm test` builds before running the tests); PORTICO_TEST_CLI names another build,
 * e.g. a copy that a long series of runs keeps while the working tree is rebuilt.
 */
export const CLI =
  process.env.PORTICO_TEST_CLI ?? fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));

export interface PorticoProcess {
  child: ChildProcess;
  managementUrl: string;
  gatewayUrl: string;
  output(): string;
  /** Sends the signal and waits for the process to end. */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

type Command = 'start' | 'management' | 'gateway';

/**
 * Starts `portico <command>` with the environment given and waits until `GET /management/health` answers 200.
 * The start is tried again on new ports (where the test named none) when one was taken meanwhile.
 */
export async function startPortico(
  command: Command,
  env: Record<string, string>,
  timeoutMs = 30_000,
  /** Answers 200 once the process is ready (default: the management health endpoint). */
  readyUrl?: string,
): Promise<PorticoProcess> {
  return retryOnPortClash(() => startOnce(command, env, timeoutMs, readyUrl));
}

async function startOnce(
  command: Command,
  env: Record<string, string>,
  timeoutMs: number,
  readyUrl: string | undefined,
): Promise<PorticoProcess> {
  const port = env.PORTICO_MANAGEMENT_PORT ?? String(await freePort());
  const gatewayPort = env.PORTICO_GATEWAY_PORT ?? String(await freePort());
  const webPort = env.PORTICO_WEB_PORT ?? String(await freePort());
  const child = spawn(process.execPath, [CLI, command], {
    env: {
      ...process.env,
      PORTICO_LOG_LEVEL: 'warn',
      ...env,
      PORTICO_MANAGEMENT_PORT: port,
      PORTICO_GATEWAY_PORT: gatewayPort,
      PORTICO_WEB_PORT: webPort,
      // Many gateways on one host: each its own status listener (any free port unless the test names one).
      PORTICO_GATEWAY_STATUS_PORT: env.PORTICO_GATEWAY_STATUS_PORT ?? '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, closed } = watchChild(child);
  const managementUrl = `http://127.0.0.1:${port}/management`;
  const exited = once(child, 'exit');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await closed;
      throw new Error(`portico ${command} exited (${child.exitCode}):\n${output()}`);
    }
    try {
      const res = await fetch(readyUrl ?? `${managementUrl}/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`portico ${command} did not answer within ${timeoutMs} ms:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    managementUrl,
    gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
    output,
    kill: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const [code] = await exited;
      return code as number | null;
    },
  };
}

/** Signs in and returns the bearer token. */
export async function login(managementUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${managementUrl}/user/login`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

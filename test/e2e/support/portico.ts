import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqliteTemplateFile } from '@portico/storage/testing';
import { freePort, retryOnPortClash, watchChild } from '../../support/child-process.js';
import type { MailSink } from './mail-sink.js';

export { freePort } from '../../support/child-process.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'packages/cli/dist/bin.js');
const WEB_DIST = path.join(
  process.env.PORTICO_WEB_DIST ?? path.join(REPO_ROOT, 'packages/web/dist'),
  'index.html',
);

export interface Portico {
  /** The web app, e.g. http://localhost:41234 */
  webUrl: string;
  /** The management API base, e.g. http://localhost:41235/management/ */
  apiUrl: string;
  /** The gateway, e.g. http://localhost:41236 */
  gatewayUrl: string;
  dataDir: string;
  /** Everything the process printed (for failure messages). */
  output(): string;
  /** Kills the process (the web app then cannot reach the API); the data directory stays. */
  kill(): Promise<void>;
  /** Kills the process and removes its data directory. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** `start` (default: everything, with the web app) or `management` (the management API only). */
  command?: 'start' | 'management';
  /** PORTICO_SMTP_URL: mails go to this server instead of the outbox table. */
  smtpUrl?: string;
  /** PORTICO_MANAGEMENT_URL: the management API the web app calls, when it is another process. */
  managementUrl?: string;
  /** PORTICO_WEB_URL (links in mails, CORS origin), when the web app is served by another process. */
  webUrl?: string;
  /** The web app's port (default: a free one). */
  webPort?: number;
  timeoutMs?: number;
  /** More environment variables of the process (e.g. OTEL_* for tracing). */
  env?: Record<string, string>;
}

/**
 * Starts `portico start` (the built CLI) on free ports with a fresh data directory and waits until the
 * management API answers its health check and the web app serves its page (`portico management`: the
 * API only).
 * It starts again on new ports when one was taken meanwhile.
 */
export async function startPortico(options: StartOptions = {}): Promise<Portico> {
  return retryOnPortClash(() => startOnce(options));
}

async function startOnce(options: StartOptions): Promise<Portico> {
  for (const [file, what] of [
    [CLI, 'the CLI (npx tsc -b packages/cli)'],
    [WEB_DIST, 'the web app (npm run build -w @portico/web)'],
  ] as const) {
    if (!existsSync(file)) throw new Error(`${file} is missing: build ${what} first (npm test builds both)`);
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'portico-e2e-'));
  // An empty database at the latest schema, so that the start does not run every migration again.
  await copyFile(await sqliteTemplateFile(), path.join(dataDir, 'portico.db'));
  const [managementPort, gatewayPort] = [await freePort(), await freePort()];
  const webPort = options.webPort ?? (await freePort());
  const command = options.command ?? 'start';
  const withWeb = command === 'start';
  const webUrl = options.webUrl ?? `http://localhost:${webPort}`;
  const child: ChildProcess = spawn(process.execPath, [CLI, command], {
    cwd: dataDir,
    env: {
      ...process.env,
      PORTICO_DATA_DIR: dataDir,
      PORTICO_MANAGEMENT_PORT: String(managementPort),
      PORTICO_WEB_PORT: String(webPort),
      PORTICO_GATEWAY_PORT: String(gatewayPort),
      // Any free port: several Portico processes run side by side in the tests.
      PORTICO_GATEWAY_STATUS_PORT: '0',
      PORTICO_WEB_URL: webUrl,
      PORTICO_LOG_LEVEL: 'warn',
      ...(options.smtpUrl ? { PORTICO_SMTP_URL: options.smtpUrl } : {}),
      ...(options.managementUrl ? { PORTICO_MANAGEMENT_URL: options.managementUrl } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, exited, closed } = watchChild(child);

  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  const portico: Portico = {
    webUrl,
    apiUrl: `http://localhost:${managementPort}/management/`,
    gatewayUrl: `http://localhost:${gatewayPort}`,
    dataDir,
    output,
    kill,
    async stop() {
      await kill();
      await rm(dataDir, { recursive: true, force: true });
    },
  };

  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await closed;
      break;
    }
    const webReady =
      !withWeb || (output().includes('web app:') && (await answers(`${webUrl}/constants.json`)));
    if ((await answers(`${portico.apiUrl}health`)) && webReady) {
      return portico;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await portico.stop();
  throw new Error(`portico ${command} did not come up:\n${output()}`);
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** Signs in through the API and answers the bearer token (to prepare data as an administrator). */
export async function adminToken(portico: Portico, username = 'admin', password = 'admin'): Promise<string> {
  const response = await fetch(`${portico.apiUrl}user/login`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
  });
  if (!response.ok) throw new Error(`login as ${username}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** POST portal with an administrator's token: saves a partial settings tree. */
export async function saveSettings(portico: Portico, token: string, settings: unknown): Promise<void> {
  const response = await fetch(`${portico.apiUrl}portal`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(settings),
  });
  if (!response.ok) throw new Error(`POST portal: ${response.status} ${await response.text()}`);
}

/**
 * A user an administrator created, whose registration is finished (pending users are not offered by
 * the user pickers): created with POST users, then finalized with the token of the mail it received.
 */
export async function createActiveUser(
  portico: Portico,
  token: string,
  sink: MailSink,
  user: { firstname: string; lastname: string; email: string; password: string },
): Promise<{ id: string }> {
  const call = (path: string, body: unknown, bearer = true) =>
    fetch(`${portico.apiUrl}${path}`, {
      method: 'POST',
      headers: {
        ...(bearer ? { Authorization: `Bearer ${token}` } : {}),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });
  const created = await call('users', {
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
  });
  if (created.status !== 201) throw new Error(`POST users: ${created.status} ${await created.text()}`);
  const mail = await sink.waitForMail(user.email, /registration/i);
  const registration = /\/registration\/confirm\/([\w.-]+)/.exec(mail.text ?? '')?.[1];
  const finalized = await call(
    'users/registration/finalize',
    { token: registration, password: user.password, firstname: user.firstname, lastname: user.lastname },
    false,
  );
  if (finalized.status >= 300) throw new Error(`finalize: ${finalized.status} ${await finalized.text()}`);
  return (await created.json()) as { id: string };
}

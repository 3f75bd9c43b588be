// Starting the servers of the gateway benchmark: the Node scripts of bench/gateway, Portico's gateway and
// nginx; every child is kept to be stopped at the end.
import { fork, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Every process started, to stop them all at the end. */
export const children = [];

export function startNode(script, env) {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.push(child);
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

export async function waitFor(url, headers = {}) {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(url, { headers });
      if (res.status === 200) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} never answered 200`);
}

/** Portico's gateway (the built CLI) on the data directory, with extra node flags. */
export function startPortico(work, port, nodeArgs, env = {}) {
  const portico = spawn(
    process.execPath,
    [...nodeArgs, path.join(root, 'packages/cli/dist/bin.js'), 'gateway'],
    {
      env: {
        ...process.env,
        PORTICO_DATA_DIR: work,
        PORTICO_GATEWAY_PORT: String(port),
        PORTICO_GATEWAY_STATUS_PORT: '0',
        PORTICO_LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  children.push(portico);
  return portico;
}

/** nginx with one worker proxying to the backend with keep-alive, when installed; else undefined. */
export function startNginx(work, port, backendPort) {
  if (!existsSync('/usr/sbin/nginx')) return undefined;
  const conf = path.join(work, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off; worker_processes 1; pid ${work}/nginx.pid; error_log ${work}/nginx-error.log;
events { worker_connections 1024; }
http { access_log off; client_body_temp_path ${work}; proxy_temp_path ${work}; fastcgi_temp_path ${work}; uwsgi_temp_path ${work}; scgi_temp_path ${work};
  upstream backend { server 127.0.0.1:${backendPort}; keepalive 64; }
  server { listen 127.0.0.1:${port}; location / { proxy_pass http://backend; proxy_http_version 1.1; proxy_set_header Connection ""; } } }`,
  );
  const nginx = spawn('/usr/sbin/nginx', ['-c', conf, '-p', work], { stdio: 'ignore' });
  children.push(nginx);
  return nginx;
}

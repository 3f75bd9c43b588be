import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { connect, createServer } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a real server (PostgreSQL), that a test cuts off without
 * touching the server: `blackHole()` drops the connections under way and then accepts new ones
 * without ever answering (a host that does not answer); `open()` forwards again.
 */
export interface TcpProxy {
  port: number;
  /** The URL with its host and port replaced by the proxy's. */
  through(url: string): string;
  blackHole(): void;
  open(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let forwarding = true;
  const piped = new Set<Socket>();
  const held = new Set<Socket>();
  const server = createServer((client) => {
    client.on('error', () => {});
    if (!forwarding) {
      held.add(client);
      client.on('close', () => held.delete(client));
      return;
    }
    const upstream = connect(targetPort, targetHost);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    for (const s of [client, upstream]) {
      piped.add(s);
      s.on('close', () => piped.delete(s));
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    through(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    blackHole() {
      forwarding = false;
      for (const s of piped) s.destroy();
    },
    open() {
      forwarding = true;
      // Connections accepted while black-holed never got an answer: their clients gave up or will.
      for (const s of held) s.destroy();
    },
    async close() {
      for (const s of [...piped, ...held]) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

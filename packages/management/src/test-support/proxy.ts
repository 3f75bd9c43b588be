import http from 'node:http';
import { connect, type AddressInfo } from 'node:net';

/** A real forward proxy standing for the installation's system proxy: it tunnels CONNECTs and keeps their targets. */
export interface TestProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The `host:port` of every tunnel asked for. */
  targets: string[];
  close(): Promise<void>;
}

export async function startProxy(): Promise<TestProxy> {
  const targets: string[] = [];
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client) => {
    targets.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    targets,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test receiver got: its path, headers and body as text. */
export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real local HTTP server standing for a webhook or message receiver: it keeps every request. */
export interface TestReceiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  received: ReceivedRequest[];
  /** The JSON bodies received on a path (all paths when none is given). */
  json<T = Record<string, unknown>>(path?: string): T[];
  /** The status it answers with (200 until changed). */
  status: number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<TestReceiver> {
  const received: ReceivedRequest[] = [];
  const receiver: TestReceiver = {
    url: '',
    received,
    status: 200,
    json: <T>(path?: string) =>
      received.filter((r) => path === undefined || r.path === path).map((r) => JSON.parse(r.body) as T),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(receiver.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

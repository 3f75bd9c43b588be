import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeTraceRequest } from './otlp-decode.js';
import type { DecodedSpan } from './otlp-decode.js';

/** A span as received, decoded from OTLP protobuf: ids in hex, attributes as plain values. */
export type ReceivedSpan = DecodedSpan;

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Requests received (their headers), answered or not. */
  requests: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

/**
 * A real OTLP/HTTP receiver for tests: decodes `POST /v1/traces` protobuf bodies (otlp-decode.ts). `silent`: it reads requests and never answers (a collector that hangs).
 */
export async function startOtlpReceiver(options: { silent?: boolean } = {}): Promise<OtlpReceiver> {
  const receiver: OtlpReceiver = { url: '', spans: [], requests: [], close: async () => {} };
  const server = http.createServer((req, res) => {
    receiver.requests.push(req.headers);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (options.silent) return;
      try {
        receiver.spans.push(...decodeTraceRequest(Buffer.concat(chunks)));
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      } catch (error) {
        res.writeHead(400).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

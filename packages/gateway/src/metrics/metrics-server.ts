import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenSide } from '../http/side-listener.js';
import type { MetricsRegistry } from './registry.js';
import { isMetricsRequest, serveMetrics } from './registry.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The gateway's handler, answering `GET /metrics` itself when the metrics are served on the gateway's
 * own port (the scrape wins over an API with that context path: set a metrics port to free it).
 */
export function withMetrics(handler: Handler, metrics: MetricsRegistry, token: string | undefined): Handler {
  return (req, res) => {
    if (isMetricsRequest(req)) serveMetrics(metrics, token, req, res);
    else handler(req, res);
  };
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** A listener of its own for `GET /metrics` (every other path: 404). */
export async function startMetricsServer(
  metrics: MetricsRegistry,
  token: string | undefined,
  port: number,
  host: string,
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (isMetricsRequest(req)) serveMetrics(metrics, token, req, res);
    else {
      req.resume();
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    }
  });
  return listenSide(server, port, host);
}

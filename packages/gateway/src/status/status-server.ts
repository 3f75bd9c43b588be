import http from 'node:http';
import { listenSide } from '../http/side-listener.js';

/** Default port of the gateway's status listener (`PORTICO_GATEWAY_STATUS_PORT`). */
export const DEFAULT_GATEWAY_STATUS_PORT = 18082;

/** What a load balancer or a Kubernetes probe asks: is the process alive, may it receive traffic. */
export class Readiness {
  private loaded = false;
  private leaving = false;
  private check: (() => boolean) | undefined;

  /** The deployed APIs are loaded (from the database or the snapshot): traffic may come. */
  markLoaded(): void {
    this.loaded = true;
  }

  /** Nothing to serve yet (database down, no snapshot): ready as soon as `check` says it loaded. */
  markLoadedWhen(check: () => boolean): void {
    this.check = check;
  }

  /** Draining or stopping: no new traffic, whatever was loaded. */
  markDraining(): void {
    this.leaving = true;
  }

  get ready(): boolean {
    if (!this.loaded && this.check?.()) this.loaded = true;
    return this.loaded && !this.leaving;
  }

  get draining(): boolean {
    return this.leaving;
  }
}

export interface StatusServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The gateway's status listener, on its own port so that the APIs' context paths never shadow it:
 * `GET /live` answers 200 while the process works; `GET /ready` 200 once the deployed APIs are loaded
 * and 503 before that and while draining.
 */
export async function startStatusServer(
  readiness: Readiness,
  port: number,
  host: string,
): Promise<StatusServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { message: 'Method not allowed' });
    if (path === '/live') return send(200, { status: 'UP' });
    if (path === '/ready') {
      if (readiness.ready) return send(200, { status: 'READY' });
      return send(503, { status: readiness.draining ? 'DRAINING' : 'STARTING' });
    }
    send(404, { message: 'Not found' });
  });
  server.keepAliveTimeout = 5000;
  return listenSide(server, port, host);
}

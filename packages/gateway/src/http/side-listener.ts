import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listener of the gateway's beside its API traffic (status, metrics): its port and how to close it. */
export interface SideListener {
  port: number;
  close(): Promise<void>;
}

/** Listens on `port` (0: any free one); rejects when the port cannot be taken. */
export async function listenSide(server: http.Server, port: number, host: string): Promise<SideListener> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

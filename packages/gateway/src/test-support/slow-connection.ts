import http from 'node:http';
import net from 'node:net';

/** A client connection that sends its request slowly. */
export interface Slow {
  /** When the server closed the connection (ms after it was opened), or undefined while open. */
  closedAfter: number | undefined;
  received: string;
  stop(): void;
}

/** A connection that sends `head` then one byte of `drip` (if any) every 100 ms, for at most 10 s. */
export function slowConnection(port: number, head: string, drip: string): Promise<Slow> {
  return new Promise((resolve, reject) => {
    const opened = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let timer: NodeJS.Timeout | undefined;
    const slow: Slow = {
      closedAfter: undefined,
      received: '',
      stop: () => {
        clearInterval(timer);
        socket.destroy();
      },
    };
    socket.on('data', (d: Buffer) => (slow.received += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      slow.closedAfter ??= Date.now() - opened;
    });
    socket.once('connect', () => {
      socket.write(head);
      let sent = 0;
      if (drip !== '')
        timer = setInterval(() => {
          if (sent >= 100 || socket.destroyed) return clearInterval(timer);
          socket.write(drip[sent % drip.length]!);
          sent++;
        }, 100);
      resolve(slow);
    });
    socket.once('error', reject);
  });
}

/** Waits until `check` holds or `timeoutMs` is over. */
export async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/** A plain GET on a new connection: its status and how long it took. */
export function timedGet(port: number, path: string): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Date.now() - started }));
      })
      .on('error', reject);
  });
}

import { EventEmitter } from 'node:events';
import type pg from 'pg';

/** What changed, announced to the gateways as soon as it is committed. */
export interface BusMessage {
  /** `event` for a row of the events table; `subscription` and `apikey` for changed access rights. */
  kind: 'event' | 'subscription' | 'apikey';
  /** Event type or entity id. */
  id: string;
  apiId?: string;
}

/** The PostgreSQL channel that carries bus messages between processes. */
export const SYNC_CHANNEL = 'portico_sync';

/**
 * The change bus: management publishes after a commit; the gateways of the same process hear it at
 * once, and, on PostgreSQL, the gateways of other processes through LISTEN/NOTIFY. Gateways also poll,
 * so a lost message only delays a change until the next poll.
 */
export class EventBus {
  private readonly emitter = new EventEmitter();
  private notifyPool: pg.Pool | undefined;
  private listener: pg.PoolClient | undefined;

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(message: BusMessage): void {
    this.emitter.emit('message', message);
    this.notifyPool?.query('select pg_notify($1, $2)', [SYNC_CHANNEL, JSON.stringify(message)]).catch(() => {
      // The gateways' polling picks the change up.
    });
  }

  subscribe(listener: (message: BusMessage) => void): () => void {
    this.emitter.on('message', listener);
    return () => this.emitter.off('message', listener);
  }

  /** Also sends every message to the other processes on this PostgreSQL database. */
  publishToPostgres(pool: pg.Pool): void {
    this.notifyPool = pool;
  }

  /**
   * Hears the messages of the other processes (one dedicated connection); reconnects when it drops.
   * `onListening` is called each time the connection listens again: what was sent meanwhile is lost.
   */
  async listenToPostgres(
    pool: pg.Pool,
    onError: (error: unknown) => void = () => {},
    onListening: () => void = () => {},
  ): Promise<void> {
    const connect = async (): Promise<void> => {
      try {
        const client = await pool.connect();
        this.listener = client;
        client.on('notification', (n) => {
          if (n.channel !== SYNC_CHANNEL || !n.payload) return;
          try {
            this.emitter.emit('message', JSON.parse(n.payload) as BusMessage);
          } catch {
            // not ours
          }
        });
        let released = false;
        client.on('error', (error) => {
          onError(error);
          // A broken connection can report more than one error: give it back to the pool once.
          if (!released) {
            released = true;
            client.release(true);
          }
          if (this.listener === client) {
            this.listener = undefined;
            setTimeout(() => void connect(), 1000).unref();
          }
        });
        await client.query(`LISTEN ${SYNC_CHANNEL}`);
        onListening();
      } catch (error) {
        onError(error);
        setTimeout(() => void connect(), 1000).unref();
      }
    };
    await connect();
  }

  async close(): Promise<void> {
    const client = this.listener;
    this.listener = undefined;
    this.notifyPool = undefined;
    if (client) {
      await client.query(`UNLISTEN ${SYNC_CHANNEL}`).catch(() => {});
      client.release();
    }
    this.emitter.removeAllListeners();
  }
}

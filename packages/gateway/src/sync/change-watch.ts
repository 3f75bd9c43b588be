import type { EventBus, Storage } from '@portico/storage';
import { findDataVersion } from '@portico/storage';
import type { CommitSignal } from '../reporting/report-sink.js';
import type { SyncService } from './sync.service.js';

/** How often a gateway on SQLite looks whether another process committed to the database file. */
export const DATA_VERSION_POLL_MS = 100;

/**
 * Wakes the sync when another process commits: on PostgreSQL by LISTEN (established before the first
 * load, waited for at most `startTimeoutMs`; a sync follows every reconnection, since notifications
 * sent meanwhile are lost); on SQLite by `PRAGMA data_version`, which changes when another connection
 * commits to the file and costs no I/O. With `commits`, the report writer thread's connection watches
 * it: the gateway's own connection would see every batch of reports as a change, and sync after each.
 * Without, or once the writer's thread has ended, the gateway's connection is polled. Returns the
 * function that stops watching.
 */
export async function watchForChanges(
  storage: Storage,
  bus: EventBus,
  sync: SyncService,
  options: { startTimeoutMs?: number | undefined; log: { warn(msg: string): void } },
  commits?: CommitSignal,
): Promise<() => void> {
  if (storage.pgPool) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      bus.listenToPostgres(
        storage.pgPool,
        (e) => options.log.warn(`LISTEN connection: ${String(e)}`),
        () => void sync.sync(),
      ),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, options.startTimeoutMs ?? 5000))),
    ]);
    clearTimeout(timer);
    return () => {};
  }
  let stopped = false;
  let stopPolling = () => {};
  const poll = async () => {
    if (stopped) return;
    const stop = await pollDataVersion(storage, sync);
    // Stopped while the first look was under way: the poll ends at once.
    if (stopped) stop();
    else stopPolling = stop;
  };
  if (commits)
    commits.watch(
      () => void sync.sync(),
      // The thread ended (not by the gateway's shutdown, which stops watching first): a sync for what it
      // may not have told, then the gateway's connection is polled.
      () => {
        if (stopped) return;
        void sync.sync();
        void poll();
      },
    );
  else await poll();
  return () => {
    stopped = true;
    stopPolling();
  };
}

/** Polls `PRAGMA data_version` on the gateway's connection; returns the function that stops. */
async function pollDataVersion(storage: Storage, sync: SyncService): Promise<() => void> {
  let version: number | null = await findDataVersion(storage.db).catch(() => null);
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    findDataVersion(storage.db)
      .then((v) => {
        if (v !== version) {
          version = v;
          void sync.sync();
        }
      })
      .catch(() => {})
      .finally(() => (busy = false));
  }, DATA_VERSION_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

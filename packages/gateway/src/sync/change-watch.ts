import type { EventBus, Storage } from '@portico/storage';
import { findDataVersion } from '@portico/storage';
import type { SyncService } from './sync.service.js';

/** How often a gateway on SQLite looks whether another process committed to the database file. */
const DATA_VERSION_POLL_MS = 100;

/**
 * Wakes the sync when another process commits: on PostgreSQL by LISTEN (established before the first
 * load, waited for at most `startTimeoutMs`; a sync follows every reconnection, since notifications
 * sent meanwhile are lost); on SQLite by `PRAGMA data_version`, which changes when another connection
 * commits to the file and costs no I/O. Returns the function that stops watching.
 */
export async function watchForChanges(
  storage: Storage,
  bus: EventBus,
  sync: SyncService,
  options: { startTimeoutMs?: number | undefined; log: { warn(msg: string): void } },
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

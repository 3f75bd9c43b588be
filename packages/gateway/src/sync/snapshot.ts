import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DeployedApi } from '@portico/model';
import type { KeyInfo, SubscriptionInfo } from './access-state.js';

/** The gateway's last good state, so it restarts and serves while the database is down. */
export interface Snapshot {
  version: 1;
  savedAt: number;
  eventSeq: number;
  accessSince: number;
  apis: DeployedApi[];
  keys: KeyInfo[];
  subscriptions: SubscriptionInfo[];
}

export function snapshotFile(dataDir: string, gatewayPort: number): string {
  return path.join(dataDir, `gateway-${gatewayPort}-snapshot.json`);
}

/** Written to a temporary file then renamed: a crash never leaves half a snapshot. */
export function writeSnapshot(file: string, snapshot: Snapshot): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(snapshot));
  renameSync(tmp, file);
}

export function readSnapshot(file: string): Snapshot | undefined {
  try {
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
    return snapshot.version === 1 ? snapshot : undefined;
  } catch {
    return undefined;
  }
}

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DeployedApi } from '@portico/model';
import type { KeyInfo, SubscriptionInfo } from './access-state.js';
import type { ApiDeployment } from './deployments.js';

/**
 * What the gateway serves, written with every change of it, so it restarts and serves the same while
 * the database is down. Version 2 keeps the sequences of each API's events.
 */
export interface Snapshot {
  version: 2;
  savedAt: number;
  /** The highest lifecycle event sequence served. */
  eventSeq: number;
  digest: string;
  apis: ({ id: string } & ApiDeployment)[];
  keys: KeyInfo[];
  subscriptions: SubscriptionInfo[];
}

interface SnapshotV1 {
  version: 1;
  savedAt: number;
  eventSeq: number;
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
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as Snapshot | SnapshotV1;
    if (snapshot.version === 2) return snapshot;
    if (snapshot.version !== 1) return undefined;
    return {
      ...snapshot,
      version: 2,
      digest: '',
      apis: snapshot.apis.map((api) => ({
        id: api.id,
        deployed: api,
        deploySeq: 0,
        started: api.state === 'STARTED',
        stateSeq: 0,
      })),
    };
  } catch {
    return undefined;
  }
}

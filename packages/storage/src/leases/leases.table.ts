import type { Selectable } from 'kysely';

/** A lease: which process runs a piece of scheduled work until `expires_at` (renewed while it runs). */
export interface SchedulerLeaseTable {
  name: string;
  owner: string;
  expires_at: number;
}
export type SchedulerLeaseRow = Selectable<SchedulerLeaseTable>;

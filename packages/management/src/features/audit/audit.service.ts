import jsonPatch from 'fast-json-patch';

const { compare } = jsonPatch;
import type { Executor } from '@portico/storage';
import { insertAudit } from '@portico/storage';
import { newId } from '../../http/ids.js';

export type AuditReferenceType = 'API' | 'APPLICATION' | 'ENVIRONMENT';

export interface AuditEntry {
  referenceType: AuditReferenceType;
  referenceId: string;
  /** The acting user; absent for the platform itself (start-up, scheduler). */
  userId?: string | undefined;
  /** What happened, e.g. API_CREATED, USER_UPDATED, SETTINGS_UPDATED. */
  event: string;
  properties?: Record<string, string>;
  /** The entity before and after the change (secrets left out); the entry keeps their JSON Patch. */
  before?: unknown;
  after?: unknown;
}

/** Told of each entry in the transaction of the change (the notification settings react to some). */
export type AuditObserver = (db: Executor, entry: AuditEntry) => Promise<void>;

/** Writes audit entries, in the transaction of the change they describe. */
export class AuditService {
  private readonly observers: AuditObserver[] = [];

  constructor(private readonly now: () => number) {}

  observe(observer: AuditObserver): void {
    this.observers.push(observer);
  }

  async record(db: Executor, entry: AuditEntry): Promise<void> {
    const patch =
      entry.before === undefined && entry.after === undefined
        ? null
        : JSON.stringify(compare(toObject(entry.before), toObject(entry.after)));
    await insertAudit(db, {
      id: newId(),
      reference_type: entry.referenceType,
      reference_id: entry.referenceId,
      user_id: entry.userId ?? null,
      event: entry.event,
      properties: JSON.stringify(entry.properties ?? {}),
      patch,
      created_at: this.now(),
    });
    for (const observer of this.observers) await observer(db, entry);
  }
}

function toObject(value: unknown): object {
  return value && typeof value === 'object' ? (JSON.parse(JSON.stringify(value)) as object) : {};
}

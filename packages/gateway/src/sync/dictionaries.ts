import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Database } from '@portico/storage';
import { findDeployedDictionaryProperties, findDictionaryDeployments } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { Dictionaries } from '../policies/policy.js';

/** The file of the deployed dictionaries, beside the gateway's snapshot. */
export function dictionariesFile(dataDir: string, gatewayPort: number): string {
  return path.join(dataDir, `gateway-${gatewayPort}-dictionaries.json`);
}

interface Held {
  name: string;
  seq: number;
  properties: Record<string, string>;
}

export interface DictionarySyncOptions {
  file: string;
  /** How often the database is read when no notification came (another SQLite process). */
  pollMs: number;
  log: { info(msg: string): void; warn(msg: string): void };
}

/** A map without prototype: `dictionaries['constructor']` is nothing, not a function. */
const bare = <T>(entries: Iterable<[string, T]>): Record<string, T> =>
  Object.assign(Object.create(null) as Record<string, T>, Object.fromEntries(entries));

/**
 * The deployed dictionaries that expressions read: `dictionaries['id']['key']` (the id is made from
 * the name; the name itself works too when no other dictionary has it as id). Each dictionary row
 * carries the sequence of its latest PUBLISH_DICTIONARY or UNPUBLISH_DICTIONARY event: a sync reads
 * those sequences (no properties) and loads only the dictionaries whose sequence differs, so it is
 * cheap, idempotent and independent of the order of commits. Syncs run on the bus's dictionary events
 * and on a timer; what is served is written to a file, served at start when the database is down.
 */
export class DictionarySync {
  private held = new Map<string, Held>();
  private view: Dictionaries = bare([]);
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: DictionarySyncOptions,
  ) {}

  /** What expressions see now. */
  current(): Dictionaries {
    return this.view;
  }

  /**
   * First load; from the file when the database does not answer (syncs go on behind it). With `wait`
   * false (the database did not answer the gateway's first load already), the file is served at once
   * and the first load goes on behind it.
   */
  async start(wait = true): Promise<void> {
    this.timer = setInterval(() => void this.sync(), this.options.pollMs);
    this.timer.unref();
    if (!wait) {
      this.restore();
      void this.sync();
      return;
    }
    try {
      await this.runOnce();
    } catch (error) {
      this.restore();
      this.options.log.warn(
        `dictionaries not loaded from the database (${String(error)}): serving ${this.held.size} from ${this.options.file}`,
      );
    }
  }

  /** Runs one sync now, or once more right after the one under way; failures keep what is served. */
  sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.runOnce();
        } while (this.again);
      } catch (error) {
        this.options.log.warn(`dictionary sync failed, serving the last good ones: ${String(error)}`);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async runOnce(): Promise<void> {
    const rows = await findDictionaryDeployments(this.db);
    const inDatabase = new Set(rows.map((r) => r.id));
    const changed = rows.filter(
      (r) => this.held.get(r.id)?.seq !== r.deploy_seq && (r.deployed || this.held.has(r.id)),
    );
    const gone = [...this.held.keys()].filter((id) => !inDatabase.has(id));
    if (changed.length === 0 && gone.length === 0) return;
    const loaded = await findDeployedDictionaryProperties(
      this.db,
      changed.map((r) => r.id),
    );
    const held = new Map(this.held);
    for (const id of gone) held.delete(id);
    for (const row of loaded) {
      if (row.deployed_properties === null) held.delete(row.id);
      else
        held.set(row.id, {
          name: row.name,
          seq: row.deploy_seq ?? 0,
          properties: JSON.parse(row.deployed_properties) as Record<string, string>,
        });
    }
    this.apply(held);
    this.save();
  }

  private apply(held: Map<string, Held>): void {
    this.held = held;
    const byKey = new Map<string, Readonly<Record<string, string>>>();
    for (const [, d] of held) byKey.set(d.name, Object.freeze(bare(Object.entries(d.properties))));
    for (const [id, d] of held) byKey.set(id, byKey.get(d.name)!);
    this.view = Object.freeze(bare(byKey));
  }

  private save(): void {
    try {
      mkdirSync(path.dirname(this.options.file), { recursive: true });
      const tmp = `${this.options.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ version: 1, dictionaries: [...this.held] }));
      renameSync(tmp, this.options.file);
    } catch (error) {
      this.options.log.warn(`dictionaries file not written: ${String(error)}`);
    }
  }

  private restore(): void {
    try {
      const saved = JSON.parse(readFileSync(this.options.file, 'utf8')) as { dictionaries: [string, Held][] };
      this.apply(new Map(saved.dictionaries));
    } catch {
      // No file yet: nothing deployed is known.
    }
  }
}

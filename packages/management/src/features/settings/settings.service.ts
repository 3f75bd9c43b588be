import { createHash } from 'node:crypto';
import type { SettingValue, SettingsTree } from '@portico/model';
import {
  SETTINGS,
  SETTINGS_BY_KEY,
  decodeSetting,
  effectiveSettings,
  encodeSetting,
  forbidden,
  flattenSettings,
  toSettingsTree,
} from '@portico/model';
import type { Database, Executor } from '@portico/storage';
import { deleteParameter, findAllParameters, upsertParameter } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';

/**
 * The portal and platform settings: stored parameters over the defaults of the model's settings list.
 * `GET portal` serves the public ones to everybody; settings readers also get the private ones
 * (mail server), secrets never.
 */
export class SettingsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: () => number,
    /** Defaults of this installation over the model's (the gateway's real URL as `portal.entrypoint`). */
    private readonly defaults: Readonly<Record<string, SettingValue>> = {},
  ) {}

  /** Every setting's current value. */
  async values(db: Executor = this.db): Promise<Map<string, SettingValue>> {
    return (await this.load(db)).values;
  }

  /** Every setting's value, and the last change time of any stored setting. */
  private async load(db: Executor): Promise<{ values: Map<string, SettingValue>; version: number }> {
    const rows = (await findAllParameters(db)).filter((p) => SETTINGS_BY_KEY.has(p.key));
    const stored = new Map(rows.map((p) => [p.key, p.value]));
    const values = new Map<string, SettingValue>();
    for (const d of SETTINGS) {
      const text = stored.get(d.key);
      values.set(d.key, text === undefined ? (this.defaults[d.key] ?? d.default) : decodeSetting(d, text));
    }
    return { values, version: Math.max(0, ...rows.map((r) => r.updated_at)) };
  }

  async value<T extends SettingValue>(key: string): Promise<T> {
    return (await this.values()).get(key) as T;
  }

  /**
   * The settings tree; `withPrivate` adds the non-public groups, secrets are never included. Options of
   * a feature that is off read off.
   */
  async tree(withPrivate: boolean): Promise<{ tree: SettingsTree; etag: string }> {
    const { values, version } = await this.load(this.db);
    const visible = new Map(
      [...effectiveSettings(values)].filter(([key]) => {
        const d = SETTINGS_BY_KEY.get(key)!;
        return !d.secret && (d.public || withPrivate);
      }),
    );
    return { tree: toSettingsTree(visible), etag: this.etag(values, version) };
  }

  /**
   * The entity tag of the settings: changes with any stored value. Secret values are not part of the
   * digest (it is served to everybody); their change time is, through the version marker.
   */
  etag(values: Map<string, SettingValue>, version: number): string {
    const digest = createHash('sha1');
    digest.update(`version=${version}\n`);
    for (const [k, v] of values)
      if (!SETTINGS_BY_KEY.get(k)?.secret) digest.update(`${k}=${encodeSetting(v)}\n`);
    return `"${digest.digest('base64url')}"`;
  }

  /** The value of a setting nobody set: the installation's default, or the built-in one. */
  private defaultOf(key: string): SettingValue {
    return this.defaults[key] ?? SETTINGS_BY_KEY.get(key)!.default;
  }

  /**
   * Saves a validated partial payload in one transaction and audits what changed; a null value unsets
   * the setting (its default applies again). Without `mayUpdate` (portal-settings-c only) the caller
   * may only create settings (first save of one not stored yet): changing or unsetting a stored one is
   * refused with 403 naming portal-settings-u, and nothing is saved.
   */
  async update(userId: string, payload: unknown, mayUpdate = true): Promise<void> {
    const given = flattenSettings(payload);
    await this.db.transaction().execute(async (trx) => {
      const before = await this.values(trx);
      if (!mayUpdate) {
        const stored = new Map((await findAllParameters(trx)).map((p) => [p.key, p.value]));
        for (const [key, requested] of given) {
          const text = stored.get(key);
          if (text === undefined) continue;
          if (requested === null || text !== encodeSetting(requested)) throw forbidden('portal-settings-u');
        }
      }
      const now = this.now();
      const changed: Record<string, string> = {};
      const changes = new Map<string, SettingValue>();
      for (const [key, requested] of given) {
        const value = requested ?? this.defaultOf(key);
        changes.set(key, value);
        if (requested === null) await deleteParameter(trx, key);
        if (encodeSetting(before.get(key)!) === encodeSetting(value)) continue;
        if (requested !== null) await upsertParameter(trx, key, encodeSetting(value), now);
        changed[key] = SETTINGS_BY_KEY.get(key)!.secret ? '********' : encodeSetting(value);
      }
      if (Object.keys(changed).length === 0) return;
      const mask = (m: Map<string, SettingValue>) =>
        Object.fromEntries(
          [...m].map(([k, v]) => [k, SETTINGS_BY_KEY.get(k)!.secret ? (v ? '********' : '') : v]),
        );
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId,
        event: 'SETTINGS_UPDATED',
        properties: changed,
        before: mask(before),
        after: mask(new Map([...before, ...changes])),
      });
    });
  }
}

import type { Database, NotificationSettingRow } from '@portico/storage';
import {
  deleteNotificationSetting,
  findApiById,
  findApplicationById,
  findNotificationSettingById,
  findNotificationSettingsOf,
  insertNotificationSetting,
  updateNotificationSetting,
} from '@portico/storage';
import { forbidden, invalidField, notFound, parsePermission } from '@portico/model';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import { PORTAL_SETTING_NAME, portalSetting } from './notification-defaults.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { HookScope } from './notification-hooks.js';
import { HOOKS, NOTIFIERS, PORTAL_REFERENCE_ID, notifierType } from './notification-hooks.js';

export interface Scope {
  type: HookScope;
  id: string;
}

/** What a client sends to create or change a setting (the spec's field names). */
export interface NotificationSettingInput {
  id?: string;
  name?: string;
  config_type: 'GENERIC' | 'PORTAL';
  referenceType?: string;
  referenceId?: string;
  notifier?: string | null;
  config?: string | null;
  useSystemProxy?: boolean;
  hooks?: string[];
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** The recipients of an EMAIL setting's config: addresses separated by commas, semicolons or spaces. */
export const emailRecipients = (config: string) => config.split(/[\s,;]+/).filter((a) => a.length > 0);

const PERMISSION_PREFIX: Record<HookScope, string> = {
  API: 'api-notification',
  APPLICATION: 'application-notification',
  PORTAL: 'management-notification',
};

export const toSettingJson = (row: NotificationSettingRow) =>
  row.config_type === 'PORTAL'
    ? {
        config_type: 'PORTAL',
        name: row.name,
        referenceType: row.reference_type,
        referenceId: row.reference_id,
        user: row.user_id,
        hooks: JSON.parse(row.hooks) as string[],
      }
    : {
        id: row.id,
        name: row.name,
        config_type: 'GENERIC',
        referenceType: row.reference_type,
        referenceId: row.reference_id,
        notifier: row.notifier,
        config: row.config,
        useSystemProxy: Boolean(row.use_system_proxy),
        hooks: JSON.parse(row.hooks) as string[],
      };

/**
 * Notification settings of one scope (API, application or platform): the shared GENERIC settings
 * (an EMAIL or WEBHOOK notifier with its config) and each user's own PORTAL setting (in-app
 * notifications). As Gravitee: reading needs `<scope>-notification-r`, which is also enough for a
 * user's own PORTAL setting; GENERIC settings need `-c`, `-u`, `-d`.
 */
export class NotificationSettingsService {
  constructor(
    private readonly deps: { db: Kysely<Database>; permissions: PermissionService; now(): number },
  ) {}

  hooks(scope: HookScope) {
    return HOOKS[scope];
  }

  notifiers() {
    return NOTIFIERS.map((n) => ({ ...n }));
  }

  /** 404 when the API or application does not exist. */
  private async checkScope(scope: Scope): Promise<void> {
    if (scope.type === 'API' && !(await findApiById(this.deps.db, scope.id))) throw notFound('API', scope.id);
    if (scope.type === 'APPLICATION' && !(await findApplicationById(this.deps.db, scope.id)))
      throw notFound('Application', scope.id);
  }

  private async allowed(userId: string, scope: Scope, acl: 'C' | 'R' | 'U' | 'D') {
    const name = `${PERMISSION_PREFIX[scope.type]}-${acl.toLowerCase()}`;
    const reference = scope.type === 'PORTAL' ? undefined : scope.id;
    if (!(await this.deps.permissions.has(userId, parsePermission(name), reference))) throw forbidden(name);
  }

  /** The user's PORTAL setting (an empty one when none is stored) then the GENERIC settings. */
  async list(scope: Scope, userId: string) {
    await this.checkScope(scope);
    const rows = await findNotificationSettingsOf(this.deps.db, scope.type, scope.id);
    const portal = rows.find((r) => r.config_type === 'PORTAL' && r.user_id === userId);
    return [
      portal
        ? toSettingJson(portal)
        : {
            config_type: 'PORTAL',
            name: PORTAL_SETTING_NAME,
            referenceType: scope.type,
            referenceId: scope.id,
            user: userId,
            hooks: [],
          },
      ...rows.filter((r) => r.config_type === 'GENERIC').map(toSettingJson),
    ];
  }

  private validate(scope: Scope, input: NotificationSettingInput): string[] {
    if (input.referenceType !== undefined && input.referenceType !== scope.type)
      throw invalidField('referenceType', `must be ${scope.type}`);
    if (input.referenceId !== undefined && input.referenceId !== scope.id)
      throw invalidField('referenceId', `must be ${scope.id}`);
    const known = new Set(HOOKS[scope.type].map((h) => h.id));
    const hooks = [...new Set(input.hooks ?? [])];
    const unknown = hooks.find((h) => !known.has(h));
    if (unknown !== undefined) throw invalidField('hooks', `unknown hook ${unknown}`);
    if (input.config_type === 'PORTAL') return hooks;
    if (!input.name?.trim()) throw invalidField('name', 'Name is required.');
    const type = notifierType(input.notifier ?? null);
    if (!input.notifier) throw invalidField('notifier', 'Notifier is required.');
    if (!type) throw invalidField('notifier', `unknown notifier ${input.notifier}`);
    return hooks;
  }

  /** A GENERIC setting's config, checked when given (it is required before it can be delivered). */
  private config(input: NotificationSettingInput): string | null {
    const config = input.config?.trim() || null;
    if (config === null) return null;
    if (notifierType(input.notifier ?? null) === 'WEBHOOK') {
      if (!URL.canParse(config) || !/^https?:$/.test(new URL(config).protocol))
        throw invalidField('config', 'must be an http(s) URL');
    } else {
      const bad = emailRecipients(config).find((a) => !EMAIL.test(a));
      if (bad !== undefined) throw invalidField('config', `${bad} is not an email address`);
    }
    return config;
  }

  /** Creates a GENERIC setting, or stores the user's PORTAL setting. */
  async create(scope: Scope, userId: string, input: NotificationSettingInput) {
    await this.checkScope(scope);
    await this.allowed(userId, scope, input.config_type === 'PORTAL' ? 'R' : 'C');
    const hooks = this.validate(scope, input);
    if (input.config_type === 'PORTAL') return this.savePortal(scope, userId, hooks);
    const now = this.deps.now();
    const id = newId();
    await insertNotificationSetting(this.deps.db, {
      id,
      name: input.name!.trim(),
      config_type: 'GENERIC',
      reference_type: scope.type,
      reference_id: scope.id,
      user_id: null,
      notifier: input.notifier!,
      config: this.config(input),
      use_system_proxy: input.useSystemProxy ? 1 : 0,
      hooks: JSON.stringify(hooks),
      created_at: now,
      updated_at: now,
    });
    return toSettingJson((await findNotificationSettingById(this.deps.db, id))!);
  }

  async update(scope: Scope, userId: string, id: string | undefined, input: NotificationSettingInput) {
    await this.checkScope(scope);
    await this.allowed(userId, scope, input.config_type === 'PORTAL' ? 'R' : 'U');
    const hooks = this.validate(scope, input);
    if (input.config_type === 'PORTAL') return this.savePortal(scope, userId, hooks);
    const existing = id ? await findNotificationSettingById(this.deps.db, id) : undefined;
    if (!existing || existing.reference_type !== scope.type || existing.reference_id !== scope.id)
      throw notFound('Notification setting', id ?? '');
    if (existing.config_type !== 'GENERIC') throw invalidField('config_type', 'must stay PORTAL');
    const config = this.config(input);
    if (config === null) throw invalidField('config', 'A notification needs a configuration.');
    await updateNotificationSetting(this.deps.db, existing.id, {
      name: input.name!.trim(),
      notifier: input.notifier!,
      config,
      use_system_proxy: input.useSystemProxy ? 1 : 0,
      hooks: JSON.stringify(hooks),
      updated_at: this.deps.now(),
    });
    return toSettingJson((await findNotificationSettingById(this.deps.db, existing.id))!);
  }

  async delete(scope: Scope, userId: string, id: string): Promise<void> {
    await this.checkScope(scope);
    await this.allowed(userId, scope, 'D');
    const existing = await findNotificationSettingById(this.deps.db, id);
    if (!existing || existing.reference_type !== scope.type || existing.reference_id !== scope.id)
      throw notFound('Notification setting', id);
    await deleteNotificationSetting(this.deps.db, id);
  }

  private async savePortal(scope: Scope, userId: string, hooks: string[]) {
    const rows = await findNotificationSettingsOf(this.deps.db, scope.type, scope.id);
    const mine = rows.find((r) => r.config_type === 'PORTAL' && r.user_id === userId);
    const now = this.deps.now();
    if (mine) {
      await updateNotificationSetting(this.deps.db, mine.id, {
        hooks: JSON.stringify(hooks),
        updated_at: now,
      });
    } else {
      await insertNotificationSetting(this.deps.db, portalSetting(scope, userId, hooks, now));
    }
    return (await this.list(scope, userId))[0]!;
  }
}

export const portalScope = (): Scope => ({ type: 'PORTAL', id: PORTAL_REFERENCE_ID });

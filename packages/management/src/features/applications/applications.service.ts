import { randomBytes, randomUUID } from 'node:crypto';
import type {
  ApplicationType,
  ApplicationUpdate,
  GrantType,
  NewApplication,
  OAuthApplicationType,
} from '@portico/model';
import {
  GRANT_TYPES_REQUIRED,
  GRANT_TYPE_RULES,
  PRIMARY_OWNER,
  REDIRECT_GRANT_TYPES,
  REDIRECT_URIS_REQUIRED,
  RESPONSE_TYPES_OF_GRANT,
  invalidField,
} from '@portico/model';
import type { ApplicationRow, ApplicationRowUpdate, Database, Executor, UserRow } from '@portico/storage';
import {
  findActiveApplicationByClientId,
  findApplicationById,
  findApplications,
  findGroupsByIds,
  findGroupsWithEventRule,
  findMembershipsOfMember,
  findUserMembershipsWithRole,
  findUsersByIds,
  insertApplication,
  updateApplication,
  upsertMembership,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import { insertDefaultNotificationSetting } from '../notification-settings/notification-defaults.js';
import type { PermissionService } from '../permissions/permissions.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { AfterCommit } from '../subscriptions/after-commit.js';
import type { SubscriptionService } from '../subscriptions/subscriptions.service.js';
import type { ApplicationRegistrar } from '../client-registration/application-registrar.js';
import { applicationNotFound } from '../subscriptions/subscriptions.errors.js';
import type { ApplicationSettingsJson } from './applications.mapper.js';
import { auditedApplication, settingsOf } from './applications.mapper.js';

export const REGISTRATION_DISABLED =
  'Client registration is disabled: only SIMPLE applications (with their own client id) can be created.';
export const TYPE_DISABLED = (type: string) => `Applications of type ${type} are disabled.`;
export const NO_OAUTH_FOR_SIMPLE = 'A SIMPLE application has no OAuth settings: use settings.app.';
export const NO_APP_FOR_OAUTH =
  'An OAuth application gets its client id from the platform: use settings.oauth.';
export const TYPE_FIXED = 'The type of an application can not be changed.';
export const CLIENT_ID_TAKEN = (clientId: string) =>
  `The client id [${clientId}] is already used by another application.`;
export const GRANT_NOT_ALLOWED = (grant: string, type: string) =>
  `The grant type ${grant} is not allowed for a ${type} application.`;
export const GRANT_MANDATORY = (grant: string, type: string) =>
  `The grant type ${grant} is required for a ${type} application.`;

export interface ApplicationServiceDeps {
  db: Kysely<Database>;
  audit: AuditService;
  permissions: PermissionService;
  settings: SettingsService;
  subscriptions: SubscriptionService;
  now: () => number;
  /** Registers OAuth clients at the client registration provider, when one is defined. */
  registrar?: ApplicationRegistrar;
}

/**
 * Applications (console-applications-and-settings.md sections 2.1, 3 to 5): the list of the user's
 * applications, creation (SIMPLE with its own client id; BROWSER, WEB and NATIVE with OAuth settings when
 * client registration is enabled, their client credentials generated here), general settings, and
 * deletion, which archives the application and closes its subscriptions.
 */
export class ApplicationService {
  private readonly db: Kysely<Database>;

  constructor(private readonly deps: ApplicationServiceDeps) {
    this.db = deps.db;
  }

  /** The active application, or 404. */
  async get(id: string, db: Executor = this.db): Promise<ApplicationRow> {
    const row = await findApplicationById(db, id);
    if (!row || row.status !== 'ACTIVE') throw applicationNotFound(id);
    return row;
  }

  /** The primary owner of each application. */
  async owners(applicationIds: string[], db: Executor = this.db): Promise<Map<string, UserRow>> {
    const memberships = await findUserMembershipsWithRole(db, 'APPLICATION', applicationIds, PRIMARY_OWNER);
    const users = new Map(
      (await findUsersByIds(db, [...new Set(memberships.map((m) => m.member_id))])).map((u) => [u.id, u]),
    );
    const out = new Map<string, UserRow>();
    for (const m of memberships) if (users.has(m.member_id)) out.set(m.reference_id, users.get(m.member_id)!);
    return out;
  }

  /**
   * `GET applications/?query=&group=`: the active applications of which the user is a member, directly
   * or through a group (administrators: all), by name.
   */
  async list(actor: UserRow, query: { query?: string | undefined; group?: string | undefined }) {
    const access = await this.deps.permissions.access(actor.id);
    const memberOf = access.isAdmin
      ? undefined
      : {
          userId: actor.id,
          groupIds: (await findMembershipsOfMember(this.db, 'USER', actor.id))
            .filter((m) => m.reference_type === 'GROUP')
            .map((m) => m.reference_id),
        };
    return findApplications(this.db, { memberOf, query: query.query, group: query.group, status: 'ACTIVE' });
  }

  /**
   * `applications?query=` for who subscribes applications to APIs (api-subscription-c on some API): the
   * active applications whose name holds the text (case-insensitive), members or not, as Gravitee 1.x
   * finds them for the subscription dialog. Empty for everyone else.
   */
  async findByName(actor: UserRow, text: string, group?: string): Promise<ApplicationRow[]> {
    const needle = text.trim().toLowerCase();
    if (needle === '') return [];
    const apis = await this.deps.permissions.apisWith(actor.id, 'SUBSCRIPTION', 'C');
    if (apis !== 'all' && apis.length === 0) return [];
    // The words narrow the rows in the database; the name must then hold the whole text.
    const rows = await findApplications(this.db, { query: needle, group, status: 'ACTIVE' });
    return rows.filter((row) => row.name.toLowerCase().includes(needle));
  }

  private async assertGroupsExist(db: Executor, groups: readonly string[]): Promise<void> {
    if (groups.length === 0) return;
    const known = new Set((await findGroupsByIds(db, groups)).map((g) => g.id));
    const unknown = groups.find((g) => !known.has(g));
    if (unknown !== undefined) throw invalidField('groups', `the group [${unknown}] does not exist`);
  }

  private async assertClientIdFree(db: Executor, clientId: string | null, excludeId?: string) {
    if (clientId === null) return;
    if (await findActiveApplicationByClientId(db, clientId, excludeId))
      throw invalidField('settings.app.client_id', CLIENT_ID_TAKEN(clientId));
  }

  /** The grant types of an OAuth application: the defaults when none are given, checked against its type. */
  private grantTypes(type: OAuthApplicationType, given: readonly GrantType[] | undefined): GrantType[] {
    const rules = GRANT_TYPE_RULES[type];
    const field = 'settings.oauth.grant_types';
    if (given === undefined) return [...rules.default];
    if (given.length === 0) throw invalidField(field, GRANT_TYPES_REQUIRED);
    const notAllowed = given.find((g) => !rules.allowed.includes(g));
    if (notAllowed) throw invalidField(field, GRANT_NOT_ALLOWED(notAllowed, type));
    const missing = rules.mandatory.find((g) => !given.includes(g));
    if (missing) throw invalidField(field, GRANT_MANDATORY(missing, type));
    return [...new Set(given)];
  }

  private oauthSettings(
    type: OAuthApplicationType,
    input: NonNullable<NewApplication['settings']['oauth']>,
    current?: NonNullable<ApplicationSettingsJson['oauth']>,
  ): NonNullable<ApplicationSettingsJson['oauth']> {
    if (input.application_type !== undefined && input.application_type !== type)
      throw invalidField('settings.oauth.application_type', TYPE_FIXED);
    const grantTypes = this.grantTypes(
      type,
      input.grant_types ?? (current?.grant_types as GrantType[] | undefined),
    );
    const redirectUris = input.redirect_uris ?? current?.redirect_uris ?? [];
    if (grantTypes.some((g) => REDIRECT_GRANT_TYPES.includes(g)) && redirectUris.length === 0)
      throw invalidField('settings.oauth.redirect_uris', REDIRECT_URIS_REQUIRED);
    return {
      client_id: current?.client_id ?? randomUUID(),
      client_secret: current?.client_secret ?? randomBytes(32).toString('base64url'),
      application_type: type,
      grant_types: grantTypes,
      redirect_uris: [...new Set(redirectUris)],
      response_types: [...new Set(grantTypes.flatMap((g) => RESPONSE_TYPES_OF_GRANT[g]))],
    };
  }

  /** The type of a new application, allowed by the settings. */
  private async typeOf(input: NewApplication): Promise<ApplicationType> {
    const type =
      input.type ?? input.settings.oauth?.application_type ?? (input.settings.oauth ? 'WEB' : 'SIMPLE');
    const settings = await this.deps.settings.values();
    if (type !== 'SIMPLE' && settings.get('application.registration.enabled') !== true)
      throw invalidField('type', REGISTRATION_DISABLED);
    if (settings.get(`application.types.${type.toLowerCase()}.enabled`) === false)
      throw invalidField('type', TYPE_DISABLED(type));
    return type;
  }

  /** `POST applications/`: the creator becomes its primary owner; groups that take every new application join. */
  async create(actor: UserRow, input: NewApplication): Promise<ApplicationRow> {
    const type = await this.typeOf(input);
    let settings: ApplicationSettingsJson;
    if (type === 'SIMPLE') {
      if (input.settings.oauth) throw invalidField('settings.oauth', NO_OAUTH_FOR_SIMPLE);
      settings = {
        app: { type: input.settings.app?.type ?? null, client_id: input.settings.app?.client_id ?? null },
      };
    } else {
      if (input.settings.app?.client_id) throw invalidField('settings.app', NO_APP_FOR_OAUTH);
      settings = { oauth: this.oauthSettings(type, input.settings.oauth ?? {}) };
    }
    // With a client registration provider, the OAuth client comes from it (before anything is stored).
    const registered = settings.oauth && (await this.deps.registrar?.register(input.name, settings.oauth));
    if (registered && settings.oauth)
      settings.oauth = {
        ...settings.oauth,
        client_id: registered.client_id,
        client_secret: registered.client_secret,
      };
    const clientId = settings.app?.client_id ?? settings.oauth?.client_id ?? null;
    const created = this.db.transaction().execute(async (trx) => {
      await this.assertGroupsExist(trx, input.groups);
      await this.assertClientIdFree(trx, clientId);
      const defaultGroups = (await findGroupsWithEventRule(trx, 'APPLICATION_CREATE')).map((g) => g.id);
      const id = newId();
      const now = this.deps.now();
      await insertApplication(trx, {
        id,
        name: input.name,
        description: input.description,
        type,
        status: 'ACTIVE',
        client_id: clientId,
        groups: JSON.stringify([...new Set([...input.groups, ...defaultGroups])]),
        settings: JSON.stringify(settings),
        picture: null,
        created_at: now,
        updated_at: now,
      });
      await upsertMembership(trx, {
        id: newId(),
        member_id: actor.id,
        member_type: 'USER',
        reference_type: 'APPLICATION',
        reference_id: id,
        role_scope: 'APPLICATION',
        role_name: PRIMARY_OWNER,
        created_at: now,
        updated_at: now,
      });
      await insertDefaultNotificationSetting(trx, { type: 'APPLICATION', id }, actor.id, now);
      const row = await this.get(id, trx);
      await this.deps.audit.record(trx, {
        referenceType: 'APPLICATION',
        referenceId: id,
        userId: actor.id,
        event: 'APPLICATION_CREATED',
        after: auditedApplication(row),
      });
      await this.deps.audit.record(trx, {
        referenceType: 'APPLICATION',
        referenceId: id,
        userId: actor.id,
        event: 'MEMBERSHIP_CREATED',
        properties: { USER: actor.id },
        after: { member: actor.id, role: PRIMARY_OWNER },
      });
      await registered?.save(trx, id);
      return row;
    });
    return created.catch(async (error: unknown) => {
      await registered?.abandon();
      throw error;
    });
  }

  /**
   * `PUT applications/{id}`: name, description, groups and settings; the type stays. A new client id
   * must be free, and the live subscriptions follow it.
   */
  async update(actor: UserRow, id: string, changes: ApplicationUpdate): Promise<ApplicationRow> {
    const after = new AfterCommit();
    const updated = await this.db.transaction().execute(async (trx) => {
      const row = await this.get(id, trx);
      const current = settingsOf(row);
      const columns: ApplicationRowUpdate = {};
      if (changes.name !== undefined) columns.name = changes.name;
      if (changes.description !== undefined) columns.description = changes.description;
      if (changes.groups !== undefined) {
        await this.assertGroupsExist(trx, changes.groups);
        columns.groups = JSON.stringify([...new Set(changes.groups)]);
      }
      if (changes.settings !== undefined) {
        let settings: ApplicationSettingsJson;
        if (row.type === 'SIMPLE') {
          if (changes.settings.oauth) throw invalidField('settings.oauth', NO_OAUTH_FOR_SIMPLE);
          const app = changes.settings.app;
          settings = {
            app: {
              type: app?.type === undefined ? (current.app?.type ?? null) : app.type,
              client_id: app?.client_id === undefined ? (current.app?.client_id ?? null) : app.client_id,
            },
          };
        } else {
          if (changes.settings.app?.client_id) throw invalidField('settings.app', NO_APP_FOR_OAUTH);
          settings = {
            oauth: this.oauthSettings(
              row.type as OAuthApplicationType,
              changes.settings.oauth ?? {},
              current.oauth,
            ),
          };
        }
        const clientId = settings.app?.client_id ?? settings.oauth?.client_id ?? null;
        if (clientId !== row.client_id) await this.assertClientIdFree(trx, clientId, id);
        columns.settings = JSON.stringify(settings);
        columns.client_id = clientId;
      }
      await updateApplication(trx, id, {
        ...columns,
        updated_at: Math.max(this.deps.now(), row.updated_at + 1),
      });
      const saved = await this.get(id, trx);
      if (saved.client_id !== row.client_id) await this.deps.subscriptions.followClientId(trx, saved, after);
      await this.deps.audit.record(trx, {
        referenceType: 'APPLICATION',
        referenceId: id,
        userId: actor.id,
        event: 'APPLICATION_UPDATED',
        before: auditedApplication(row),
        after: auditedApplication(saved),
      });
      return saved;
    });
    await this.deps.subscriptions.flush(after);
    return updated;
  }

  /**
   * `DELETE applications/{id}`: the application is archived (its client id becomes free) and its
   * pending, accepted and paused subscriptions are closed, their keys revoked.
   */
  async archive(actor: UserRow, id: string): Promise<void> {
    const after = new AfterCommit();
    await this.db.transaction().execute(async (trx) => {
      const row = await this.get(id, trx);
      await this.deps.subscriptions.closeAllOfApplication(trx, actor, id, after);
      await updateApplication(trx, id, {
        status: 'ARCHIVED',
        updated_at: Math.max(this.deps.now(), row.updated_at + 1),
      });
      await this.deps.audit.record(trx, {
        referenceType: 'APPLICATION',
        referenceId: id,
        userId: actor.id,
        event: 'APPLICATION_ARCHIVED',
        before: auditedApplication(row),
        after: { ...auditedApplication(row), status: 'ARCHIVED' },
      });
    });
    await this.deps.subscriptions.flush(after);
    await this.deps.registrar?.unregister(id);
  }
}

import type {
  IdentityProviderConfiguration,
  IdentityProviderType,
  IdentityProviderUpdate,
  NewIdentityProvider,
  UserProfileMapping,
} from '@portico/model';
import { identityProviderIssue, invalidField, notFound } from '@portico/model';
import type { Database, IdentityProviderRow } from '@portico/storage';
import {
  deleteIdentityProvider,
  findAllIdentityProviders,
  findIdentityProviderById,
  insertIdentityProvider,
  updateIdentityProvider,
} from '@portico/storage';
import type { Kysely } from 'kysely';
import { newId } from '../../http/ids.js';
import type { AuditService } from '../audit/audit.service.js';
import { conditionIssue } from '../social-login/mappings.js';
import {
  auditedIdentity,
  configurationOf,
  groupMappingsOf,
  profileMappingOf,
  roleMappingsOf,
  typeOf,
} from './identities.mapper.js';

export const IDENTITY_PROVIDER_EXISTS = (name: string) =>
  `An identity provider named [${name}] already exists.`;

/** The id made from a name, as Gravitee did (lower case, other characters become `-`). */
function idFromName(name: string): string {
  const id = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return id || newId();
}

/** Empty strings of a configuration are absent values. */
function cleanConfiguration(c: IdentityProviderConfiguration): IdentityProviderConfiguration {
  return Object.fromEntries(
    Object.entries(c).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as IdentityProviderConfiguration;
}

/**
 * Identity providers (console-applications-and-settings.md 2.3, 3, 5, 7): list, read, create, update and
 * delete, with the rules of section 5 by type and the mapping conditions checked to be valid expressions.
 * Creation defaults: enabled, email required, no scopes.
 */
export class IdentityProviderService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: () => number,
  ) {}

  list(): Promise<IdentityProviderRow[]> {
    return findAllIdentityProviders(this.db);
  }

  async get(id: string): Promise<IdentityProviderRow> {
    const row = await findIdentityProviderById(this.db, id);
    if (!row) throw notFound('Identity provider', id);
    return row;
  }

  private static check(
    type: IdentityProviderType,
    configuration: IdentityProviderConfiguration,
    input: Pick<NewIdentityProvider, 'groupMappings' | 'roleMappings'>,
    profile: UserProfileMapping,
  ): void {
    const issue = identityProviderIssue(type, configuration, profile);
    if (issue) throw invalidField(issue.field, issue.message);
    for (const [kind, mappings] of [
      ['groupMappings', input.groupMappings ?? []],
      ['roleMappings', input.roleMappings ?? []],
    ] as const) {
      mappings.forEach((m, i) => {
        const problem = conditionIssue(m.condition);
        if (problem) throw invalidField(`${kind}.${i}.condition`, problem);
      });
    }
  }

  async create(actorId: string, input: NewIdentityProvider): Promise<IdentityProviderRow> {
    const configuration = cleanConfiguration({ scopes: [], ...input.configuration });
    const profile = input.userProfileMapping ?? {};
    IdentityProviderService.check(input.type, configuration, input, profile);
    const id = idFromName(input.name);
    return this.db.transaction().execute(async (trx) => {
      if (await findIdentityProviderById(trx, id))
        throw invalidField('name', IDENTITY_PROVIDER_EXISTS(input.name));
      const now = this.now();
      await insertIdentityProvider(trx, {
        id,
        type: input.type,
        name: input.name,
        description: input.description ?? null,
        enabled: input.enabled === false ? 0 : 1,
        email_required: input.emailRequired === false ? 0 : 1,
        configuration: JSON.stringify(configuration),
        group_mappings: JSON.stringify(input.groupMappings ?? []),
        role_mappings: JSON.stringify(input.roleMappings ?? []),
        user_profile_mapping: JSON.stringify(profile),
        created_at: now,
        updated_at: now,
      });
      const row = (await findIdentityProviderById(trx, id))!;
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: actorId,
        event: 'IDENTITY_PROVIDER_CREATED',
        properties: { IDENTITY_PROVIDER: id },
        after: auditedIdentity(row),
      });
      return row;
    });
  }

  /** PUT: the fields given replace the stored ones; an absent client secret is kept; the type stays. */
  async update(actorId: string, id: string, input: IdentityProviderUpdate): Promise<IdentityProviderRow> {
    return this.db.transaction().execute(async (trx) => {
      const row = await findIdentityProviderById(trx, id);
      if (!row) throw notFound('Identity provider', id);
      const type = typeOf(row);
      if (input.type !== undefined && input.type !== type)
        throw invalidField('type', 'The type of an identity provider can not be changed.');
      const stored = configurationOf(row);
      const configuration = input.configuration
        ? cleanConfiguration({
            ...input.configuration,
            clientSecret: input.configuration.clientSecret || stored.clientSecret,
          })
        : stored;
      const groupMappings = input.groupMappings ?? groupMappingsOf(row);
      const roleMappings = input.roleMappings ?? roleMappingsOf(row);
      const profile = input.userProfileMapping ?? profileMappingOf(row);
      IdentityProviderService.check(type, configuration, { groupMappings, roleMappings }, profile);
      await updateIdentityProvider(trx, id, {
        name: input.name,
        description: input.description === undefined ? row.description : input.description,
        enabled: input.enabled === undefined ? row.enabled : input.enabled ? 1 : 0,
        email_required: input.emailRequired === undefined ? row.email_required : input.emailRequired ? 1 : 0,
        configuration: JSON.stringify(configuration),
        group_mappings: JSON.stringify(groupMappings),
        role_mappings: JSON.stringify(roleMappings),
        user_profile_mapping: JSON.stringify(profile),
        updated_at: Math.max(this.now(), row.updated_at + 1),
      });
      const saved = (await findIdentityProviderById(trx, id))!;
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: actorId,
        event: 'IDENTITY_PROVIDER_UPDATED',
        properties: { IDENTITY_PROVIDER: id },
        before: auditedIdentity(row),
        after: auditedIdentity(saved),
      });
      return saved;
    });
  }

  async delete(actorId: string, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await findIdentityProviderById(trx, id);
      if (!row) throw notFound('Identity provider', id);
      await deleteIdentityProvider(trx, id);
      await this.audit.record(trx, {
        referenceType: 'ENVIRONMENT',
        referenceId: 'DEFAULT',
        userId: actorId,
        event: 'IDENTITY_PROVIDER_DELETED',
        properties: { IDENTITY_PROVIDER: id },
        before: auditedIdentity(row),
      });
    });
  }
}

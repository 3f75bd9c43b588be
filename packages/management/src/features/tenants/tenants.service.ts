import type { Kysely } from 'kysely';
import { invalidField, notFound } from '@portico/model';
import type { Database, Executor, TenantRow, UserRow } from '@portico/storage';
import { deleteTenant, findAllTenants, findTenantsByIds, insertTenant, updateTenant } from '@portico/storage';
import type { AuditService } from '../audit/audit.service.js';
import { idFromName } from '../../http/ids.js';

export interface TenantInput {
  id?: string | undefined;
  name: string;
  description?: string | null | undefined;
}

/** Tenants (console-applications-and-settings.md 2.3, 5): created and updated in batches from the table. */
export class TenantsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
  ) {}

  list(): Promise<TenantRow[]> {
    return findAllTenants(this.db);
  }

  /** `POST configuration/tenants`: names non-empty and unique; ids from the names. */
  async create(actor: UserRow, inputs: TenantInput[]): Promise<TenantRow[]> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await findAllTenants(trx);
      const names = new Set(existing.map((t) => t.name.toLowerCase()));
      const ids = new Set(existing.map((t) => t.id));
      const created: TenantRow[] = [];
      for (const [index, input] of inputs.entries()) {
        if (names.has(input.name.toLowerCase()))
          throw invalidField(`${index}.name`, `a tenant named [${input.name}] already exists`);
        let id = idFromName(input.name);
        while (ids.has(id)) id = `${id}-${ids.size}`;
        const row = { id, name: input.name, description: input.description ?? null };
        await insertTenant(trx, row);
        names.add(input.name.toLowerCase());
        ids.add(id);
        created.push(row);
        await this.record(trx, actor, 'TENANT_CREATED', id, undefined, row);
      }
      return created;
    });
  }

  /** `PUT configuration/tenants`: every tenant given must exist. */
  async update(actor: UserRow, inputs: TenantInput[]): Promise<TenantRow[]> {
    return this.db.transaction().execute(async (trx) => {
      const existing = new Map((await findAllTenants(trx)).map((t) => [t.id, t]));
      const updated: TenantRow[] = [];
      for (const [index, input] of inputs.entries()) {
        const before = input.id ? existing.get(input.id) : undefined;
        if (!before) throw invalidField(`${index}.id`, `the tenant [${input.id ?? ''}] does not exist`);
        const clash = [...existing.values()].find(
          (t) => t.id !== before.id && t.name.toLowerCase() === input.name.toLowerCase(),
        );
        if (clash) throw invalidField(`${index}.name`, `a tenant named [${input.name}] already exists`);
        const row = { id: before.id, name: input.name, description: input.description ?? null };
        await updateTenant(trx, before.id, { name: row.name, description: row.description });
        existing.set(row.id, row);
        updated.push(row);
        await this.record(trx, actor, 'TENANT_UPDATED', row.id, before, row);
      }
      return updated;
    });
  }

  async delete(actor: UserRow, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const [before] = await findTenantsByIds(trx, [id]);
      if (!before) throw notFound('Tenant', id);
      await deleteTenant(trx, id);
      await this.record(trx, actor, 'TENANT_DELETED', id, before, undefined);
    });
  }

  private record(db: Executor, actor: UserRow, event: string, id: string, before: unknown, after: unknown) {
    return this.audit.record(db, {
      referenceType: 'ENVIRONMENT',
      referenceId: 'DEFAULT',
      userId: actor.id,
      event,
      properties: { TENANT: id },
      before,
      after,
    });
  }
}

/** 400 naming `field` when a tenant id does not exist. */
export async function assertTenantsExist(db: Executor, ids: readonly string[], field: string): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const known = new Set((await findTenantsByIds(db, wanted)).map((t) => t.id));
  const unknown = wanted.find((t) => !known.has(t));
  if (unknown !== undefined) throw invalidField(field, `the tenant [${unknown}] does not exist`);
}

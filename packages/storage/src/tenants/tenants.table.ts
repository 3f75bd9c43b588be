import type { Insertable, Selectable } from 'kysely';

/** A tenant: endpoints of an API may be reserved to gateways of some tenants. */
export interface TenantTable {
  id: string;
  name: string;
  description: string | null;
}
export type TenantRow = Selectable<TenantTable>;
export type NewTenantRow = Insertable<TenantTable>;

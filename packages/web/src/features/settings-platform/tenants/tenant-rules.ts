import type { Tenant } from '../api/catalogue';

/** Tenant limits (console-applications-and-settings.md 3, 5, 9). */
export const TENANT_NAME_MAX = 30;
export const TENANT_DESCRIPTION_MAX = 160;

/** A row of the tenants table: a stored tenant (with id) or a new one (key only). */
export interface TenantRow {
  key: string;
  id: string | null;
  name: string;
  description: string;
}

export type TenantSort = { column: 'id' | 'name' | 'description'; descending: boolean };

export const rowsOf = (tenants: Tenant[]): TenantRow[] =>
  tenants.map((t) => ({ key: t.id, id: t.id, name: t.name, description: t.description ?? '' }));

/** The translation key of what is wrong with a row's field, if anything. */
export function tenantError(
  rows: TenantRow[],
  row: TenantRow,
  field: 'name' | 'description',
):
  | 'settingsTenants.errors.nameRequired'
  | 'settingsTenants.errors.nameTooLong'
  | 'settingsTenants.errors.nameTaken'
  | 'settingsTenants.errors.descriptionTooLong'
  | undefined {
  if (field === 'description')
    return row.description.length > TENANT_DESCRIPTION_MAX
      ? 'settingsTenants.errors.descriptionTooLong'
      : undefined;
  const name = row.name.trim();
  if (!name) return 'settingsTenants.errors.nameRequired';
  if (name.length > TENANT_NAME_MAX) return 'settingsTenants.errors.nameTooLong';
  const same = rows.some((r) => r.key !== row.key && r.name.trim().toLowerCase() === name.toLowerCase());
  return same ? 'settingsTenants.errors.nameTaken' : undefined;
}

/** What Save sends: new rows, changed rows and the stored tenants removed from the table. */
export function tenantChanges(stored: Tenant[], rows: TenantRow[]) {
  const byId = new Map(stored.map((t) => [t.id, t]));
  const kept = new Set(rows.flatMap((r) => (r.id ? [r.id] : [])));
  return {
    created: rows
      .filter((r) => !r.id)
      .map((r) => ({ name: r.name.trim(), description: r.description.trim() || null })),
    updated: rows
      .filter((r) => {
        const before = r.id ? byId.get(r.id) : undefined;
        return (
          before && (before.name !== r.name.trim() || (before.description ?? '') !== r.description.trim())
        );
      })
      .map((r) => ({ id: r.id!, name: r.name.trim(), description: r.description.trim() || null })),
    deleted: stored.filter((t) => !kept.has(t.id)).map((t) => t.id),
  };
}

export function sortRows(rows: TenantRow[], sort: TenantSort): TenantRow[] {
  const value = (r: TenantRow) => (sort.column === 'id' ? (r.id ?? '') : r[sort.column]).toLowerCase();
  const sorted = [...rows].sort((a, b) => value(a).localeCompare(value(b)));
  return sort.descending ? sorted.reverse() : sorted;
}

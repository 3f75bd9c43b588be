import type { NewApiRow } from './apis.table.js';

/** Shared rows of the apis repository tests. */

export const NOW = 1_790_000_000_000;

/** An API row with every required column, changed as given. */
export function api(id: string, changes: Partial<NewApiRow> = {}): NewApiRow {
  return {
    id,
    name: `API ${id}`,
    version: '1.0',
    context_path: `/${id}`,
    definition: '{}',
    state: 'STOPPED',
    visibility: 'PRIVATE',
    lifecycle_state: 'CREATED',
    labels: '[]',
    views: '[]',
    groups: '[]',
    created_at: NOW,
    updated_at: NOW,
    ...changes,
  };
}

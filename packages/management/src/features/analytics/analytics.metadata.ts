import type { Executor, ReferenceKind } from '@portico/storage';
import { findReferenceNames } from '@portico/storage';

/** The key of the requests that have no API, application or plan (keyless calls, unknown paths). */
export const UNKNOWN_KEY = '?';

export type Metadata = Record<string, Record<string, string>>;

const KIND_OF_FIELD: Record<string, ReferenceKind> = {
  api: 'api',
  application: 'application',
  plan: 'plan',
  tenant: 'tenant',
  gateway: 'gateway',
};

/** Fields whose missing value is reported as the `?` key (Gravitee's unknown service) rather than left out. */
export const UNKNOWN_WHEN_MISSING = new Set(['api', 'application', 'plan']);

const UNKNOWN_NAMES: Partial<Record<ReferenceKind, string>> = {
  api: 'Unknown API (not found)',
  application: 'Unknown application (keyless)',
  plan: 'Unknown plan (keyless)',
};

const DELETED_NAMES: Record<ReferenceKind, string> = {
  api: 'Deleted API',
  application: 'Deleted application',
  plan: 'Deleted plan',
  tenant: 'Deleted tenant',
  gateway: 'Deleted gateway',
};

/**
 * The metadata of the keys of a field, as Gravitee 1.x gives it: the name (and version) of an API,
 * application, plan or tenant, `unknown` for `?`, `deleted` for ids that no longer exist; the key
 * itself as the name of any other field.
 */
export async function metadataOf(db: Executor, field: string, keys: readonly string[]): Promise<Metadata> {
  const kind = KIND_OF_FIELD[field];
  const metadata: Metadata = {};
  if (!kind) {
    for (const key of keys) metadata[key] = { name: key };
    return metadata;
  }
  const names = await findReferenceNames(
    db,
    kind,
    keys.filter((k) => k !== UNKNOWN_KEY),
  );
  for (const key of keys) {
    const found = names.get(key);
    const unknownName = UNKNOWN_NAMES[kind];
    if (key === UNKNOWN_KEY && unknownName) {
      metadata[key] = { name: unknownName, unknown: 'true' };
    } else if (!found) {
      metadata[key] =
        kind === 'gateway' ? { deleted: 'true' } : { name: DELETED_NAMES[kind], deleted: 'true' };
    } else if (kind === 'gateway') {
      metadata[key] = {
        hostname: found.name,
        ip: found.ip ?? '',
        ...(found.tenant ? { tenant: found.tenant } : {}),
      };
    } else {
      metadata[key] = {
        name: found.name,
        ...(found.version !== undefined ? { version: found.version } : {}),
        ...(found.archived ? { deleted: 'true' } : {}),
      };
    }
  }
  return metadata;
}

import type { Database } from '@portico/storage';
import { findApiByIdForUpdate, updateApi } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { AuditService } from '../audit/audit.service.js';
import { definitionOf } from '../apis/apis.definition.js';
import { auditedApi } from '../apis/apis.mapper.js';
import type { ApiLifecycleService } from '../apis/api-lifecycle.service.js';
import { mergeDynamicProperties } from './dynamic-properties.merge.js';

/** The label of the deployments the updater makes (Gravitee's user of those deployments). */
export const DYNAMIC_PROPERTY_UPDATER = 'dynamic-property-updater';

export interface DynamicPropertiesUpdaterDeps {
  db: Kysely<Database>;
  lifecycle: Pick<ApiLifecycleService, 'isSynchronized' | 'deploy'>;
  audit: AuditService;
  now(): number;
}

/**
 * Writes a provider's properties into an API, as Gravitee 1.x's dynamic-property updater: only on a
 * change; the API's properties marked dynamic are replaced (the publisher's own stay), with an
 * API_UPDATED audit entry; and when the API was in sync with its deployment before, it is deployed
 * again so the gateways serve the new properties. An API with undeployed manual changes is only
 * updated: deploying it would push the publisher's unfinished work.
 */
export class DynamicPropertiesUpdater {
  constructor(private readonly deps: DynamicPropertiesUpdaterDeps) {}

  /** Applies the properties; gives the keys left out (values too long). */
  async apply(apiId: string, provided: Record<string, string>): Promise<string[]> {
    const wasSynchronized = await this.deps.lifecycle.isSynchronized(apiId);
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      const row = await findApiByIdForUpdate(trx, apiId);
      if (!row) return undefined;
      const definition = definitionOf(row);
      const merged = mergeDynamicProperties(definition.properties, provided);
      if (!merged) return { changed: false, skipped: [] };
      const changed = { ...definition, properties: merged.properties };
      await updateApi(trx, apiId, {
        definition: JSON.stringify(changed),
        updated_at: Math.max(this.deps.now(), row.updated_at + 1),
      });
      const after = await findApiByIdForUpdate(trx, apiId);
      await this.deps.audit.record(trx, {
        referenceType: 'API',
        referenceId: apiId,
        event: 'API_UPDATED',
        properties: { DYNAMIC_PROPERTIES: 'true' },
        before: auditedApi(row),
        after: after ? auditedApi(after) : {},
      });
      return { changed: true, skipped: merged.skipped };
    });
    if (!outcome) return [];
    if (outcome.changed && wasSynchronized)
      await this.deps.lifecycle.deploy(undefined, apiId, DYNAMIC_PROPERTY_UPDATER);
    return outcome.skipped;
  }
}

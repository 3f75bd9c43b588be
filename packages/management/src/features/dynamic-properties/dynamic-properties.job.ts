import { randomUUID } from 'node:crypto';
import type { ApiDefinition } from '@portico/model';
import { DeployedApi as DeployedApiSchema } from '@portico/model';
import type { OutboundPolicy } from '@portico/outbound';
import type { Database } from '@portico/storage';
import { acquireLease, findApiIdsWithDynamicProperties, findLatestEventOfApi } from '@portico/storage';
import type { Kysely } from 'kysely';
import { fetchProviderProperties, providerFailure } from '../http-provider/http-provider.js';
import type { ScheduledJob } from '../scheduler/scheduler.js';
import type { DynamicPropertiesUpdater } from './dynamic-properties.updater.js';

type DynamicPropertyService = NonNullable<NonNullable<ApiDefinition['services']>['dynamic-property']>;

const UNIT_MS = { SECONDS: 1000, MINUTES: 60_000, HOURS: 3_600_000 } as const;

export interface DynamicPropertiesPollDeps {
  db: Kysely<Database>;
  updater: DynamicPropertiesUpdater;
  policy: OutboundPolicy;
  now(): number;
  log: { warn(details: object, message: string): void };
}

/** The lease of one API's poll: taken for one trigger period, so it runs once per period. */
export const pollLeaseName = (apiId: string) => `dynamic-property:${apiId}`;

/** The enabled dynamic-property service of the API's last deployment (enabling needs a deployment). */
async function deployedService(db: Kysely<Database>, apiId: string) {
  const event = await findLatestEventOfApi(db, apiId, 'PUBLISH_API');
  if (!event?.payload) return undefined;
  const deployed = DeployedApiSchema.safeParse(JSON.parse(event.payload));
  if (!deployed.success) return undefined;
  const service: DynamicPropertyService | undefined = deployed.data.definition.services?.['dynamic-property'];
  return service?.enabled ? service : undefined;
}

/**
 * Polls the HTTP provider of every started API whose deployed definition enables the
 * dynamic-property service, on its trigger. Each API's poll takes a lease for one trigger period
 * first, so it runs once per period whatever the number of management processes. A failing fetch
 * or transformation is logged and the API keeps its properties.
 */
export function dynamicPropertiesPollJob(deps: DynamicPropertiesPollDeps): ScheduledJob {
  return {
    name: 'dynamic-properties',
    async run() {
      const ids = await findApiIdsWithDynamicProperties(deps.db);
      for (const apiId of ids) {
        const service = await deployedService(deps.db, apiId);
        if (!service) continue;
        const periodMs = service.trigger.rate * UNIT_MS[service.trigger.unit];
        const now = deps.now();
        if (!(await acquireLease(deps.db, pollLeaseName(apiId), randomUUID(), now, periodMs))) continue;
        try {
          const provided = await fetchProviderProperties(service, deps.policy);
          const skipped = await deps.updater.apply(apiId, provided);
          if (skipped.length > 0)
            deps.log.warn(
              { api: apiId, keys: skipped },
              'dynamic properties: values longer than 160 characters were left out',
            );
        } catch (error) {
          deps.log.warn(
            { api: apiId, ...providerFailure(error) },
            'dynamic properties poll failed; the API keeps its properties',
          );
        }
      }
    },
  };
}

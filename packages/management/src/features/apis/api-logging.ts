import type { ApiDefinition } from '@portico/model';
import { boundLoggingCondition } from '@portico/model';
import type { Executor } from '@portico/storage';
import type { SettingsService } from '../settings/settings.service.js';

/**
 * The platform's maximum logging duration (`logging.maxDurationMillis`, 0 = none) applied to an API
 * being saved, as Gravitee 1.x did: when its logging is on, the condition ends at most that long from
 * now (`#request.timestamp <= end`, an earlier end kept); gateways stop logging at that time.
 */
export async function withBoundedLogging(
  db: Executor,
  settings: SettingsService,
  definition: ApiDefinition,
  now: number,
): Promise<ApiDefinition> {
  const logging = definition.proxy.logging;
  if (!logging || logging.mode === 'NONE') return definition;
  const maxDuration = (await settings.values(db)).get('logging.maxDurationMillis');
  if (typeof maxDuration !== 'number' || maxDuration <= 0) return definition;
  const condition = boundLoggingCondition(logging.condition, now + maxDuration);
  return { ...definition, proxy: { ...definition.proxy, logging: { ...logging, condition } } };
}

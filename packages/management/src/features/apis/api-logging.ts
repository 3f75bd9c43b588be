import type { ApiDefinition, Logging } from '@portico/model';
import { boundLoggingCondition, invalidField } from '@portico/model';
import { conditionError } from '@portico/gateway';
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

/** Longest logging condition accepted (the console's builder writes a few hundred characters). */
export const MAX_LOGGING_CONDITION = 4000;

/**
 * A logging condition the gateways can evaluate: an expression that parses (a gateway would otherwise
 * refuse the whole API), at most MAX_LOGGING_CONDITION characters; 400 naming the field.
 */
export function validateLogging(logging: Logging | undefined): void {
  const condition = logging?.condition?.trim();
  if (!condition) return;
  if (condition.length > MAX_LOGGING_CONDITION) {
    throw invalidField(
      'proxy.logging.condition',
      `The logging condition has to be at most ${MAX_LOGGING_CONDITION} characters long.`,
    );
  }
  const problem = conditionError(condition);
  if (problem)
    throw invalidField('proxy.logging.condition', `The logging condition is not valid: ${problem}`);
}

export type LoggingAuditEvent = 'API_LOGGING_ENABLED' | 'API_LOGGING_DISABLED' | 'API_LOGGING_UPDATED';

const loggingOn = (logging: Logging | undefined) => !!logging && logging.mode !== 'NONE';

/**
 * The audit event of a change of an API's logging, as Gravitee 1.x recorded it: none when the mode and
 * the condition are the same; ENABLED from off (none or NONE) to on, DISABLED from on to off, else UPDATED.
 */
export function loggingAuditEvent(
  before: Logging | undefined,
  after: Logging | undefined,
): LoggingAuditEvent | undefined {
  const same =
    (before ?? undefined) === (after ?? undefined) ||
    (!!before &&
      !!after &&
      before.mode === after.mode &&
      (before.condition ?? '') === (after.condition ?? ''));
  if (same) return undefined;
  if (!loggingOn(before) && loggingOn(after)) return 'API_LOGGING_ENABLED';
  if (loggingOn(before) && !loggingOn(after)) return 'API_LOGGING_DISABLED';
  return 'API_LOGGING_UPDATED';
}

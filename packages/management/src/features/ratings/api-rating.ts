import type { Executor } from '@portico/storage';
import { ratingTotalsOfApis } from '@portico/storage';
import type { SettingsService } from '../settings/settings.service.js';
import { averageToOneDecimal } from './ratings.mapper.js';

/**
 * The `rate` (average to one decimal) and `numberOfRatings` fields of an API as the portal shows it
 * (portal-and-platform.md section 3); nothing while rating is disabled, neither without ratings.
 */
export async function apiRatingFields(
  db: Executor,
  settings: SettingsService,
  apiId: string,
): Promise<{ rate?: number; numberOfRatings?: number }> {
  if (!(await settings.value<boolean>('portal.rating.enabled'))) return {};
  const totals = (await ratingTotalsOfApis(db, [apiId])).get(apiId);
  if (!totals) return {};
  return { rate: averageToOneDecimal(totals.sum, totals.count)!, numberOfRatings: totals.count };
}

import type { Executor } from '@portico/storage';
import { ratingTotalsOfApis } from '@portico/storage';
import type { SettingsService } from '../settings/settings.service.js';
import { averageToOneDecimal } from '../ratings/ratings.mapper.js';

/**
 * A short API list (the portal's top APIs, shown as cards with their stars) with each API's `rate`
 * (average to one decimal, absent without ratings) and `numberOfRatings`; unchanged while rating is
 * disabled. Long lists are served as the database writes them, without this.
 */
export async function withRatingFields(
  db: Executor,
  settings: SettingsService,
  json: string,
): Promise<string> {
  if (!(await settings.value<boolean>('portal.rating.enabled'))) return json;
  const apis = JSON.parse(json) as { id: string }[];
  const totals = await ratingTotalsOfApis(
    db,
    apis.map((a) => a.id),
  );
  return JSON.stringify(
    apis.map((api) => {
      const t = totals.get(api.id);
      return t
        ? { ...api, rate: averageToOneDecimal(t.sum, t.count), numberOfRatings: t.count }
        : { ...api, numberOfRatings: 0 };
    }),
  );
}

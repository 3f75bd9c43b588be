import type { Database } from '@portico/storage';
import { claimDictionaryPoll, findDictionariesDueForPoll } from '@portico/storage';
import type { OutboundPolicy } from '@portico/outbound';
import type { Kysely } from 'kysely';
import type { ScheduledJob } from '../scheduler/scheduler.js';
import { providerOf, triggerMs, triggerOf } from './dictionaries.mapper.js';
import type { DictionaryService } from './dictionaries.service.js';
import { fetchProviderProperties, providerFailure } from '../http-provider/http-provider.js';

export interface DictionaryPollDeps {
  db: Kysely<Database>;
  dictionaries: DictionaryService;
  policy: OutboundPolicy;
  now(): number;
  log: { warn(details: object, message: string): void };
}

/**
 * Polls the provider of every started dynamic dictionary that is due, on its trigger. Each poll is
 * claimed in the database first (the next poll time moves only once), so it runs once whatever the
 * number of management processes. A failing poll is logged and the dictionary keeps its properties.
 */
export function dictionaryPollJob(deps: DictionaryPollDeps): ScheduledJob {
  return {
    name: 'dictionaries',
    async run() {
      const now = deps.now();
      const due = await findDictionariesDueForPoll(deps.db, now);
      await Promise.all(
        due.map(async (row) => {
          const trigger = triggerOf(row);
          const provider = providerOf(row);
          if (!trigger || !provider) return;
          if (!(await claimDictionaryPoll(deps.db, row.id, row.next_poll_at, now + triggerMs(trigger))))
            return;
          try {
            const properties = await fetchProviderProperties(provider, deps.policy);
            await deps.dictionaries.applyProviderProperties(row.id, properties);
          } catch (error) {
            deps.log.warn(
              { dictionary: row.id, ...providerFailure(error) },
              'dictionary provider poll failed; the dictionary keeps its properties',
            );
          }
        }),
      );
    },
  };
}

import type {
  DictionaryJson,
  DictionaryListItemJson,
  DictionaryProvider,
  DictionaryState,
  DictionaryTrigger,
  DictionaryType,
} from '@portico/model';
import type { DictionaryRow } from '@portico/storage';

/** The trigger's period in milliseconds. */
export function triggerMs(trigger: DictionaryTrigger): number {
  const unit = { SECONDS: 1000, MINUTES: 60_000, HOURS: 3_600_000 }[trigger.unit];
  return trigger.rate * unit;
}

export const propertiesOf = (row: DictionaryRow): Record<string, string> =>
  JSON.parse(row.properties) as Record<string, string>;

export const providerOf = (row: DictionaryRow): DictionaryProvider | null =>
  row.provider ? (JSON.parse(row.provider) as DictionaryProvider) : null;

export function triggerOf(row: DictionaryRow): DictionaryTrigger | null {
  if (row.trigger_rate === null || row.trigger_unit === null) return null;
  return { rate: row.trigger_rate, unit: row.trigger_unit as DictionaryTrigger['unit'] };
}

/**
 * A dictionary as the API answers it; `withProvider` false leaves the provider and trigger out (a
 * reader without create, update or delete rights, as Gravitee 1.x did: the URL may hold a secret).
 */
export function toDictionaryJson(row: DictionaryRow, withProvider = true): DictionaryJson {
  const json: DictionaryJson = {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type as DictionaryType,
    state: row.state as DictionaryState,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deployed_at: row.deployed_at,
    properties: propertiesOf(row),
  };
  if (row.type === 'DYNAMIC' && withProvider) {
    json.provider = providerOf(row);
    json.trigger = triggerOf(row);
  }
  return json;
}

export function toDictionaryListItem(row: DictionaryRow): DictionaryListItemJson {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type as DictionaryType,
    state: row.state as DictionaryState,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deployed_at: row.deployed_at,
    properties: Object.keys(propertiesOf(row)).length,
    provider: providerOf(row)?.type ?? null,
  };
}

import type { Insertable, Selectable, Updateable } from 'kysely';

/** A dictionary: properties that gateways' expressions read (`dictionaries['id']['key']`) once deployed. */
export interface DictionaryTable {
  /** Made from the name at creation (`My dict` -> `my-dict`). */
  id: string;
  name: string;
  description: string | null;
  /** MANUAL or DYNAMIC; fixed at creation. */
  type: string;
  /** STARTED or STOPPED: whether a dynamic dictionary's provider is polled. */
  state: string;
  /** JSON object key -> value: what the console edits (manual) or the provider gave last (dynamic). */
  properties: string;
  /** JSON `{type, configuration: {url, specification}}` of a dynamic dictionary. */
  provider: string | null;
  trigger_rate: number | null;
  /** SECONDS, MINUTES or HOURS. */
  trigger_unit: string | null;
  created_at: number;
  updated_at: number;
  deployed_at: number | null;
  /** JSON object key -> value that the gateways serve; null when not deployed. */
  deployed_properties: string | null;
  /** Sequence of the latest PUBLISH_DICTIONARY or UNPUBLISH_DICTIONARY event: gateways reload on change. */
  deploy_seq: number | null;
  /** When the scheduler polls a started dynamic dictionary's provider next (epoch ms). */
  next_poll_at: number | null;
}
export type DictionaryRow = Selectable<DictionaryTable>;
export type NewDictionaryRow = Insertable<DictionaryTable>;
export type DictionaryRowUpdate = Updateable<DictionaryTable>;

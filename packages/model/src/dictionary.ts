import { z } from 'zod';

/**
 * Dictionaries (console-applications-and-settings.md 2.3, 3, 5, 9): key/value properties that the
 * gateways' expressions read once deployed. Shared by the management API and the console's form.
 */
export const DICTIONARY_TYPES = ['MANUAL', 'DYNAMIC'] as const;
export type DictionaryType = (typeof DICTIONARY_TYPES)[number];
export const DICTIONARY_STATES = ['STARTED', 'STOPPED'] as const;
export type DictionaryState = (typeof DICTIONARY_STATES)[number];
export const TRIGGER_UNITS = ['SECONDS', 'MINUTES', 'HOURS'] as const;
export type TriggerUnit = (typeof TRIGGER_UNITS)[number];

export const DICTIONARY_NAME_MAX = 50;
export const DICTIONARY_DESCRIPTION_MAX = 1000;
export const DICTIONARY_PROPERTY_VALUE_MAX = 160;
export const DICTIONARY_PROPERTY_KEY_MAX = 256;
/** The properties table's page sizes; the first is the default. */
export const DICTIONARY_PROPERTY_PAGE_SIZES = [10, 25, 50, 75, 100] as const;

export const DICTIONARY_MESSAGES = {
  nameRequired: 'dictionary name is required.',
  nameTooLong: `The dictionary name has to be less than ${DICTIONARY_NAME_MAX} characters long.`,
  valueTooLong: `A property value has to be less than ${DICTIONARY_PROPERTY_VALUE_MAX} characters long.`,
  providerRequired: 'a dynamic dictionary needs a provider',
  triggerRequired: 'a dynamic dictionary needs a trigger',
} as const;

/** Upper case whatever the client spelled (`manual`, `Manual`, `MANUAL`). */
const upper = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(values));

export const DictionaryTypeSchema = upper(DICTIONARY_TYPES);
export const TriggerUnitSchema = upper(TRIGGER_UNITS);

export const DictionaryTrigger = z.object({
  rate: z.number().int().min(1, 'must be at least 1'),
  unit: TriggerUnitSchema,
});
export type DictionaryTrigger = z.infer<typeof DictionaryTrigger>;

export const DictionaryProvider = z.object({
  type: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.literal('HTTP')),
  configuration: z.object({
    url: z
      .string()
      .trim()
      .min(1, 'is required')
      .max(2048)
      .refine((u) => /^https?:\/\//i.test(u) && URL.canParse(u), 'must be an http(s) URL'),
    specification: z.string().trim().min(1, 'is required').max(100_000),
  }),
});
export type DictionaryProvider = z.infer<typeof DictionaryProvider>;

export const DictionaryProperties = z.record(
  z.string().min(1, 'a property needs a name').max(DICTIONARY_PROPERTY_KEY_MAX),
  z.string().max(DICTIONARY_PROPERTY_VALUE_MAX, DICTIONARY_MESSAGES.valueTooLong),
);

/** The body of POST configuration/dictionaries and PUT configuration/dictionaries/{id}. */
export const DictionaryInput = z
  .object({
    name: z
      .string(DICTIONARY_MESSAGES.nameRequired)
      .trim()
      .min(1, DICTIONARY_MESSAGES.nameRequired)
      .max(DICTIONARY_NAME_MAX, DICTIONARY_MESSAGES.nameTooLong),
    description: z.string().max(DICTIONARY_DESCRIPTION_MAX).nullish(),
    type: DictionaryTypeSchema,
    properties: DictionaryProperties.nullish(),
    provider: DictionaryProvider.nullish(),
    trigger: DictionaryTrigger.nullish(),
  })
  .superRefine((d, ctx) => {
    if (d.type !== 'DYNAMIC') return;
    if (!d.provider)
      ctx.addIssue({ code: 'custom', path: ['provider'], message: DICTIONARY_MESSAGES.providerRequired });
    if (!d.trigger)
      ctx.addIssue({ code: 'custom', path: ['trigger'], message: DICTIONARY_MESSAGES.triggerRequired });
  });
export type DictionaryInput = z.infer<typeof DictionaryInput>;

/** A dictionary as the API answers it. Dates are epoch milliseconds. */
export interface DictionaryJson {
  id: string;
  name: string;
  description: string | null;
  type: DictionaryType;
  state: DictionaryState;
  created_at: number;
  updated_at: number;
  deployed_at: number | null;
  properties: Record<string, string>;
  provider?: DictionaryProvider | null;
  trigger?: DictionaryTrigger | null;
}

/** A line of GET configuration/dictionaries: `properties` is the number of properties. */
export interface DictionaryListItemJson extends Omit<DictionaryJson, 'properties' | 'provider' | 'trigger'> {
  properties: number;
  provider: string | null;
}

/** The id made from a name, as Gravitee did: lower case, runs of other characters become `-`. */
export function dictionaryIdFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

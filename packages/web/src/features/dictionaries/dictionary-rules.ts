import { z } from 'zod';
import { DICTIONARY_NAME_MAX, DICTIONARY_PROPERTY_VALUE_MAX } from '@portico/model';
import type { Dictionary, DictionaryInput } from './api/dictionaries';

/** The form's values (console-applications-and-settings.md 5: messages are translation keys). */
export interface DictionaryFormValues {
  name: string;
  description: string;
  type: Dictionary['type'];
  rate: number | string;
  unit: 'SECONDS' | 'MINUTES' | 'HOURS';
  url: string;
  specification: string;
  properties: Record<string, string>;
}

const isHttpUrl = (u: string) => /^https?:\/\//i.test(u) && URL.canParse(u);

export const dictionarySchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'dictionaries.errors.nameRequired')
      .max(DICTIONARY_NAME_MAX, 'dictionaries.errors.nameTooLong'),
    type: z.enum(['MANUAL', 'DYNAMIC']),
    rate: z.union([z.number(), z.string()]),
    url: z.string(),
    specification: z.string(),
    properties: z.record(
      z.string(),
      z.string().max(DICTIONARY_PROPERTY_VALUE_MAX, 'dictionaries.errors.valueTooLong'),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.type !== 'DYNAMIC') return;
    if (typeof v.rate !== 'number' || !Number.isInteger(v.rate) || v.rate < 1)
      ctx.addIssue({ code: 'custom', path: ['rate'], message: 'dictionaries.errors.rateMin' });
    if (!v.url.trim())
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'dictionaries.errors.urlRequired' });
    else if (!isHttpUrl(v.url.trim()))
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'dictionaries.errors.urlInvalid' });
    if (!v.specification.trim())
      ctx.addIssue({
        code: 'custom',
        path: ['specification'],
        message: 'dictionaries.errors.specificationRequired',
      });
  });

export const propertySchema = z.object({
  key: z.string().trim().min(1, 'dictionaries.errors.keyRequired'),
  value: z
    .string()
    .min(1, 'dictionaries.errors.valueRequired')
    .max(DICTIONARY_PROPERTY_VALUE_MAX, 'dictionaries.errors.valueTooLong'),
});

export function formValues(d: Dictionary | undefined): DictionaryFormValues {
  return {
    name: d?.name ?? '',
    description: d?.description ?? '',
    type: d?.type ?? 'MANUAL',
    rate: d?.trigger?.rate ?? 30,
    unit: d?.trigger?.unit ?? 'SECONDS',
    url: d?.provider?.configuration.url ?? '',
    specification: d?.provider?.configuration.specification ?? '',
    properties: d?.properties ?? {},
  };
}

export function toInput(v: DictionaryFormValues): DictionaryInput {
  const dynamic = v.type === 'DYNAMIC';
  return {
    name: v.name.trim(),
    description: v.description.trim() || null,
    type: v.type,
    properties: v.properties,
    ...(dynamic
      ? {
          provider: { type: 'HTTP', configuration: { url: v.url.trim(), specification: v.specification } },
          trigger: { rate: Number(v.rate), unit: v.unit },
        }
      : {}),
  };
}

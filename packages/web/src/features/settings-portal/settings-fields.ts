import type { SettingValue, SettingsTree } from '@portico/model';
import { SETTINGS_BY_KEY, toSettingsTree } from '@portico/model';

/**
 * The fields of the portal, analytics and API logging settings screens (console-applications-and-
 * settings.md 2.3 and section 3). Each field is one setting of the model's list (its type and minimum
 * come from there, as the server checks them); a screen is a list of sections of fields.
 */
export interface SettingField {
  /** The setting's key, `portal.rating.enabled`. */
  key: string;
  /** Greyed out while this boolean setting is off (an option of a disabled feature). */
  dependsOn?: string;
  /** A string that must be an http(s) URL when given. */
  url?: boolean;
  /** The unit shown after a number (`ms`, `s`, `bytes`). */
  unit?: 'ms' | 's' | 'bytes';
}

export interface SettingSection {
  /** Under `settingsPortal.sections`. */
  id: string;
  fields: readonly SettingField[];
}

const f = (key: string, extra: Omit<SettingField, 'key'> = {}): SettingField => ({ key, ...extra });

export const PORTAL_SECTIONS: readonly SettingSection[] = [
  { id: 'company', fields: [f('company.name')] },
  { id: 'management', fields: [f('management.title'), f('management.url', { url: true })] },
  {
    id: 'portal',
    fields: [
      f('portal.title'),
      f('portal.url', { url: true }),
      f('portal.entrypoint', { url: true }),
      f('portal.apikeyHeader'),
      f('portal.devMode.enabled'),
      f('portal.userCreation.enabled'),
      f('portal.support.enabled'),
      f('portal.support.email', { dependsOn: 'portal.support.enabled' }),
    ],
  },
  {
    id: 'apis',
    fields: [
      f('portal.apis.tilesMode.enabled'),
      f('portal.apis.viewMode.enabled'),
      f('portal.apis.apiHeaderShowTags.enabled'),
      f('portal.apis.apiHeaderShowViews.enabled'),
    ],
  },
  {
    id: 'rating',
    fields: [
      f('portal.rating.enabled'),
      f('portal.rating.comment.mandatory', { dependsOn: 'portal.rating.enabled' }),
    ],
  },
  {
    id: 'uploadMedia',
    fields: [
      f('portal.uploadMedia.enabled'),
      f('portal.uploadMedia.maxSizeInOctet', { dependsOn: 'portal.uploadMedia.enabled', unit: 'bytes' }),
    ],
  },
  {
    id: 'authentication',
    fields: [f('authentication.forceLogin.enabled'), f('authentication.localLogin.enabled')],
  },
  {
    id: 'plans',
    fields: [
      f('plan.security.keyless.enabled'),
      f('plan.security.apikey.enabled'),
      f('plan.security.oauth2.enabled'),
      f('plan.security.jwt.enabled'),
    ],
  },
  {
    id: 'applications',
    fields: [
      f('application.types.simple.enabled'),
      f('application.types.browser.enabled'),
      f('application.types.web.enabled'),
      f('application.types.native.enabled'),
    ],
  },
  {
    id: 'quality',
    fields: [
      f('apiQualityMetrics.enabled'),
      ...[
        'functionalDocumentationWeight',
        'technicalDocumentationWeight',
        'healthcheckWeight',
        'descriptionWeight',
        'descriptionMinLength',
        'logoWeight',
        'viewsWeight',
        'labelsWeight',
      ].map((k) => f(`apiQualityMetrics.${k}`, { dependsOn: 'apiQualityMetrics.enabled' })),
    ],
  },
  {
    id: 'scheduler',
    fields: [f('scheduler.tasks', { unit: 's' }), f('scheduler.notifications', { unit: 's' })],
  },
  { id: 'documentation', fields: [f('documentation.url')] },
  { id: 'theme', fields: [f('theme.name'), f('theme.logo'), f('theme.loader'), f('theme.css')] },
];

export const ANALYTICS_SECTIONS: readonly SettingSection[] = [
  { id: 'analyticsClient', fields: [f('analytics.clientTimeout', { unit: 'ms' })] },
  {
    id: 'analyticsTracking',
    fields: [
      f('portal.analytics.enabled'),
      f('portal.analytics.trackingId', { dependsOn: 'portal.analytics.enabled' }),
    ],
  },
];

export const API_LOGGING_SECTIONS: readonly SettingSection[] = [
  { id: 'logging', fields: [f('logging.maxDurationMillis', { unit: 'ms' })] },
  {
    id: 'audit',
    fields: [
      f('logging.audit.enabled'),
      f('logging.audit.trail.enabled', { dependsOn: 'logging.audit.enabled' }),
    ],
  },
  { id: 'user', fields: [f('logging.user.displayed')] },
];

/** A form value: numbers are typed as text may be, '' for an empty number field. */
export type FormValue = boolean | number | string;
export type FormValues = Record<string, FormValue>;

/** The label key of a field: `settingsPortal.fields.portal_rating_enabled`. */
export const fieldId = (key: string) => key.replace(/\./g, '_');

export const typeOf = (key: string) => SETTINGS_BY_KEY.get(key)?.type ?? 'string';

/** The value of a dotted key in the settings tree. */
function at(tree: SettingsTree, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
}

/** The form's values for these sections, from the settings tree (defaults where a key is missing). */
export function valuesFrom(tree: SettingsTree, sections: readonly SettingSection[]): FormValues {
  const out: FormValues = {};
  for (const field of sections.flatMap((s) => s.fields)) {
    const value = at(tree, field.key);
    const fallback = SETTINGS_BY_KEY.get(field.key)?.default;
    out[field.key] = (value ?? fallback ?? '') as FormValue;
  }
  return out;
}

/** Error keys (under `settingsPortal.validation`) of the invalid fields, with their values. */
export function validate(values: FormValues): Record<string, { key: string; min?: number }> {
  const errors: Record<string, { key: string; min?: number }> = {};
  for (const [key, value] of Object.entries(values)) {
    const d = SETTINGS_BY_KEY.get(key);
    if (!d) continue;
    if (d.type === 'number' && value !== '') {
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isInteger(n)) errors[key] = { key: 'integer' };
      else if (d.min !== undefined && n < d.min) errors[key] = { key: 'min', min: d.min };
    }
  }
  return errors;
}

/** Adds the URL checks of the fields that ask for them. */
export function validateFields(
  values: FormValues,
  sections: readonly SettingSection[],
): Record<string, { key: string; min?: number }> {
  const errors = validate(values);
  for (const field of sections.flatMap((s) => s.fields)) {
    const value = values[field.key];
    if (field.url && typeof value === 'string' && value.trim() !== '' && !isHttpUrl(value.trim()))
      errors[field.key] = { key: 'url' };
  }
  return errors;
}

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/**
 * The partial payload of `POST portal`: only the changed fields, nested as the server takes them; an
 * emptied number is null (back to its default).
 */
export function changesPayload(initial: FormValues, values: FormValues): SettingsTree {
  const changed = new Map<string, SettingValue>();
  for (const [key, value] of Object.entries(values)) {
    if (value === initial[key]) continue;
    if (typeof value === 'string' && typeof initial[key] === 'string' && value.trim() === initial[key])
      continue;
    const type = typeOf(key);
    if (type === 'number') changed.set(key, (value === '' ? null : Number(value)) as SettingValue);
    else changed.set(key, typeof value === 'string' ? value.trim() : value);
  }
  return toSettingsTree(changed);
}

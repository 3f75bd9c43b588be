import { z } from 'zod';

/**
 * Portal and platform settings. Each setting is one stored parameter (key in dotted form, as the spec
 * names them: `authentication.forceLogin.enabled`); the nested JSON of `GET portal` and of the settings
 * payloads is built from this one list, so a new setting is one line here.
 */
export type SettingType = 'boolean' | 'number' | 'string' | 'string[]';

export interface SettingDescriptor {
  key: string;
  type: SettingType;
  default: boolean | number | string | string[];
  /** Served to everybody by `GET portal` (the start-up of both faces); otherwise to settings readers only. */
  public: boolean;
  /** Never sent back: a password is write-only. */
  secret?: boolean;
  /** Numbers: smallest value accepted. */
  min?: number;
  /** Strings that must be one of these. */
  values?: readonly string[];
}

const setting = (
  key: string,
  type: SettingType,
  def: SettingDescriptor['default'],
  extra: Partial<SettingDescriptor> = {},
): SettingDescriptor => ({ key, type, default: def, public: true, ...extra });

export const SETTINGS: readonly SettingDescriptor[] = [
  setting('company.name', 'string', 'Portico'),
  setting('management.title', 'string', 'Portico Management'),
  setting('management.url', 'string', ''),
  setting('portal.title', 'string', 'Portico Portal'),
  setting('portal.entrypoint', 'string', 'http://localhost:8082'),
  setting('portal.apikeyHeader', 'string', 'X-Api-Key'),
  setting('portal.url', 'string', ''),
  setting('portal.devMode.enabled', 'boolean', false),
  setting('portal.userCreation.enabled', 'boolean', true),
  setting('portal.support.enabled', 'boolean', true),
  /** Where tickets about no API go (`POST platform/tickets`); empty: such tickets are refused. */
  setting('portal.support.email', 'string', '', { public: false }),
  setting('portal.rating.enabled', 'boolean', true),
  setting('portal.rating.comment.mandatory', 'boolean', false),
  setting('portal.apis.tilesMode.enabled', 'boolean', true),
  setting('portal.apis.viewMode.enabled', 'boolean', false),
  setting('portal.apis.apiHeaderShowTags.enabled', 'boolean', true),
  setting('portal.apis.apiHeaderShowViews.enabled', 'boolean', true),
  setting('portal.analytics.enabled', 'boolean', false),
  setting('portal.analytics.trackingId', 'string', ''),
  setting('portal.uploadMedia.enabled', 'boolean', true),
  setting('portal.uploadMedia.maxSizeInOctet', 'number', 1_000_000, { min: 0 }),
  setting('authentication.forceLogin.enabled', 'boolean', false),
  setting('authentication.localLogin.enabled', 'boolean', true),
  setting('scheduler.tasks', 'number', 10, { min: 1 }),
  setting('scheduler.notifications', 'number', 10, { min: 1 }),
  setting('documentation.url', 'string', '/docs/'),
  setting('theme.name', 'string', 'default'),
  setting('theme.logo', 'string', 'themes/assets/portico-logo.svg'),
  setting('theme.loader', 'string', 'themes/assets/portico-loader.svg'),
  setting('theme.css', 'string', 'themes/default.css'),
  setting('plan.security.apikey.enabled', 'boolean', true),
  setting('plan.security.keyless.enabled', 'boolean', true),
  setting('plan.security.oauth2.enabled', 'boolean', true),
  setting('plan.security.jwt.enabled', 'boolean', true),
  setting('apiQualityMetrics.enabled', 'boolean', false),
  setting('apiQualityMetrics.functionalDocumentationWeight', 'number', 0, { min: 0 }),
  setting('apiQualityMetrics.technicalDocumentationWeight', 'number', 0, { min: 0 }),
  setting('apiQualityMetrics.healthcheckWeight', 'number', 0, { min: 0 }),
  setting('apiQualityMetrics.descriptionWeight', 'number', 0, { min: 0 }),
  setting('apiQualityMetrics.descriptionMinLength', 'number', 100, { min: 0 }),
  setting('apiQualityMetrics.logoWeight', 'number', 0, { min: 0 }),
  setting('apiQualityMetrics.viewsWeight', 'number', 0, { min: 0 }),
  setting('apiQualityMetrics.labelsWeight', 'number', 0, { min: 0 }),
  setting('logging.maxDurationMillis', 'number', 0, { min: 0 }),
  setting('logging.audit.enabled', 'boolean', true),
  setting('logging.audit.trail.enabled', 'boolean', false),
  setting('logging.user.displayed', 'boolean', false),
  setting('analytics.clientTimeout', 'number', 30_000, { min: 0 }),
  setting('application.registration.enabled', 'boolean', false),
  setting('application.types.simple.enabled', 'boolean', true),
  setting('application.types.browser.enabled', 'boolean', true),
  setting('application.types.web.enabled', 'boolean', true),
  setting('application.types.native.enabled', 'boolean', true),
  setting('api.labelsDictionary', 'string[]', []),
  setting('alert.enabled', 'boolean', false),
  setting('email.enabled', 'boolean', false, { public: false }),
  setting('email.host', 'string', '', { public: false }),
  setting('email.port', 'number', 587, { public: false, min: 0 }),
  setting('email.username', 'string', '', { public: false }),
  setting('email.password', 'string', '', { public: false, secret: true }),
  setting('email.protocol', 'string', 'smtp', { public: false, values: ['smtp', 'smtps'] }),
  setting('email.subject', 'string', '[Portico] %s', { public: false }),
  setting('email.from', 'string', 'noreply@portico.local', { public: false }),
];

export const SETTINGS_BY_KEY: ReadonlyMap<string, SettingDescriptor> = new Map(
  SETTINGS.map((s) => [s.key, s]),
);

export type SettingValue = SettingDescriptor['default'];

/**
 * Options of a feature, by the switch of that feature: while the feature is off they are served off
 * (`GET portal`), whatever is stored, so that no face acts on an option of a disabled feature.
 */
export const FEATURE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  'portal.rating.enabled': ['portal.rating.comment.mandatory'],
  'logging.audit.enabled': ['logging.audit.trail.enabled'],
};

/** The values as served: an option of a feature that is off reads off (see FEATURE_OPTIONS). */
export function effectiveSettings(values: ReadonlyMap<string, SettingValue>): Map<string, SettingValue> {
  const out = new Map(values);
  for (const [feature, options] of Object.entries(FEATURE_OPTIONS))
    if (values.get(feature) === false) for (const option of options) out.set(option, false);
  return out;
}
export type SettingsTree = { [key: string]: SettingValue | SettingsTree };

/** Turns flat `a.b.c` values into the nested object of the wire. */
export function toSettingsTree(values: ReadonlyMap<string, SettingValue>): SettingsTree {
  const root: SettingsTree = {};
  for (const [key, value] of values) {
    const parts = key.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as SettingsTree;
    node[parts.at(-1)!] = value;
  }
  return root;
}

/** Decodes a stored parameter text into its typed value (the default when it no longer parses). */
export function decodeSetting(descriptor: SettingDescriptor, text: string): SettingValue {
  switch (descriptor.type) {
    case 'boolean':
      return text === 'true';
    case 'number': {
      const n = Number(text);
      return Number.isFinite(n) ? n : descriptor.default;
    }
    case 'string[]':
      return text === '' ? [] : text.split(',');
    default:
      return text;
  }
}

export function encodeSetting(value: SettingValue): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

function valueSchema(d: SettingDescriptor): z.ZodType {
  switch (d.type) {
    case 'boolean':
      return z.boolean();
    case 'number':
      // null: unset, back to the default (Gravitee 1.x clients send null for an empty number field).
      return (d.min === undefined ? z.number() : z.number().min(d.min)).nullable();
    case 'string[]':
      return z.array(z.string().regex(/^[^,]*$/, 'must not contain a comma'));
    default:
      return d.values ? z.enum(d.values as [string, ...string[]]) : z.string();
  }
}

function buildSchema(descriptors: readonly SettingDescriptor[], prefix = ''): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  const children = new Map<string, SettingDescriptor[]>();
  for (const d of descriptors) {
    const rest = d.key.slice(prefix.length);
    const [head, ...tail] = rest.split('.');
    if (tail.length === 0) shape[head!] = valueSchema(d).optional();
    else children.set(head!, [...(children.get(head!) ?? []), d]);
  }
  for (const [head, list] of children) shape[head] = buildSchema(list, `${prefix}${head}.`).optional();
  return z.strictObject(shape);
}

/**
 * The settings payload: any part of the tree (partial payloads such as
 * `{ "authentication": { "forceLogin": { "enabled": true } } }` or the whole settings); unknown keys
 * and wrong types are refused.
 */
export const SettingsPayload = buildSchema(SETTINGS);

/** Flattens a validated settings payload to `key -> value`; null means back to the default. */
export function flattenSettings(payload: unknown, prefix = ''): Map<string, SettingValue | null> {
  const out = new Map<string, SettingValue | null>();
  if (payload && typeof payload === 'object' && !Array.isArray(payload)) {
    for (const [k, v] of Object.entries(payload)) {
      const key = prefix + k;
      if (SETTINGS_BY_KEY.has(key)) {
        if (v !== undefined) out.set(key, v as SettingValue | null);
      } else for (const [kk, vv] of flattenSettings(v, `${key}.`)) out.set(kk, vv);
    }
  }
  return out;
}

import type { Cors, Failover, ResponseTemplates } from '@portico/model';

/**
 * The rules of the proxy settings screens (console-apis.md 2.5, 5 and 9): CORS, failover and response
 * templates. Problems are message keys under `apiProxy.problems`, by field.
 */

export type SettingsProblem =
  'required' | 'origin' | 'maxAge' | 'min1' | 'status' | 'duplicateType' | 'duplicateHeader' | 'keyTaken';
export type SettingsProblems = Record<string, SettingsProblem>;

/** The spec's default CORS: allow origin '*', max age -1, no credentials (section 9). */
export const DEFAULT_CORS: Cors = {
  enabled: false,
  allowOrigin: ['*'],
  allowHeaders: [],
  allowMethods: [],
  exposeHeaders: [],
  maxAge: -1,
  allowCredentials: false,
};

/** CORS as edited: max age may be empty while typing. */
export type CorsValues = Omit<Cors, 'maxAge'> & { maxAge: number | undefined };

const ORIGIN = /^((\*)|(null)|(([^:/?#]+):)?(\/\/([^/?#]*))?)$/;

/** An allowed origin: `*`, `null`, `scheme://host[:port]`, or a valid regular expression. */
export function originValid(origin: string): boolean {
  if (ORIGIN.test(origin)) return true;
  if (!/[{[(*]/.test(origin)) return false;
  try {
    new RegExp(origin);
    return true;
  } catch {
    return false;
  }
}

const missing = (n: number | undefined) => n === undefined || Number.isNaN(n);

/** Section 5: when enabled, origins and methods are required, each origin valid, max age at least -1. */
export function corsProblems(cors: CorsValues): SettingsProblems {
  const problems: SettingsProblems = {};
  if (!cors.enabled) return problems;
  if (cors.allowOrigin.length === 0) problems.allowOrigin = 'required';
  else if (!cors.allowOrigin.every(originValid)) problems.allowOrigin = 'origin';
  if (cors.allowMethods.length === 0) problems.allowMethods = 'required';
  if (missing(cors.maxAge)) problems.maxAge = 'required';
  else if (cors.maxAge! < -1) problems.maxAge = 'maxAge';
  return problems;
}

/** Failover as edited: off when the proxy has none. */
export interface FailoverValues {
  enabled: boolean;
  maxAttempts: number | undefined;
  retryTimeout: number | undefined;
  cases: Failover['cases'];
}

export const failoverValues = (failover: Failover | undefined): FailoverValues => ({
  enabled: failover !== undefined,
  maxAttempts: failover?.maxAttempts ?? 1,
  retryTimeout: failover?.retryTimeout ?? 10000,
  cases: failover?.cases ?? ['TIMEOUT'],
});

/** Section 5: when enabled, max attempts and the timeout are required, each at least 1. */
export function failoverProblems(values: FailoverValues): SettingsProblems {
  const problems: SettingsProblems = {};
  if (!values.enabled) return problems;
  for (const key of ['maxAttempts', 'retryTimeout'] as const) {
    if (missing(values[key])) problems[key] = 'required';
    else if (values[key]! < 1) problems[key] = 'min1';
  }
  return problems;
}

/** What the proxy keeps: no failover when disabled. */
export const failoverOf = (values: FailoverValues): Failover | undefined =>
  values.enabled
    ? { maxAttempts: values.maxAttempts!, retryTimeout: values.retryTimeout!, cases: values.cases }
    : undefined;

/** One template of a key as edited: its content type, status, headers as pairs, body. */
export interface TemplateValues {
  contentType: string;
  status: number | undefined;
  headers: [string, string][];
  body: string;
}

/** A new template: type '*' + '/' + '*' and status 400 (section 9). */
export const newTemplate = (): TemplateValues => ({ contentType: '*/*', status: 400, headers: [], body: '' });

/** The templates of a key as edited. */
export function templatesOf(templates: ResponseTemplates, key: string): TemplateValues[] {
  return Object.entries(templates[key] ?? {}).map(([contentType, t]) => ({
    contentType,
    status: t.status,
    headers: Object.entries(t.headers),
    body: t.body,
  }));
}

/** Section 5: key, content type and status required; header names and values required, once each. */
export function templateProblems(
  all: ResponseTemplates,
  key: string,
  isNew: boolean,
  values: TemplateValues[],
): SettingsProblems {
  const problems: SettingsProblems = {};
  if (!key.trim()) problems.key = 'required';
  else if (isNew && all[key.trim()]) problems.key = 'keyTaken';
  const types = new Set<string>();
  for (const [i, t] of values.entries()) {
    const type = t.contentType.trim().toLowerCase();
    if (!type) problems[`${i}.contentType`] = 'required';
    else if (types.has(type)) problems[`${i}.contentType`] = 'duplicateType';
    types.add(type);
    if (missing(t.status)) problems[`${i}.status`] = 'required';
    else if (t.status! < 100 || t.status! > 599) problems[`${i}.status`] = 'status';
    Object.assign(problems, headerProblems(t.headers, `${i}.headers`));
  }
  return problems;
}

/**
 * Header pairs (`{prefix}.{n}.name` / `.value`): name and value required; a name given twice (in any
 * case) is refused, since headers are sent as a map and one value would silently replace the other.
 */
export function headerProblems(headers: readonly [string, string][], prefix: string): SettingsProblems {
  const problems: SettingsProblems = {};
  const names = new Set<string>();
  for (const [n, [name, value]] of headers.entries()) {
    const lower = name.trim().toLowerCase();
    if (!lower) problems[`${prefix}.${n}.name`] = 'required';
    else if (names.has(lower)) problems[`${prefix}.${n}.name`] = 'duplicateHeader';
    names.add(lower);
    if (!value) problems[`${prefix}.${n}.value`] = 'required';
  }
  return problems;
}

/** The templates with the key's templates replaced; no template left deletes the key (section 5). */
export function withTemplates(
  all: ResponseTemplates,
  previousKey: string | undefined,
  key: string,
  values: TemplateValues[],
): ResponseTemplates {
  const out = { ...all };
  if (previousKey !== undefined) delete out[previousKey];
  if (values.length === 0) {
    delete out[key];
    return out;
  }
  out[key.trim()] = Object.fromEntries(
    values.map((t) => [
      t.contentType.trim(),
      {
        status: t.status!,
        headers: Object.fromEntries(t.headers.map(([n, v]) => [n.trim(), v])),
        body: t.body,
      },
    ]),
  );
  return out;
}

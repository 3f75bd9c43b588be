import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The optional dashboard widgets (section 9 of the spec): hits by host, by the browser and system the
 * User-Agent names, and by the country and city of the client address, which need a GeoIP database.
 */
export const OPTIONAL_WIDGETS = ['host', 'user_agent_name', 'os_name', 'geo_country', 'geo_city'] as const;
export type OptionalWidget = (typeof OPTIONAL_WIDGETS)[number];
const GEO_WIDGETS: readonly OptionalWidget[] = ['geo_country', 'geo_city'];

const nonEmpty = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);

/**
 * The optional widgets (by default all that can be filled) and the GeoIP database, which the geo
 * widgets need: the file must exist (a relative path is from the working directory).
 */
export function analyticsWidgets(
  env: NodeJS.ProcessEnv,
  fromFile: { widgets?: OptionalWidget[] | undefined; geoipDatabase?: string | undefined } | undefined,
  cwd: string,
): { analyticsWidgets: OptionalWidget[]; geoipDatabase: string | undefined } {
  const given = nonEmpty(env.PORTICO_ANALYTICS_GEOIP_DATABASE) ?? fromFile?.geoipDatabase;
  const geoipDatabase = given === undefined ? undefined : path.resolve(cwd, given);
  if (geoipDatabase !== undefined && !existsSync(geoipDatabase))
    throw new Error(`analytics.geoipDatabase: no file at ${geoipDatabase}`);
  const shown =
    widgets(env.PORTICO_ANALYTICS_WIDGETS) ??
    fromFile?.widgets ??
    OPTIONAL_WIDGETS.filter((w) => geoipDatabase || !GEO_WIDGETS.includes(w));
  const geo = shown.find((w) => GEO_WIDGETS.includes(w));
  if (geo !== undefined && geoipDatabase === undefined)
    throw new Error(
      `analytics.widgets: ${geo} needs a GeoIP database (analytics.geoipDatabase or PORTICO_ANALYTICS_GEOIP_DATABASE)`,
    );
  return { analyticsWidgets: shown, geoipDatabase };
}

/** PORTICO_ANALYTICS_WIDGETS: a comma-separated list of OPTIONAL_WIDGETS (empty: none). */
function widgets(value: string | undefined): OptionalWidget[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  const unknown = names.find((w) => !(OPTIONAL_WIDGETS as readonly string[]).includes(w));
  if (unknown !== undefined)
    throw new Error(
      `PORTICO_ANALYTICS_WIDGETS: unknown widget '${unknown}' (known: ${OPTIONAL_WIDGETS.join(', ')})`,
    );
  return names as OptionalWidget[];
}

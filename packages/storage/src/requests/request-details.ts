import { clientNames } from './client-names.js';
import type { GeoLocator } from './geo-locator.js';
import type { NewRequestRow } from './requests.table.js';

/**
 * What a writer of request rows works out of each row before writing it (off the gateway's request
 * path): the browser and system its User-Agent names, and, with a GeoIP database, where its client
 * address is. The optional dashboard widgets group by them.
 */
export interface RequestDetailsOptions {
  geo?: GeoLocator | undefined;
}

export interface RequestDetails {
  user_agent_name: string | null;
  os_name: string | null;
  geo_country: string | null;
  geo_city: string | null;
}

export function requestDetails(
  userAgent: string | null | undefined,
  remoteAddress: string | null | undefined,
  options: RequestDetailsOptions,
): RequestDetails {
  const names = clientNames(userAgent);
  const place = options.geo?.locate(remoteAddress);
  return {
    user_agent_name: names.userAgentName,
    os_name: names.osName,
    geo_country: place?.country ?? null,
    geo_city: place?.city ?? null,
  };
}

/** The row with its details (those the row names itself are kept). */
export function withDetails(row: NewRequestRow, options: RequestDetailsOptions): NewRequestRow {
  const details = requestDetails(row.user_agent, row.remote_address, options);
  return {
    ...row,
    user_agent_name: row.user_agent_name ?? details.user_agent_name,
    os_name: row.os_name ?? details.os_name,
    geo_country: row.geo_country ?? details.geo_country,
    geo_city: row.geo_city ?? details.geo_city,
  };
}

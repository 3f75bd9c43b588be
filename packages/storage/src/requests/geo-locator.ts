import { readFileSync } from 'node:fs';
import { Reader } from 'mmdb-lib';
import type { CityResponse } from 'mmdb-lib';

/** Where a client address is: the country's ISO code and the city's English name, when known. */
export interface GeoPlace {
  country: string | null;
  city: string | null;
}

/** A GeoIP City or Country record (MaxMind GeoLite2/GeoIP2, DB-IP lite): a Country one has no city. */
type GeoRecord = CityResponse;

const NOWHERE: GeoPlace = Object.freeze({ country: null, city: null });
/** Distinct addresses remembered (clients call again and again). */
const CACHE_SIZE = 10_000;
const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/**
 * Places client addresses with a GeoIP database in the MaxMind DB format (`analytics.geoipDatabase`):
 * the optional widgets geo_country and geo_city group the requests by them. Read when a request row is
 * written, by the writer (off the gateway's request path); private addresses are nowhere.
 */
export class GeoLocator {
  private readonly cache = new Map<string, GeoPlace>();

  private constructor(private readonly reader: Reader<GeoRecord>) {}

  /** Opens the database file; throws a message naming the file when it is missing or not a GeoIP database. */
  static open(file: string): GeoLocator {
    let reader: Reader<GeoRecord>;
    try {
      reader = new Reader<GeoRecord>(readFileSync(file));
    } catch (error) {
      throw new Error(`GeoIP database ${file}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    return new GeoLocator(reader);
  }

  locate(address: string | null | undefined): GeoPlace {
    if (!address) return NOWHERE;
    const known = this.cache.get(address);
    if (known) return known;
    const place = this.lookUp(MAPPED_IPV4.exec(address)?.[1] ?? address);
    // The oldest entry leaves when full: a Map iterates in insertion order.
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(address, place);
    return place;
  }

  private lookUp(address: string): GeoPlace {
    let record: GeoRecord | null;
    try {
      record = this.reader.get(address);
    } catch {
      // Not an IP address (a Unix socket's peer, say): nowhere.
      return NOWHERE;
    }
    if (!record) return NOWHERE;
    const country = record.country?.iso_code ?? record.registered_country?.iso_code ?? null;
    const city = record.city?.names?.en ?? null;
    return country === null && city === null ? NOWHERE : Object.freeze({ country, city });
  }
}

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeoLocator } from './geo-locator.js';
import { testGeoDatabase } from './test-mmdb.js';

describe('geo locator (GeoIP database in the MaxMind DB format)', () => {
  const geo = GeoLocator.open(testGeoDatabase());

  it('places IPv4, IPv4-mapped IPv6 and IPv6 addresses: country code and English city name', () => {
    expect(geo.locate('81.2.69.160')).toEqual({ country: 'GB', city: 'London' });
    expect(geo.locate('::ffff:81.2.69.160')).toEqual({ country: 'GB', city: 'London' });
    expect(geo.locate('::FFFF:127.0.0.1')).toEqual({ country: 'BR', city: 'São Paulo' });
    // A Country record without a city; the registered country when the country is missing.
    expect(geo.locate('2001:db8::1')).toEqual({ country: 'FR', city: null });
    // Asked again: the same answer (from the cache).
    expect(geo.locate('81.2.69.160')).toEqual({ country: 'GB', city: 'London' });
  });

  it('places nothing it does not know, nor what is no address', () => {
    for (const address of ['10.0.0.1', '81.2.70.1', '::2', 'fe80::1', 'not-an-ip', '', null, undefined])
      expect(geo.locate(address)).toEqual({ country: null, city: null });
  });

  it('refuses a missing file or one that is no GeoIP database, naming it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portico-geo-'));
    expect(() => GeoLocator.open(path.join(dir, 'missing.mmdb'))).toThrow(
      `GeoIP database ${path.join(dir, 'missing.mmdb')}: `,
    );
    const other = path.join(dir, 'other.mmdb');
    writeFileSync(other, 'id,country\n1,FR\n');
    expect(() => GeoLocator.open(other)).toThrow(`GeoIP database ${other}: `);
  });
});

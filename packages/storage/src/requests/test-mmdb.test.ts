import { Reader } from 'mmdb-lib';
import { describe, expect, it } from 'vitest';
import { writeTestMmdb } from './test-mmdb.js';

const paris = {
  continent: { code: 'EU', names: { en: 'Europe' } },
  country: { iso_code: 'FR', is_in_european_union: true, names: { en: 'France', de: 'Frankreich' } },
  city: { geoname_id: 2988507, names: { en: 'Paris' } },
  location: { latitude: 48.8566, longitude: 2.3522, accuracy_radius: 20, time_zone: 'Europe/Paris' },
  subdivisions: [{ iso_code: 'IDF', names: { en: 'Île-de-France' } }],
};
const documentation = {
  country: { iso_code: 'SE', is_in_european_union: false, names: { en: 'Sweden' } },
  city: { names: { en: 'Stockholm', ru: 'Стокгольм' } },
  location: { latitude: 59.3293, longitude: -18.0686 },
};
const loopback = { country: { iso_code: 'ZZ', names: { en: 'Loopback' } }, subdivisions: [] };

const networks = [
  { cidr: '81.2.69.0/24', data: paris },
  { cidr: '2001:db8::/32', data: documentation },
  { cidr: '127.0.0.0/8', data: loopback },
];

describe('writeTestMmdb', () => {
  describe('an IPv6 database (the default)', () => {
    const reader = new Reader(writeTestMmdb(networks));

    it.each([
      ['81.2.69.0', paris],
      ['81.2.69.142', paris],
      ['81.2.69.255', paris],
      ['2001:db8::1', documentation],
      ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', documentation],
      ['127.0.0.1', loopback],
      ['127.255.255.255', loopback],
      ['::81.2.69.142', paris],
    ])('finds the record of %s', (address, record) => {
      expect(reader.get(address)).toEqual(record);
    });

    it.each([
      '81.2.68.255',
      '81.2.70.0',
      '126.255.255.255',
      '128.0.0.1',
      '10.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '2001:db7:ffff::1',
      '2001:db9::',
      '::1',
      '::ffff:81.2.69.142',
    ])('finds nothing for %s', (address) => {
      expect(reader.get(address)).toBeNull();
    });

    it('reports the prefix length of the network found', () => {
      expect(reader.getWithPrefixLength('81.2.69.142')).toEqual([paris, 24]);
      expect(reader.getWithPrefixLength('2001:db8::1')).toEqual([documentation, 32]);
      expect(reader.getWithPrefixLength('127.0.0.1')).toEqual([loopback, 8]);
    });

    it('writes the metadata', () => {
      const before = Date.now();
      const metadata = new Reader(writeTestMmdb(networks, { databaseType: 'DBIP-City-Lite' })).metadata;

      expect(metadata).toMatchObject({
        ipVersion: 6,
        // ::/96 is 96 nodes; under it 81.2.69.0/24 and 127.0.0.0/8 share their first 3 bits (8 + 24 - 3 = 29
        // nodes); 2001:db8::/32 shares the first 3 nodes of ::/96 (32 - 3 = 29 nodes).
        nodeCount: 96 + 29 + 29,
        recordSize: 24,
        databaseType: 'DBIP-City-Lite',
        languages: ['en'],
        binaryFormatMajorVersion: 2,
        binaryFormatMinorVersion: 0,
        description: { en: expect.any(String) },
      });
      expect(metadata.buildEpoch.getTime()).toBeGreaterThan(before - 2000);
      expect(metadata.buildEpoch.getTime()).toBeLessThanOrEqual(Date.now());
      expect(new Reader(writeTestMmdb(networks)).metadata.databaseType).toBe('GeoLite2-City');
    });
  });

  describe('an IPv4 database', () => {
    const ipv4Networks = networks.filter(({ cidr }) => !cidr.includes(':'));
    const buffer = writeTestMmdb([...ipv4Networks, { cidr: '10.0.0.0/9', data: { n: 1 } }], { ipVersion: 4 });
    const reader = new Reader(buffer);

    it('finds the records of IPv4 addresses', () => {
      expect(reader.metadata.ipVersion).toBe(4);
      expect(reader.get('81.2.69.142')).toEqual(paris);
      expect(reader.get('127.0.0.1')).toEqual(loopback);
      expect(reader.getWithPrefixLength('10.127.255.255')).toEqual([{ n: 1 }, 9]);
      expect(reader.get('10.128.0.0')).toBeNull();
      expect(reader.get('81.2.70.1')).toBeNull();
    });

    it('rejects IPv6 networks', () => {
      expect(() => writeTestMmdb(networks, { ipVersion: 4 })).toThrow('2001:db8::/32');
    });
  });

  it('writes every kind of data value', () => {
    const data = {
      zero: 0,
      small: 7,
      uint32: 4_294_967_295,
      beyondUint32: 4_294_967_296,
      negative: -3,
      fraction: 0.5,
      yes: true,
      no: false,
      empty: { map: {}, array: [], string: '' },
      nested: [[1, 'two'], { three: [3] }],
      unicode: 'Zürich, Москва, 東京',
      // Strings of each size class (< 29, < 285, < 65,821 and larger), with every byte of the size used.
      strings: [28, 29, 284, 285, 1_000, 65_820, 65_821, 200_000].map((length) => 'x'.repeat(length)),
      manyKeys: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`key${i}`, i])),
    };
    const reader = new Reader(writeTestMmdb([{ cidr: '192.0.2.0/24', data }]));

    expect(reader.get('192.0.2.1')).toEqual(data);
  });

  it('keeps adjacent networks apart', () => {
    const reader = new Reader(
      writeTestMmdb([
        { cidr: '10.0.0.0/9', data: { half: 'low' } },
        { cidr: '10.128.0.0/9', data: { half: 'high' } },
        { cidr: '2001:db8::/33', data: { half: 'low' } },
        { cidr: '2001:db8:8000::/33', data: { half: 'high' } },
      ]),
    );

    expect(reader.get('10.127.255.255')).toEqual({ half: 'low' });
    expect(reader.get('10.128.0.0')).toEqual({ half: 'high' });
    expect(reader.get('2001:db8:7fff::1')).toEqual({ half: 'low' });
    expect(reader.get('2001:db8:8000::1')).toEqual({ half: 'high' });
    expect(reader.get('11.0.0.0')).toBeNull();
  });

  it('writes an empty database', () => {
    const reader = new Reader(writeTestMmdb([]));

    expect(reader.metadata.nodeCount).toBe(1);
    expect(reader.get('81.2.69.142')).toBeNull();
    expect(reader.get('2001:db8::1')).toBeNull();
  });

  it.each([
    [['10.0.0.0/8', '10.1.0.0/16']],
    [['10.1.0.0/16', '10.0.0.0/8']],
    [['10.0.0.0/8', '10.0.0.0/8']],
    [['2001:db8::/32', '2001::/16']],
    [['1.2.3.0/24', '::/64']],
  ])('throws on overlapping networks %j', (cidrs) => {
    expect(() => writeTestMmdb(cidrs.map((cidr) => ({ cidr, data: {} })))).toThrow(/overlaps/);
  });

  it.each(['81.2.69.0', '81.2.69.0/33', '81.2.69.0/x', '81.2.69.1/24', '81.2.69/24', 'foo/8'])(
    'throws on the invalid network %s',
    (cidr) => {
      expect(() => writeTestMmdb([{ cidr, data: {} }])).toThrow(cidr);
    },
  );

  it('writes 0.0.0.0/0 under ::/96 in an IPv6 database, but not at the root of the tree', () => {
    const reader = new Reader(writeTestMmdb([{ cidr: '0.0.0.0/0', data: { all: true } }]));

    expect(reader.get('81.2.69.142')).toEqual({ all: true });
    expect(reader.get('2001:db8::1')).toBeNull();
    expect(() => writeTestMmdb([{ cidr: '::/0', data: {} }])).toThrow('root');
    expect(() => writeTestMmdb([{ cidr: '0.0.0.0/0', data: {} }], { ipVersion: 4 })).toThrow('root');
  });

  it('throws on data it cannot write', () => {
    expect(() => writeTestMmdb([{ cidr: '10.0.0.0/8', data: { when: new Date(0) } }])).toThrow(TypeError);
  });
});

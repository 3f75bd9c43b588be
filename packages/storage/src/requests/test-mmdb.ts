/**
 * Test helper: writes a small MaxMind DB (MMDB, binary format 2.0) holding known networks, so that tests
 * can read a GeoIP database with `mmdb-lib` without shipping a real GeoLite2/DB-IP file.
 *
 * The search tree uses 24-bit records. In an IPv6 database (the default), IPv4 networks live under `::/96`,
 * where readers look up IPv4 addresses (the `::ffff:0:0/96` and 6to4 aliases are not written). Each
 * network's data is written separately in the data section: no deduplication, no pointers.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestMmdbNetwork {
  /** `'81.2.69.0/24'`, or in an IPv6 database also `'2001:db8::/32'`. */
  cidr: string;
  data: Record<string, unknown>;
}

export interface TestMmdbOptions {
  /** 6 (the default, like real GeoLite2/DB-IP databases) or 4. */
  ipVersion?: 4 | 6;
  /** `database_type` in the metadata; `'GeoLite2-City'` by default. */
  databaseType?: string;
}

/** A branch of the trie: a node, the index of a network (its data), or nothing. */
type Slot = TrieNode | number | undefined;
type Bit = 0 | 1;
interface TrieNode {
  children: [Slot, Slot];
}

const RECORD_SIZE = 24;
const DATA_SECTION_SEPARATOR = Buffer.alloc(16);
const METADATA_MARKER = Buffer.concat([Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com')]);

export function writeTestMmdb(networks: TestMmdbNetwork[], options: TestMmdbOptions = {}): Buffer {
  const ipVersion = options.ipVersion ?? 6;
  const root: TrieNode = { children: [undefined, undefined] };
  networks.forEach(({ cidr }, index) => insert(root, networkBits(cidr, ipVersion), index, cidr));

  // Number the nodes depth-first, root = 0.
  const nodes: TrieNode[] = [];
  const numbers = new Map<TrieNode, number>();
  const visit = (node: TrieNode): void => {
    numbers.set(node, nodes.length);
    nodes.push(node);
    for (const child of node.children) if (typeof child === 'object') visit(child);
  };
  visit(root);
  const nodeCount = nodes.length;

  const data = networks.map((network) => encode(network.data));
  const dataOffsets: number[] = [];
  let dataSize = 0;
  for (const encoded of data) {
    dataOffsets.push(dataSize);
    dataSize += encoded.length;
  }

  const tree = Buffer.alloc((nodeCount * RECORD_SIZE * 2) / 8);
  nodes.forEach((node, nodeNumber) =>
    node.children.forEach((slot, side) => {
      const record =
        slot === undefined
          ? nodeCount
          : typeof slot === 'number'
            ? nodeCount + DATA_SECTION_SEPARATOR.length + dataOffsets[slot]!
            : numbers.get(slot)!;
      if (record >= 2 ** RECORD_SIZE) throw new Error('test MMDB too large for 24-bit records');
      tree.writeUIntBE(record, nodeNumber * 6 + side * 3, 3);
    }),
  );

  const metadata = encodeMap([
    ['node_count', encodeUint(6, nodeCount)],
    ['record_size', encodeUint(5, RECORD_SIZE)],
    ['ip_version', encodeUint(5, ipVersion)],
    ['database_type', encode(options.databaseType ?? 'GeoLite2-City')],
    ['languages', encode(['en'])],
    ['binary_format_major_version', encodeUint(5, 2)],
    ['binary_format_minor_version', encodeUint(5, 0)],
    ['build_epoch', encodeUint(9, Math.floor(Date.now() / 1000))],
    ['description', encode({ en: 'Test database written by writeTestMmdb' })],
  ]);
  return Buffer.concat([tree, DATA_SECTION_SEPARATOR, ...data, METADATA_MARKER, metadata]);
}

/** Puts network `index` at the end of the path `bits`, throwing if it overlaps a network already there. */
function insert(root: TrieNode, bits: Bit[], index: number, cidr: string): void {
  const overlap = new Error(`network ${cidr} overlaps another network`);
  let node = root;
  for (const bit of bits.slice(0, -1)) {
    const slot = node.children[bit];
    if (typeof slot === 'number') throw overlap;
    node = slot ?? (node.children[bit] = { children: [undefined, undefined] });
  }
  const last = bits[bits.length - 1]!;
  if (node.children[last] !== undefined) throw overlap;
  node.children[last] = index;
}

/** The path to a network from the root of the tree: its first `prefix` bits, after 96 zeros for IPv4 in IPv6. */
function networkBits(cidr: string, ipVersion: 4 | 6): Bit[] {
  const [address = '', prefixText = '', ...rest] = cidr.split('/');
  const ipv4 = isIPv4(address);
  if (!ipv4 && !(isIPv6(address) && ipVersion === 6)) {
    throw new Error(`invalid network for an IPv${ipVersion} database: ${cidr}`);
  }
  const prefix = Number(prefixText);
  if (rest.length > 0 || !/^\d+$/.test(prefixText) || prefix > (ipv4 ? 32 : 128)) {
    throw new Error(`invalid prefix length in ${cidr}`);
  }
  const bytes = ipv4 ? address.split('.').map(Number) : ipv6Bytes(address);
  const bits = bytes.flatMap((byte) => [7, 6, 5, 4, 3, 2, 1, 0].map((shift) => ((byte >> shift) & 1) as Bit));
  if (bits.slice(prefix).includes(1)) throw new Error(`host bits set in ${cidr}`);
  const path = ipv4 && ipVersion === 6 ? [...Array<Bit>(96).fill(0), ...bits] : bits;
  const length = path.length - bits.length + prefix;
  if (length === 0) throw new Error(`cannot write ${cidr}: the root of the tree must be a node`);
  return path.slice(0, length);
}

function ipv6Bytes(address: string): number[] {
  // A trailing dotted quad (`::ffff:1.2.3.4`) becomes two hex groups.
  const hex = address.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_, a: string, b: string, c: string, d: string) =>
      [Number(a) * 256 + Number(b), Number(c) * 256 + Number(d)].map((group) => group.toString(16)).join(':'),
  );
  const [head = '', tail] = hex.split('::');
  const groups = (part: string): number[] =>
    part ? part.split(':').map((group) => parseInt(group, 16)) : [];
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}

/** Encodes a data value: map, UTF-8 string, uint32 (integers 0 to 2^32 - 1), double, boolean or array. */
function encode(value: unknown): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0 && value < 2 ** 32) return encodeUint(6, value);
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(value);
    return Buffer.concat([control(3, 8), bytes]);
  }
  if (typeof value === 'boolean') return control(14, value ? 1 : 0);
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)]);
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return encodeMap(Object.entries(value).map(([key, item]) => [key, encode(item)]));
  }
  throw new TypeError(`cannot write ${String(value)} in a test MMDB`);
}

function encodeMap(entries: [key: string, encodedValue: Buffer][]): Buffer {
  return Buffer.concat([
    control(7, entries.length),
    ...entries.flatMap(([key, value]) => [encode(key), value]),
  ]);
}

/** An unsigned integer of the given type (5 uint16, 6 uint32, 9 uint64) in as few big-endian bytes as it needs. */
function encodeUint(type: 5 | 6 | 9, value: number): Buffer {
  const bytes: number[] = [];
  for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)]);
}

/** The control byte(s) of a field: type and payload size (or entry count for maps and arrays). */
function control(type: number, size: number): Buffer {
  // Sizes from 29 on take 1, 2 or 3 more bytes, holding the size minus the smallest size of that length.
  const [sizeBits, extraLength, base] =
    size < 29 ? [size, 0, 0] : size < 285 ? [29, 1, 29] : size < 65_821 ? [30, 2, 285] : [31, 3, 65_821];
  const head = type <= 7 ? [(type << 5) | sizeBits] : [sizeBits, type - 7];
  const extra = Buffer.alloc(extraLength);
  if (extraLength > 0) extra.writeUIntBE(size - base, 0, extraLength);
  return Buffer.concat([Buffer.from(head), extra]);
}

const SAO_PAULO = {
  country: { iso_code: 'BR', names: { en: 'Brazil' } },
  city: { geoname_id: 3448439, names: { en: 'São Paulo' } },
};

/**
 * A GeoIP database like GeoLite2-City, written into `dir` (a new temporary folder by default): a city
 * network, a country-only one, and the loopback addresses (in São Paulo, so that local traffic is placed).
 */
export function testGeoDatabase(dir = mkdtempSync(path.join(tmpdir(), 'portico-geo-'))): string {
  const file = path.join(dir, 'GeoLite2-City-Test.mmdb');
  writeFileSync(
    file,
    writeTestMmdb([
      {
        cidr: '81.2.69.0/24',
        data: {
          country: { iso_code: 'GB', names: { en: 'United Kingdom' } },
          city: { geoname_id: 2643743, names: { en: 'London', fr: 'Londres' } },
        },
      },
      { cidr: '2001:db8::/32', data: { registered_country: { iso_code: 'FR', names: { en: 'France' } } } },
      { cidr: '127.0.0.0/8', data: SAO_PAULO },
      { cidr: '::1/128', data: SAO_PAULO },
    ]),
  );
  return file;
}

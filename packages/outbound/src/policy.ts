import ipaddr from 'ipaddr.js';

/**
 * Which addresses a server-side request to a user-given URL may reach. By default only public unicast
 * addresses; an installation whose backends are private allows them with `allowPrivate`, or names
 * the hosts and ranges it trusts in `allowed`.
 */
export interface OutboundSettings {
  /** Also reach loopback, RFC 1918, carrier-grade NAT and unique-local addresses (not link-local). */
  allowPrivate: boolean;
  /** Host names (`backend.internal`, `*.corp.example`), addresses and CIDR ranges always allowed. */
  allowed: string[];
  /**
   * The installation's HTTP proxy (`http://proxy.corp:3128`), used by the requests that ask for the
   * system proxy (webhooks and messages whose `useSystemProxy` is set). Unset: they go direct.
   */
  proxy?: string;
}

export const DEFAULT_OUTBOUND_SETTINGS: OutboundSettings = { allowPrivate: false, allowed: [] };

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The checked form of the settings: built once, asked for every address a request resolves to. */
export interface OutboundPolicy {
  readonly allowPrivate: boolean;
  /** The system proxy, when the installation has one. */
  readonly proxy?: string;
  /** Whether a URL's host name is allowed whatever it resolves to. */
  allowsHost(hostname: string): boolean;
  /** Why an address is refused (`loopback`, `private`, `linkLocal`, ...), or undefined when allowed. */
  refusal(address: string): string | undefined;
}

/** Ranges `allowPrivate` opens: an installation's own networks, never cloud metadata (link-local). */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'carrierGradeNat', 'uniqueLocal']);

/** An IPv6 address that stands for an IPv4 one (mapped, translated, NAT64, 6to4, compatible). */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const parts = address.parts;
  const bytes = address.toByteArray();
  const range = address.range();
  if (range === 'rfc6145' || range === 'rfc6052') return new ipaddr.IPv4(bytes.slice(12));
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  // IPv4-compatible `::a.b.c.d` (deprecated): the first 96 bits are zero.
  if (parts.slice(0, 6).every((p) => p === 0) && range !== 'loopback' && range !== 'unspecified') {
    return new ipaddr.IPv4(bytes.slice(12));
  }
  return undefined;
}

/** The range of an address as the policy sees it: `unicast` for a public address. */
export function rangeOf(address: Address): string {
  if (address.kind() === 'ipv6') {
    const v4 = embeddedIpv4(address as ipaddr.IPv6);
    if (v4) return rangeOf(v4);
  }
  return address.range();
}

function parseAddress(text: string): Address | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  // `%eth0` zone ids are not part of the address.
  const unzoned = bare.replace(/%.*$/, '');
  return ipaddr.isValid(unzoned) ? ipaddr.parse(unzoned) : undefined;
}

/** Whether a text is an IP address (IPv6 with or without brackets). */
export const isIpLiteral = (text: string) => parseAddress(text) !== undefined;

const HOST_NAME = /^(\*\.)?([a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/;

/**
 * Builds the policy; throws naming the entry when one of `allowed` is neither a host name, an
 * address nor a CIDR range.
 */
export function createOutboundPolicy(settings: Partial<OutboundSettings> = {}): OutboundPolicy {
  const allowPrivate = settings.allowPrivate ?? false;
  const hosts = new Set<string>();
  const suffixes: string[] = [];
  const ranges: [Address, number][] = [];
  for (const raw of settings.allowed ?? []) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry.includes('/')) {
      try {
        const [address, bits] = ipaddr.parseCIDR(entry);
        ranges.push([address, bits]);
      } catch {
        throw new Error(`Outbound allowed list: "${raw}" is not a valid CIDR range`);
      }
      continue;
    }
    const address = parseAddress(entry);
    if (address) {
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (HOST_NAME.test(entry)) {
      if (entry.startsWith('*.')) suffixes.push(entry.slice(1).replace(/\.$/, ''));
      else hosts.add(entry.replace(/\.$/, ''));
    } else {
      throw new Error(`Outbound allowed list: "${raw}" is neither a host name, an address nor a CIDR range`);
    }
  }

  const inAllowedRange = (address: Address): boolean =>
    ranges.some(([base, bits]) => {
      if (base.kind() === address.kind()) return address.match(base, bits);
      // An IPv4 range also covers the IPv4-mapped IPv6 form of its addresses, and the other way round.
      if (address.kind() === 'ipv6') {
        const v4 = embeddedIpv4(address as ipaddr.IPv6);
        return v4 !== undefined && base.kind() === 'ipv4' && v4.match(base, bits);
      }
      return false;
    });

  const proxy = settings.proxy?.trim() || undefined;
  if (proxy) {
    let scheme = '';
    try {
      scheme = new URL(proxy).protocol;
    } catch {
      // reported below
    }
    if (scheme !== 'http:' && scheme !== 'https:')
      throw new Error(`Outbound proxy: "${proxy}" is not an http(s) URL`);
  }

  return {
    allowPrivate,
    ...(proxy ? { proxy } : {}),
    allowsHost(hostname) {
      const name = hostname.toLowerCase().replace(/\.$/, '');
      return hosts.has(name) || suffixes.some((suffix) => name.endsWith(suffix));
    },
    refusal(text) {
      const address = parseAddress(text);
      if (!address) return 'not an address';
      if (inAllowedRange(address)) return undefined;
      const range = rangeOf(address);
      if (range === 'unicast') return undefined;
      if (allowPrivate && PRIVATE_RANGES.has(range)) return undefined;
      return range;
    },
  };
}

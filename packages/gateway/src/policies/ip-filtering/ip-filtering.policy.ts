import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { definePolicy, deny } from '../policy.js';
import type { PolicyContext } from '../policy.js';

/** The error key of a refused address; publishers can template it. */
export const IP_FILTERING_FORBIDDEN = 'IP_FILTERING_FORBIDDEN';

const ADDRESS_OR_CIDR_MESSAGE =
  'Must be an IPv4 or IPv6 address, or a CIDR range (10.0.0.0/8, 2001:db8::/32)';

/** `1.2.3.4`, `10.0.0.0/8`, `::1`, `2001:db8::/32` -> address, family and prefix length; undefined when invalid. */
function parseRange(value: string): { address: string; family: 'ipv4' | 'ipv6'; prefix: number } | undefined {
  const [address = '', prefixText, ...rest] = value.trim().split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return undefined;
  const bits = version === 4 ? 32 : 128;
  if (prefixText === undefined) return { address, family: version === 4 ? 'ipv4' : 'ipv6', prefix: bits };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return undefined;
  return { address, family: version === 4 ? 'ipv4' : 'ipv6', prefix: Number(prefixText) };
}

const AddressOrRange = z
  .string()
  .refine((v) => parseRange(v) !== undefined, { message: ADDRESS_OR_CIDR_MESSAGE })
  .describe('IPv4 or IPv6 address, or CIDR range');

export const IpFilteringConfig = z.object({
  // Only behind a proxy that sets the header: clients can send any value.
  useXForwardedFor: z
    .boolean()
    .default(false)
    .describe("Checks the first X-Forwarded-For address instead of the connection's"),
  matchAllFromXForwardedFor: z
    .boolean()
    .default(false)
    .describe('Checks every X-Forwarded-For address (the client and each proxy): each must be allowed'),
  whitelistIps: z
    .array(AddressOrRange)
    .default([])
    .describe('When not empty, only these addresses and ranges are allowed'),
  blacklistIps: z
    .array(AddressOrRange)
    .default([])
    .describe('These addresses and ranges are refused, even when whitelisted'),
});
export type IpFilteringConfig = z.infer<typeof IpFilteringConfig>;

interface Lists {
  whitelist: BlockList | undefined;
  blacklist: BlockList;
}

const compiled = new WeakMap<IpFilteringConfig, Lists>();

function blockList(ranges: string[]): BlockList {
  const list = new BlockList();
  for (const value of ranges) {
    const range = parseRange(value)!;
    list.addSubnet(range.address, range.prefix, range.family);
  }
  return list;
}

function listsOf(config: IpFilteringConfig): Lists {
  let lists = compiled.get(config);
  if (!lists) {
    lists = {
      whitelist: config.whitelistIps.length > 0 ? blockList(config.whitelistIps) : undefined,
      blacklist: blockList(config.blacklistIps),
    };
    compiled.set(config, lists);
  }
  return lists;
}

/** An `X-Forwarded-For` entry without port or brackets: `[2001:db8::1]:443` -> `2001:db8::1`. */
function bareAddress(entry: string): string {
  const value = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1]!;
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(value);
  return withPort ? withPort[1]! : value;
}

function forwardedFor(ctx: PolicyContext): string[] {
  const header = ctx.request.headers['x-forwarded-for'];
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text
    .split(',')
    .map(bareAddress)
    .filter((a) => a.length > 0);
}

/** The addresses to check: the connection's, or those of `X-Forwarded-For` as configured. */
function addressesToCheck(ctx: PolicyContext, config: IpFilteringConfig): string[] {
  const forwarded = config.useXForwardedFor || config.matchAllFromXForwardedFor ? forwardedFor(ctx) : [];
  if (forwarded.length === 0) return [ctx.request.remoteAddress];
  return config.matchAllFromXForwardedFor ? forwarded : [forwarded[0]!];
}

function contains(list: BlockList, address: string): boolean {
  const version = isIP(address);
  return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

export const ipFiltering = definePolicy({
  id: 'ip-filtering',
  name: 'IP filtering',
  description: 'Allows (whitelist) or refuses (blacklist) clients by IPv4 or IPv6 address or CIDR range.',
  configSchema: IpFilteringConfig,
  writesNoInputIntoHeaders: true,
  onRequest(ctx, config) {
    const { whitelist, blacklist } = listsOf(config);
    const addresses = addressesToCheck(ctx, config);
    // An address that cannot be parsed is never whitelisted, so it is refused by a whitelist.
    const refused = addresses.some(
      (address) => contains(blacklist, address) || (whitelist !== undefined && !contains(whitelist, address)),
    );
    if (refused) {
      return deny(
        403,
        IP_FILTERING_FORBIDDEN,
        `Your IP (${addresses[0]}) or some proxies whereby your request passes through are not allowed to reach this resource.`,
      );
    }
  },
});

import { describe, expect, it } from 'vitest';
import { createOutboundPolicy } from './policy.js';

const REFUSED_BY_DEFAULT = [
  ['127.0.0.1', 'loopback'],
  ['127.8.9.10', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['169.254.169.254', 'linkLocal'],
  ['0.0.0.0', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['192.0.2.1', 'reserved'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'linkLocal'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  ['ff02::1', 'multicast'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:169.254.169.254', 'linkLocal'],
  ['::ffff:10.0.0.1', 'private'],
  ['::127.0.0.1', 'loopback'],
  ['64:ff9b::a9fe:a9fe', 'linkLocal'],
  ['2002:7f00:1::', 'loopback'],
  ['[::1]', 'loopback'],
] as const;

describe('outbound policy', () => {
  describe('by default', () => {
    const policy = createOutboundPolicy();

    it.each(REFUSED_BY_DEFAULT)('refuses %s (%s)', (address, range) => {
      expect(policy.refusal(address)).toBe(range);
    });

    it('allows public addresses', () => {
      expect(policy.refusal('8.8.8.8')).toBeUndefined();
      expect(policy.refusal('93.184.216.34')).toBeUndefined();
      expect(policy.refusal('2606:4700:4700::1111')).toBeUndefined();
      expect(policy.refusal('::ffff:8.8.8.8')).toBeUndefined();
    });

    it('allows no host name by itself', () => {
      expect(policy.allowsHost('localhost')).toBe(false);
    });
  });

  describe('allowPrivate', () => {
    const policy = createOutboundPolicy({ allowPrivate: true });

    it('opens loopback, RFC 1918, carrier-grade NAT and unique-local addresses', () => {
      for (const address of [
        '127.0.0.1',
        '10.1.2.3',
        '192.168.1.1',
        '100.64.0.1',
        '::1',
        'fd00::1',
        '::ffff:10.0.0.1',
      ]) {
        expect(policy.refusal(address), address).toBeUndefined();
      }
    });

    it('still refuses link-local (cloud metadata), unspecified and multicast addresses', () => {
      expect(policy.refusal('169.254.169.254')).toBe('linkLocal');
      expect(policy.refusal('::ffff:169.254.169.254')).toBe('linkLocal');
      expect(policy.refusal('fe80::1')).toBe('linkLocal');
      expect(policy.refusal('0.0.0.0')).toBe('unspecified');
      expect(policy.refusal('224.0.0.1')).toBe('multicast');
    });
  });

  describe('allowed list', () => {
    const policy = createOutboundPolicy({
      allowed: ['backend.internal', '*.corp.example', '10.0.0.0/8', '169.254.169.254', 'fd00::/8'],
    });

    it('allows the listed ranges and addresses, IPv4-mapped forms included, and nothing next to them', () => {
      expect(policy.refusal('10.20.30.40')).toBeUndefined();
      expect(policy.refusal('::ffff:10.20.30.40')).toBeUndefined();
      expect(policy.refusal('169.254.169.254')).toBeUndefined();
      expect(policy.refusal('fd00::5')).toBeUndefined();
      expect(policy.refusal('169.254.169.253')).toBe('linkLocal');
      expect(policy.refusal('192.168.0.1')).toBe('private');
    });

    it('allows the listed host names and the subdomains of a wildcard, in any case', () => {
      expect(policy.allowsHost('backend.internal')).toBe(true);
      expect(policy.allowsHost('Backend.Internal.')).toBe(true);
      expect(policy.allowsHost('api.corp.example')).toBe(true);
      expect(policy.allowsHost('corp.example')).toBe(false);
      expect(policy.allowsHost('other.internal')).toBe(false);
    });

    it('refuses an entry that is neither a host name, an address nor a range, naming it', () => {
      expect(() => createOutboundPolicy({ allowed: ['10.0.0.0/99'] })).toThrow('"10.0.0.0/99"');
      expect(() => createOutboundPolicy({ allowed: ['http://x'] })).toThrow('"http://x"');
    });
  });
});

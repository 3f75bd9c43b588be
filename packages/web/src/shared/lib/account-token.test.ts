import { describe, expect, it } from 'vitest';
import { readAccountLink } from './account-token';
import { TokenDecodeError, decodeJwtPayload, isExpired } from './jwt';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (payload: unknown) => `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}.signature`;
const NOW = Date.UTC(2030, 0, 1);

describe('account links', () => {
  it('decode the claims that prefill the form (UTF-8 names)', () => {
    const claims = decodeJwtPayload(
      jwt({ firstname: 'Zoë', lastname: 'Ørsted', email: 'zoe@example.com', sub: 'u1' }),
    );
    expect(claims).toMatchObject({
      firstname: 'Zoë',
      lastname: 'Ørsted',
      email: 'zoe@example.com',
      sub: 'u1',
    });
  });

  it('say when the link is expired', () => {
    expect(readAccountLink(jwt({ exp: NOW / 1000 - 1 }), NOW).problem).toBe('expired');
    expect(readAccountLink(jwt({ exp: NOW / 1000 + 60 }), NOW).problem).toBeUndefined();
    expect(isExpired({}, NOW)).toBe(false);
  });

  it('say why a token can not be decoded', () => {
    expect(readAccountLink('not-a-jwt').problem).toBe('parts');
    expect(readAccountLink('a.%%%.c').problem).toBe('base64');
    expect(readAccountLink(`a.${Buffer.from('{oops').toString('base64url')}.c`).problem).toBe('json');
    expect(readAccountLink(`a.${Buffer.from('[1]').toString('base64url')}.c`).problem).toBe('object');
    expect(() => decodeJwtPayload('x')).toThrow(TokenDecodeError);
  });
});

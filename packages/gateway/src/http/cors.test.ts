import { describe, expect, it } from 'vitest';
import { Cors } from '@portico/model';
import { corsHeaders, preflight } from './cors.js';

const cors = (fields: Partial<Cors>) =>
  Cors.parse({ enabled: true, allowMethods: ['GET', 'POST'], ...fields });

describe('CORS of an API at the gateway', () => {
  it('answers a preflight with the configured methods, headers, max age and credentials', () => {
    const answer = preflight(
      cors({
        allowOrigin: ['https://shop.example.com'],
        allowHeaders: ['X-Trace', 'Content-Type'],
        maxAge: 600,
        allowCredentials: true,
      }),
      'https://shop.example.com',
      { 'access-control-request-method': 'POST' },
    );
    expect(answer).toEqual({
      status: 200,
      headers: {
        'access-control-allow-origin': 'https://shop.example.com',
        vary: 'Origin',
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'X-Trace, Content-Type',
        'access-control-max-age': '600',
      },
    });
  });

  it('matches an allowed origin written as a regular expression against the whole origin', () => {
    const regex = cors({ allowOrigin: ['https://.*\\.example\\.com'] });
    expect(corsHeaders(regex, 'https://a.example.com')['access-control-allow-origin']).toBe(
      'https://a.example.com',
    );
    expect(corsHeaders(regex, 'https://a.example.com.evil.io')).toEqual({});
    expect(corsHeaders(regex, 'https://aexample.com')).toEqual({});
    // A `*` wildcard keeps working, an invalid expression allows nothing but itself.
    expect(corsHeaders(cors({ allowOrigin: ['https://*.shop.io'] }), 'https://eu.shop.io')).not.toEqual({});
    expect(corsHeaders(cors({ allowOrigin: ['https://(x'] }), 'https://x')).toEqual({});
  });

  it('refuses a preflight of another origin or a method not allowed; -1 sends no max age', () => {
    const c = cors({ allowOrigin: ['https://shop.example.com'] });
    expect(preflight(c, 'https://other.example.com', { 'access-control-request-method': 'GET' }).status).toBe(
      400,
    );
    expect(
      preflight(c, 'https://shop.example.com', { 'access-control-request-method': 'DELETE' }).status,
    ).toBe(400);
    const wildcard = preflight(cors({}), 'https://any.io', { 'access-control-request-method': 'GET' });
    expect(wildcard.headers['access-control-allow-origin']).toBe('*');
    expect(wildcard.headers['access-control-max-age']).toBeUndefined();
  });
});

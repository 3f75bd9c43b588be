import { describe, expect, it } from 'vitest';
import { headerPairProblems } from './proxy-model';
import {
  DEFAULT_CORS,
  corsProblems,
  failoverOf,
  failoverProblems,
  failoverValues,
  originValid,
  templateProblems,
  withTemplates,
} from './settings-model';

describe('proxy settings rules', () => {
  it('CORS: origins and methods required when enabled, origins or regular expressions, max age from -1', () => {
    expect(corsProblems(DEFAULT_CORS)).toEqual({});
    const on = { ...DEFAULT_CORS, enabled: true };
    expect(corsProblems(on)).toEqual({ allowMethods: 'required' });
    expect(corsProblems({ ...on, allowOrigin: [], allowMethods: ['GET'], maxAge: undefined })).toEqual({
      allowOrigin: 'required',
      maxAge: 'required',
    });
    expect(corsProblems({ ...on, allowMethods: ['GET'], maxAge: -2 })).toEqual({ maxAge: 'maxAge' });
    expect(originValid('https://shop.example.com:8443')).toBe(true);
    expect(originValid('https://.*\\.example\\.com')).toBe(true);
    expect(originValid('https://a.example.com/(x')).toBe(false);
    expect(originValid('not an origin')).toBe(false);
    expect(corsProblems({ ...on, allowOrigin: ['not an origin'], allowMethods: ['GET'] })).toEqual({
      allowOrigin: 'origin',
    });
  });

  it('failover: attempts and timeout at least 1 when enabled; disabled keeps none', () => {
    const values = failoverValues(undefined);
    expect(values).toEqual({ enabled: false, maxAttempts: 1, retryTimeout: 10000, cases: ['TIMEOUT'] });
    expect(failoverOf(values)).toBeUndefined();
    const on = { ...values, enabled: true, maxAttempts: 0, retryTimeout: undefined };
    expect(failoverProblems(on)).toEqual({ maxAttempts: 'min1', retryTimeout: 'required' });
    expect(failoverOf({ ...on, maxAttempts: 3, retryTimeout: 500 })).toEqual({
      maxAttempts: 3,
      retryTimeout: 500,
      cases: ['TIMEOUT'],
    });
  });

  it('response templates: key, type and status required, each type and header once; none deletes the key', () => {
    const all = { API_KEY_MISSING: { '*/*': { status: 401, headers: {}, body: '' } } };
    const template = { contentType: 'application/json', status: 429, headers: [], body: '{}' };
    expect(templateProblems(all, 'API_KEY_MISSING', true, [template])).toEqual({ key: 'keyTaken' });
    expect(
      templateProblems(all, '', true, [
        template,
        {
          ...template,
          contentType: 'Application/JSON',
          status: 700,
          headers: [
            ['X-A', '1'],
            ['x-a', ''],
          ],
        },
      ]),
    ).toEqual({
      key: 'required',
      '1.contentType': 'duplicateType',
      '1.status': 'status',
      '1.headers.1.name': 'duplicateHeader',
      '1.headers.1.value': 'required',
    });
    const saved = withTemplates(all, undefined, 'RATE_LIMIT_TOO_MANY_REQUESTS', [
      { ...template, headers: [['Retry-After', '60']] },
    ]);
    expect(saved.RATE_LIMIT_TOO_MANY_REQUESTS).toEqual({
      'application/json': { status: 429, headers: { 'Retry-After': '60' }, body: '{}' },
    });
    expect(withTemplates(saved, 'API_KEY_MISSING', 'API_KEY_MISSING', [])).toEqual({
      RATE_LIMIT_TOO_MANY_REQUESTS: saved.RATE_LIMIT_TOO_MANY_REQUESTS,
    });
  });

  it('HTTP configuration headers: a name given twice in any case is refused, not merged', () => {
    expect(
      headerPairProblems([
        ['X-Env', 'a'],
        ['x-env', 'b'],
        ['', 'c'],
      ]),
    ).toEqual({ 'headers.1.name': 'duplicateHeader', 'headers.2.name': 'required' });
  });
});

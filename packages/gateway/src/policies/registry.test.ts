import { describe, expect, it } from 'vitest';
import { POLICIES, describePolicy, validatePolicyConfiguration } from './registry.js';

describe('policy registry', () => {
  it('registers the policies of the gateway by id', () => {
    expect([...POLICIES.keys()].sort()).toEqual([
      'assign-content',
      'cache',
      'ip-filtering',
      'json-validation',
      'latency',
      'mock',
      'override-http-method',
      'quota',
      'rate-limit',
      'request-content-limit',
      'resource-filtering',
      'transform-headers',
      'transform-queryparams',
      'url-rewriting',
    ]);
  });

  it('lets only the policies that put no request, backend or template value into a header skip the check for line breaks', () => {
    const skipping = [...POLICIES.values()].filter((p) => p.writesNoInputIntoHeaders).map((p) => p.id);
    expect(skipping.sort()).toEqual([
      'ip-filtering',
      'json-validation',
      'latency',
      'override-http-method',
      'quota',
      'rate-limit',
      'request-content-limit',
      'resource-filtering',
    ]);
  });

  it.each([...POLICIES.values()])(
    'describes $id with a name, a description and a JSON schema object',
    (policy) => {
      const description = describePolicy(policy);
      expect(description.id).toBe(policy.id);
      expect(description.name).not.toBe('');
      expect(description.description).not.toBe('');
      expect(description.schema).toMatchObject({ type: 'object', properties: expect.any(Object) });
      // Served as JSON to the console.
      expect(JSON.parse(JSON.stringify(description.schema))).toEqual(description.schema);
    },
  );

  it('refuses a value of the wrong type, naming the field path', () => {
    expect(validatePolicyConfiguration('rate-limit', { rate: { limit: 'ten' } })).toMatchObject({
      ok: false,
      field: 'rate.limit',
    });
    expect(validatePolicyConfiguration('cache', { timeToLiveSeconds: '60' })).toMatchObject({
      ok: false,
      field: 'timeToLiveSeconds',
    });
    expect(
      validatePolicyConfiguration('transform-queryparams', { addQueryParameters: [{ name: 'a', value: 1 }] }),
    ).toMatchObject({ ok: false, field: 'addQueryParameters.0.value' });
  });

  it('fills in defaults of a valid configuration', () => {
    expect(validatePolicyConfiguration('cache', {})).toEqual({
      ok: true,
      config: {
        cacheName: '',
        key: '',
        timeToLiveSeconds: 600,
        useResponseCacheHeaders: false,
        scope: 'APPLICATION',
        methods: ['GET', 'HEAD'],
      },
    });
  });

  it('refuses an unknown policy', () => {
    expect(validatePolicyConfiguration('teleport', {})).toEqual({
      ok: false,
      field: '',
      message: 'Unknown policy teleport',
    });
  });
});

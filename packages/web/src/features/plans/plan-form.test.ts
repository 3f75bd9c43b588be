import { describe, expect, it } from 'vitest';
import type { Plan, PolicyDescription } from './api/types';
import { formValuesOf, planErrors, planInputOf } from './components/plan-wizard/plan-form';

const plan = (changes: Partial<Plan> = {}): Plan => ({
  id: 'p1',
  api: 'a1',
  name: 'Gold plan',
  description: 'For partners',
  validation: 'MANUAL',
  security: 'API_KEY',
  securityDefinition: '{"propagateApiKey":true}',
  status: 'STAGING',
  order: 1,
  characteristics: ['Support'],
  type: 'API',
  paths: {
    '/': [
      { enabled: true, 'rate-limit': { rate: { limit: 10, periodTime: 1, periodTimeUnit: 'SECONDS' } } },
      { enabled: false, description: 'Latency for tests', latency: { time: 100 } },
      { enabled: true, methods: ['GET'], quota: { quota: { limit: 1000 } } },
    ],
    '/admin': [{ enabled: true, 'ip-filtering': { whitelistIps: ['10.0.0.1'] } }],
  },
  comment_required: false,
  comment_message: null,
  excluded_groups: [],
  tags: [],
  created_at: 1,
  updated_at: 1,
  published_at: null,
  closed_at: null,
  ...changes,
});

const policies = new Map<string, PolicyDescription>([
  [
    'latency',
    {
      id: 'latency',
      name: 'Latency',
      description: '',
      schema: { type: 'object', properties: { time: { type: 'integer', minimum: 0 } }, required: ['time'] },
    },
  ],
]);

describe('the plan wizard', () => {
  it('splits the plan\'s "/" path into its restrictions and its policy chain', () => {
    const values = formValuesOf(plan());
    expect(values.restrictions['rate-limit']).toEqual({
      enabled: true,
      methods: [],
      configuration: { rate: { limit: 10, periodTime: 1, periodTimeUnit: 'SECONDS' } },
    });
    expect(values.restrictions.quota.methods).toEqual(['GET']);
    expect(values.restrictions['resource-filtering'].enabled).toBe(false);
    expect(values.policies.map((p) => [p.policy, p.enabled, p.description])).toEqual([
      ['latency', false, 'Latency for tests'],
    ]);
    expect(values.securityConfig).toEqual({ propagateApiKey: true });
  });

  it('saves the restrictions first, then the chain, and keeps the other paths as they were', () => {
    const input = planInputOf(formValuesOf(plan()), plan());
    expect(input.paths['/']).toEqual([
      { enabled: true, 'rate-limit': { rate: { limit: 10, periodTime: 1, periodTimeUnit: 'SECONDS' } } },
      { enabled: true, methods: ['GET'], quota: { quota: { limit: 1000 } } },
      { enabled: false, description: 'Latency for tests', latency: { time: 100 } },
    ]);
    expect(input.paths['/admin']).toEqual(plan().paths['/admin']);
    expect(input.securityDefinition).toBe('{"propagateApiKey":true}');
  });

  it('drops a restriction switched off', () => {
    const values = formValuesOf(plan());
    values.restrictions['rate-limit'].enabled = false;
    expect(planInputOf(values, plan()).paths['/']!.some((step) => 'rate-limit' in step)).toBe(false);
  });

  it('makes a key-less plan validated automatically, without security configuration', () => {
    const values = {
      ...formValuesOf(undefined),
      name: 'Open',
      description: 'Free',
      security: 'KEY_LESS' as const,
    };
    values.validation = 'MANUAL';
    values.securityConfig = { anything: true };
    const input = planInputOf(values);
    expect(input.validation).toBe('AUTO');
    expect(input.securityDefinition).toBeNull();
    expect(input.paths).toEqual({});
  });

  describe('rules', () => {
    const schemas = { security: undefined, policies };

    it('asks a name of 4 to 50 characters at creation, of 1 to 50 on edit', () => {
      const values = { ...formValuesOf(plan()), name: 'Gol' };
      expect(planErrors(values, 'create', schemas).name).toBe('plans.validation.nameTooShort');
      expect(planErrors(values, 'edit', schemas).name).toBeUndefined();
      expect(planErrors({ ...values, name: 'x'.repeat(51) }, 'edit', schemas).name).toBe(
        'plans.validation.nameTooLong',
      );
      expect(planErrors({ ...values, name: ' ' }, 'edit', schemas).name).toBe(
        'plans.validation.nameRequired',
      );
    });

    it('limits the comment message to 64 characters and asks a description and a security type', () => {
      const values = { ...formValuesOf(undefined), comment_message: 'x'.repeat(65) };
      expect(planErrors(values, 'create', schemas)).toMatchObject({
        description: 'plans.validation.descriptionRequired',
        comment_message: 'plans.validation.commentMessageTooLong',
        security: 'plans.validation.securityRequired',
      });
    });

    it("checks each policy's configuration against its schema", () => {
      const values = formValuesOf(plan());
      expect(planErrors(values, 'edit', schemas)['policies.0']).toBeUndefined();
      values.policies[0]!.configuration = {};
      expect(planErrors(values, 'edit', schemas)['policies.0']).toBe('plans.validation.configurationInvalid');
    });
  });
});

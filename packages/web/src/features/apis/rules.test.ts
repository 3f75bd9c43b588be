import { describe, expect, it } from 'vitest';
import { toApiPermissions } from '../../shared/session/api-permissions';
import { planPaths } from './api/create-api';
import { exportFileName } from './api/import-export';
import { comparable, currentPayload, olderFirst } from './components/history/history-page';
import type { HistoryEntry } from './components/history/history-page';
import { eventLook } from './components/history/events-page';
import {
  contextPathSchema,
  gatewayStepSchema,
  importFileKind,
  metadataValueFits,
  pageTypeOf,
  planStepSchema,
  qualityOf,
  truncate,
} from './rules';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => i.message);

describe('creation rules', () => {
  it('context path: required, more than 3 characters, a / then letters, digits, . / - _', () => {
    expect(messages(contextPathSchema.safeParse(''))).toEqual(['apis.validation.contextPathRequired']);
    expect(messages(contextPathSchema.safeParse('/a'))).toEqual(['apis.validation.contextPathTooShort']);
    expect(messages(contextPathSchema.safeParse('orders'))).toEqual(['apis.validation.contextPathInvalid']);
    expect(messages(contextPathSchema.safeParse('/orders api'))).toEqual([
      'apis.validation.contextPathInvalid',
    ]);
    expect(contextPathSchema.safeParse('/orders/v1.2_beta-x').success).toBe(true);
  });

  it('backend: required and an http(s) URL', () => {
    expect(messages(gatewayStepSchema.safeParse({ endpoint: '' }))).toEqual([
      'apis.validation.endpointRequired',
    ]);
    expect(messages(gatewayStepSchema.safeParse({ endpoint: 'ftp://x' }))).toEqual([
      'apis.validation.endpointInvalid',
    ]);
    expect(gatewayStepSchema.safeParse({ endpoint: 'https://backend.example.com/v1' }).success).toBe(true);
  });

  it('plan: name 4 to 50, limit, period and unit together', () => {
    const plan = {
      name: 'Gold',
      security: 'API_KEY',
      description: 'x',
      rateLimit: { limit: 10, periodTime: '' as const, periodTimeUnit: null },
      quota: { limit: '' as const, periodTime: '' as const, periodTimeUnit: null },
      paths: [],
    };
    expect(messages(planStepSchema.safeParse(plan))).toEqual([
      'apis.validation.limitRequired',
      'apis.validation.limitRequired',
    ]);
    expect(messages(planStepSchema.safeParse({ ...plan, name: 'Gol', rateLimit: plan.quota }))).toEqual([
      'apis.validation.planNameTooShort',
    ]);
    expect(
      planStepSchema.safeParse({
        ...plan,
        rateLimit: { limit: 10, periodTime: 1, periodTimeUnit: 'SECONDS' },
      }).success,
    ).toBe(true);
  });

  it('plan policies: rate limit, quota and path authorization on the root path; patterns without text dropped', () => {
    expect(
      planPaths({
        name: 'n',
        security: 'KEY_LESS',
        description: 'd',
        paths: [{ pattern: ' ', methods: [] }],
      }),
    ).toEqual({});
    const paths = planPaths({
      name: 'n',
      security: 'KEY_LESS',
      description: 'd',
      rateLimit: { limit: 10, periodTime: 1, periodTimeUnit: 'SECONDS' },
      quota: { limit: 1000, periodTime: 1, periodTimeUnit: 'DAYS' },
      paths: [
        { pattern: '/orders/**', methods: [] },
        { pattern: '', methods: ['GET'] },
      ],
    });
    expect(paths['/']).toEqual([
      {
        enabled: true,
        'rate-limit': { rate: { limit: 10, periodTime: 1, periodTimeUnit: 'SECONDS' }, addHeaders: true },
      },
      {
        enabled: true,
        quota: { quota: { limit: 1000, periodTime: 1, periodTimeUnit: 'DAYS' }, addHeaders: true },
      },
      {
        enabled: true,
        'resource-filtering': { whitelist: [{ pattern: '/orders/**', methods: [] }], blacklist: [] },
      },
    ]);
  });

  it('documentation: Markdown and OpenAPI files only', () => {
    expect(pageTypeOf('README.md')).toBe('MARKDOWN');
    expect(pageTypeOf('openapi.YAML')).toBe('SWAGGER');
    expect(pageTypeOf('spec.json')).toBe('SWAGGER');
    expect(pageTypeOf('notes.txt')).toBeUndefined();
  });
});

describe('import and export', () => {
  it('yml/yaml are swagger; json by its keys; anything else refused', () => {
    expect(importFileKind('a.yml', 'x')).toEqual({ kind: 'swagger' });
    expect(importFileKind('a.json', '{"openapi":"3.0.0"}')).toEqual({ kind: 'swagger' });
    expect(importFileKind('a.json', '{"swaggerVersion":"1.2"}')).toEqual({ kind: 'swagger' });
    expect(importFileKind('a.json', '{"name":"x","proxy":{}}')).toEqual({ kind: 'native' });
    expect(importFileKind('a.json', '{ nope')).toEqual({ error: 'invalidJson' });
    expect(importFileKind('a.xml', '<a/>')).toEqual({ error: 'invalidFile' });
  });

  it('names the export after the API name and version', () => {
    expect(exportFileName('Swagger Petstore', '1.0.0')).toBe('Swagger-Petstore-1.0.0.json');
    expect(exportFileName('Café API', 'v2 beta')).toBe('Cafe-API-v2-beta.json');
  });
});

describe('general page rules', () => {
  it('quality: floor of 100 times the score; bad below 50, medium below 80, good from 80', () => {
    expect(qualityOf(0.499)).toEqual({ percent: 49, level: 'bad' });
    expect(qualityOf(0.5)).toEqual({ percent: 50, level: 'medium' });
    expect(qualityOf(0.799)).toEqual({ percent: 79, level: 'medium' });
    expect(qualityOf(0.8)).toEqual({ percent: 80, level: 'good' });
  });

  it('description cut at 150 characters', () => {
    expect(truncate('x'.repeat(151))).toBe(`${'x'.repeat(150)}…`);
    expect(truncate('short')).toBe('short');
  });

  it('metadata values fit their format, or are an expression', () => {
    expect(metadataValueFits('NUMERIC', '12.34')).toBe(true);
    expect(metadataValueFits('NUMERIC', '12.345')).toBe(false);
    expect(metadataValueFits('MAIL', 'a@b.co')).toBe(true);
    expect(metadataValueFits('MAIL', 'nope')).toBe(false);
    expect(metadataValueFits('URL', 'https://example.com/x')).toBe(true);
    expect(metadataValueFits('URL', '${api.url}')).toBe(true);
    expect(metadataValueFits('STRING', 'anything')).toBe(true);
  });

  it('API permissions are kept lowercase, one per right', () => {
    expect(toApiPermissions({ DEFINITION: 'CRUD', MEMBER: 'R' })).toEqual([
      'api-definition-c',
      'api-definition-r',
      'api-definition-u',
      'api-definition-d',
      'api-member-r',
    ]);
  });
});

describe('history and events', () => {
  const entry = (id: string, kind: HistoryEntry['kind'], at: number): HistoryEntry => ({
    id,
    kind,
    number: 0,
    at,
    user: null,
    label: undefined,
    payload: { id: 'a', name: 'n', version: '1', description: null, visibility: 'PRIVATE', definition: {} },
  });

  it('puts the older entry left, the current API counting as the newest', () => {
    const v1 = entry('1', 'PUBLISH_API', 10);
    const v2 = entry('2', 'PUBLISH_API', 20);
    const now = entry('now', 'TO_DEPLOY', 5);
    expect(olderFirst(v2, v1).map((e) => e.id)).toEqual(['1', '2']);
    expect(olderFirst(now, v2).map((e) => e.id)).toEqual(['2', 'now']);
  });

  it('compares without instants nor running state, the description near the top', () => {
    const text = comparable({
      id: 'a',
      name: 'n',
      version: '1',
      description: 'd',
      visibility: 'PUBLIC',
      state: 'STARTED',
      deployed_at: 3,
      definition: { z: 1, a: { y: 1, b: 2 } },
    });
    expect(text).not.toContain('deployed_at');
    expect(text).not.toContain('STARTED');
    expect(
      text
        .split('\n')
        .slice(1, 6)
        .map((l) => l.trim().split(':')[0]),
    ).toEqual(['"id"', '"name"', '"version"', '"description"', '"visibility"']);
    expect(text.indexOf('"a"')).toBeLessThan(text.indexOf('"z"'));
  });

  it('builds the current API as a deployment would carry it', () => {
    const payload = currentPayload(
      {
        id: 'a',
        name: 'n',
        version: '1',
        description: 'd',
        visibility: 'PRIVATE',
        tags: [],
        proxy: { groups: [], strip_context_path: false, preserve_host: false },
        paths: {},
        properties: [],
        services: {},
        resources: [],
        path_mappings: [],
        response_templates: {},
      } as never,
      undefined,
    );
    expect(payload.definition).toMatchObject({ id: 'a', name: 'n', version: '1' });
    expect(payload.plans).toBeUndefined();
  });

  it('start: play (info), stop: stop (danger), others: check (info)', () => {
    expect(eventLook('START_API')).toEqual({ icon: 'play', color: 'blue' });
    expect(eventLook('STOP_API')).toEqual({ icon: 'stop', color: 'red' });
    expect(eventLook('PUBLISH_API')).toEqual({ icon: 'check', color: 'blue' });
  });
});

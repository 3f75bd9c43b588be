import { describe, expect, it } from 'vitest';
import type { JsonSchema } from './schema';
import { defaultValue, humanize, isValid, setAt, validate, withDefaults } from './schema';

/** The rate-limit policy's schema as the management API serves it (zod's toJSONSchema). */
const rateLimit: JsonSchema = {
  type: 'object',
  properties: {
    rate: {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 0, maximum: 9007199254740991 },
        periodTime: { default: 1, type: 'integer', minimum: 1 },
        periodTimeUnit: { default: 'SECONDS', type: 'string', enum: ['SECONDS', 'MINUTES'] },
        key: { default: '', type: 'string' },
      },
      required: ['limit'],
    },
    addHeaders: { default: true, type: 'boolean' },
  },
  required: ['rate'],
};

const headers: JsonSchema = {
  type: 'object',
  properties: {
    addHeaders: {
      default: [],
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1 }, value: { type: 'string' } },
        required: ['name', 'value'],
      },
    },
    methods: { minItems: 1, type: 'array', items: { type: 'string', enum: ['GET', 'HEAD'] } },
  },
};

describe('JSON schema of a configuration form', () => {
  describe('defaults', () => {
    it('fills each default, nested objects included, and leaves the others out', () => {
      expect(defaultValue(rateLimit)).toEqual({
        rate: { periodTime: 1, periodTimeUnit: 'SECONDS', key: '' },
        addHeaders: true,
      });
    });

    it('starts arrays empty unless they have a default', () => {
      expect(defaultValue(headers)).toEqual({ addHeaders: [], methods: [] });
    });

    it('completes a saved configuration with the defaults of the fields it lacks, keeping its values', () => {
      expect(withDefaults(rateLimit, { rate: { limit: 5, periodTimeUnit: 'MINUTES' } })).toEqual({
        rate: { limit: 5, periodTime: 1, periodTimeUnit: 'MINUTES', key: '' },
        addHeaders: true,
      });
    });
  });

  describe('validation', () => {
    it('reports a missing required field of a nested object by its path', () => {
      expect(validate(rateLimit, defaultValue(rateLimit))).toEqual([
        { path: 'rate.limit', message: 'required' },
      ]);
    });

    it('reports the required fields of a required object that is absent', () => {
      expect(validate(rateLimit, {})).toEqual([{ path: 'rate.limit', message: 'required' }]);
    });

    it('checks bounds, integers and enums', () => {
      expect(validate(rateLimit, { rate: { limit: -1 } })).toEqual([
        { path: 'rate.limit', message: 'min', values: { min: 0 } },
      ]);
      expect(validate(rateLimit, { rate: { limit: 1.5 } })[0]?.message).toBe('type');
      expect(validate(rateLimit, { rate: { limit: 1, periodTimeUnit: 'YEARS' } })).toEqual([
        { path: 'rate.periodTimeUnit', message: 'enum' },
      ]);
      expect(isValid(rateLimit, { rate: { limit: 10, periodTime: 1, periodTimeUnit: 'SECONDS' } })).toBe(
        true,
      );
    });

    it('checks each item of an array of objects, and the number of items', () => {
      expect(
        validate(headers, { addHeaders: [{ name: '', value: 'x' }, { name: 'a' }], methods: [] }),
      ).toEqual([
        { path: 'addHeaders.0.name', message: 'required' },
        { path: 'addHeaders.1.value', message: 'required' },
        { path: 'methods', message: 'minItems', values: { min: 1 } },
      ]);
    });

    it('reads a nullable field (anyOf with null) as the field itself', () => {
      const nullable: JsonSchema = {
        type: 'object',
        properties: { status: { anyOf: [{ type: 'integer', maximum: 599 }, { type: 'null' }] } },
      };
      expect(validate(nullable, { status: 600 })).toEqual([
        { path: 'status', message: 'max', values: { max: 599 } },
      ]);
      expect(validate(nullable, { status: null })).toEqual([]);
    });
  });

  it('names a field after its property: periodTimeUnit is "Period time unit"', () => {
    expect(humanize('periodTimeUnit')).toBe('Period time unit');
    expect(humanize('useXForwardedFor')).toBe('Use X forwarded for');
    expect(humanize('remove_headers')).toBe('Remove headers');
  });

  it('sets a value deep in a configuration without changing the original', () => {
    const original = { rate: { limit: 1 }, list: [{ a: 1 }] };
    expect(setAt(original, ['rate', 'limit'], 2)).toEqual({ rate: { limit: 2 }, list: [{ a: 1 }] });
    expect(setAt(original, ['list', 0, 'a'], 3)).toEqual({ rate: { limit: 1 }, list: [{ a: 3 }] });
    expect(setAt(original, ['rate', 'limit'], undefined)).toEqual({ rate: {}, list: [{ a: 1 }] });
    expect(original).toEqual({ rate: { limit: 1 }, list: [{ a: 1 }] });
  });
});

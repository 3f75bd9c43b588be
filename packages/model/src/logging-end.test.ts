import { describe, expect, it } from 'vitest';
import { boundLoggingCondition, loggingConditionEnd } from './logging-end.js';

const PLAN = "#context.plan == 'p1'";

describe('logging end time', () => {
  describe('boundLoggingCondition', () => {
    it('adds the end to a missing or empty condition', () => {
      expect(boundLoggingCondition(undefined, 1000)).toBe('#request.timestamp <= 1000');
      expect(boundLoggingCondition('  ', 1000)).toBe('#request.timestamp <= 1000');
    });

    it('puts the end in front of a condition without one', () => {
      expect(boundLoggingCondition(PLAN, 1000)).toBe(`#request.timestamp <= 1000 && (${PLAN})`);
      expect(boundLoggingCondition('true', 1000)).toBe('#request.timestamp <= 1000 && (true)');
    });

    it('clips a later end and keeps an earlier one, wherever it stands in the conjunction', () => {
      expect(boundLoggingCondition(`#request.timestamp <= 5000l && ${PLAN}`, 1000)).toBe(
        `#request.timestamp <= 1000 && (${PLAN})`,
      );
      expect(boundLoggingCondition(`(${PLAN}) && #request.timestamp <= 500`, 1000)).toBe(
        `#request.timestamp <= 500 && (${PLAN})`,
      );
      expect(boundLoggingCondition('#request.timestamp < 501', 1000)).toBe('#request.timestamp <= 500');
    });

    it('does not take an end under an || as the end of the whole condition', () => {
      const either = `#request.timestamp <= 5000 || ${PLAN}`;
      expect(boundLoggingCondition(either, 1000)).toBe(`#request.timestamp <= 1000 && (${either})`);
    });

    it('leaves && and || inside quotes and parentheses alone', () => {
      const quoted = "#request.headers['x'] == 'a && b || c' && (#request.method == 'GET' || true)";
      expect(boundLoggingCondition(quoted, 1000)).toBe(
        "#request.timestamp <= 1000 && (#request.headers['x'] == 'a && b || c') && (#request.method == 'GET' || true)",
      );
    });

    it('is stable: bounding twice gives the same condition', () => {
      const once = boundLoggingCondition(PLAN, 1000);
      expect(boundLoggingCondition(once, 1000)).toBe(once);
    });
  });

  describe('loggingConditionEnd', () => {
    it('reads the earliest end of a conjunction, in both spellings', () => {
      expect(loggingConditionEnd('#request.timestamp <= 2550166583090l')).toBe(2550166583090);
      expect(loggingConditionEnd(`request.timestamp <= 900 && ${PLAN} && #request.timestamp <= 700`)).toBe(
        700,
      );
    });

    it('has none without an end clause, or when the end is only one side of an ||', () => {
      expect(loggingConditionEnd(undefined)).toBeUndefined();
      expect(loggingConditionEnd(PLAN)).toBeUndefined();
      expect(loggingConditionEnd(`#request.timestamp <= 900 || ${PLAN}`)).toBeUndefined();
    });
  });
});

import { describe, expect, it } from 'vitest';
import {
  buildCondition,
  conditionEnd,
  conditionProblems,
  conditionsValid,
  newConditionRow,
} from './logging-condition';

const NOW = 1_700_000_000_000;

describe('logging condition builder', () => {
  it('writes each condition type and joins them with AND', () => {
    const rows = [
      { ...newConditionRow('plan'), key: 'plan-1' },
      { ...newConditionRow('application'), key: "o'app" },
      { ...newConditionRow('request-header'), key: 'X-Debug', value: 'on' },
      { ...newConditionRow('request-param'), key: 'trace', value: '1' },
      { ...newConditionRow('request-method'), key: 'POST' },
      { ...newConditionRow('remote-address'), key: ' 10.0.0.1 ' },
      { ...newConditionRow('logging-duration'), duration: 2, unit: 'HOURS' as const },
      { ...newConditionRow('logging-end-date'), end: NOW + 5000 },
    ];
    expect(buildCondition(rows, NOW).split(' && ')).toEqual([
      "#context.plan == 'plan-1'",
      "#context.application == 'o\\'app'",
      "#request.headers['x-debug'] == 'on'",
      "#request.params['trace'] == '1'",
      "#request.method == 'POST'",
      "#request.remoteAddress == '10.0.0.1'",
      `#request.timestamp <= ${NOW + 7_200_000}l`,
      `#request.timestamp <= ${NOW + 5000}l`,
    ]);
    expect(conditionEnd(buildCondition(rows, NOW))).toBe(NOW + 5000);
    expect(conditionEnd("#context.plan == 'p'")).toBeUndefined();
  });

  it('requires names, values, addresses, a duration of at least 1 with its unit, and a future end date', () => {
    expect(conditionProblems({ ...newConditionRow('request-header'), key: 'a' }, NOW)).toEqual({
      value: 'required',
    });
    expect(conditionProblems(newConditionRow('request-param'), NOW)).toEqual({
      key: 'required',
      value: 'required',
    });
    expect(conditionProblems(newConditionRow('remote-address'), NOW)).toEqual({ key: 'required' });
    expect(conditionProblems({ ...newConditionRow('logging-duration'), duration: 0 }, NOW)).toEqual({
      duration: 'durationMin',
    });
    expect(conditionProblems({ ...newConditionRow('logging-duration'), duration: 3, unit: '' }, NOW)).toEqual(
      {
        unit: 'required',
      },
    );
    expect(conditionProblems({ ...newConditionRow('logging-end-date'), end: NOW - 1 }, NOW)).toEqual({
      end: 'endPassed',
    });
    expect(conditionsValid([], NOW)).toBe(false);
    expect(conditionsValid([newConditionRow('request-method')], NOW)).toBe(true);
  });
});

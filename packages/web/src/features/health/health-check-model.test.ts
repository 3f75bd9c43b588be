import { describe, expect, it } from 'vitest';
import { checkProblems, cleanCheck, editableCheck, newCheck } from './health-check-model';

describe('health-check form rules', () => {
  it('names each broken field of an enabled check, and none of a disabled one', () => {
    const check = newCheck();
    check.trigger!.rate = 0;
    check.steps![0]!.request.path = ' ';
    check.steps![0]!.request.method = 'POST';
    check.steps![0]!.request.body = 'x'.repeat(1001);
    check.steps![0]!.request.headers = [{ name: 'X-A', value: '' }];
    check.steps![0]!.response.assertions = ['#response.status == 200', ''];
    expect(checkProblems(check)).toEqual({
      rate: 'rateMin',
      path: 'required',
      body: 'bodyMax',
      'header.0.value': 'required',
      'assertion.1': 'required',
    });
    expect(checkProblems({ ...check, enabled: false })).toEqual({});
    expect(checkProblems(newCheck())).toEqual({});
  });

  it('drops the trigger and steps of a disabled check and the body of a GET', () => {
    expect(cleanCheck({ ...newCheck(), enabled: false })).toEqual({ enabled: false });
    const get = newCheck();
    get.steps![0]!.request.body = 'ignored';
    expect(cleanCheck(get).steps![0]!.request.body).toBeUndefined();
    expect(editableCheck({ enabled: false }).steps).toEqual(newCheck().steps);
  });
});

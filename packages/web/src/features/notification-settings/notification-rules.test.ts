import { describe, expect, it } from 'vitest';
import {
  alertFormValues,
  alertSchema,
  hooksByCategory,
  newNotificationSchema,
  settingConfigError,
  toAlertInput,
} from './notification-rules';

const errors = (values: unknown) => {
  const result = alertSchema.safeParse(values);
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('notification rules (console-applications-and-settings.md 5 and 9)', () => {
  it('asks a name and a notifier for a new notification', () => {
    const result = newNotificationSchema.safeParse({ name: '  ', notifier: '' });
    expect(result.success ? [] : result.error.issues.map((i) => i.message)).toEqual([
      'notificationSettings.errors.nameRequired',
      'notificationSettings.errors.notifierRequired',
    ]);
    expect(newNotificationSchema.safeParse({ name: 'Ops', notifier: 'default-webhook' }).success).toBe(true);
  });

  it('needs a config unless the setting is of portal type', () => {
    expect(settingConfigError({ config_type: 'GENERIC' }, ' ')).toBe(
      'notificationSettings.errors.configRequired',
    );
    expect(settingConfigError({ config_type: 'GENERIC' }, 'ops@example.com')).toBeNull();
    expect(settingConfigError({ config_type: 'PORTAL' }, '')).toBeNull();
  });

  it('requires name, metric, threshold type and threshold, within the bounds of the threshold type', () => {
    expect(errors(alertFormValues())).toEqual({
      name: 'notificationSettings.errors.nameRequired',
      metricType: 'notificationSettings.errors.metricRequired',
      thresholdType: 'notificationSettings.errors.thresholdTypeRequired',
      threshold: 'notificationSettings.errors.thresholdRequired',
    });
    const valid = { name: 'Errors', metricType: 'STATUS_5XX', thresholdType: 'percent_rate', threshold: 100 };
    expect(errors(valid)).toEqual({});
    expect(errors({ ...valid, threshold: 100.5 })).toEqual({
      threshold: 'notificationSettings.errors.percentRange',
    });
    expect(errors({ ...valid, threshold: -1 })).toEqual({
      threshold: 'notificationSettings.errors.percentRange',
    });
    expect(errors({ ...valid, thresholdType: 'count', threshold: 1_000_000 })).toEqual({});
    expect(errors({ ...valid, thresholdType: 'count', threshold: 1_000_001 })).toEqual({
      threshold: 'notificationSettings.errors.countRange',
    });
  });

  it('starts a new alert on requests and sends a plan only where one applies', () => {
    expect(alertFormValues().type).toBe('request');
    const values = {
      ...alertFormValues(),
      name: ' Errors ',
      metricType: 'STATUS_5XX',
      thresholdType: 'count',
    };
    const withPlan = { ...values, threshold: 5, plan: 'gold' };
    expect(toAlertInput(withPlan, true)).toMatchObject({
      name: 'Errors',
      threshold: 5,
      plan: 'gold',
      description: null,
    });
    expect(toAlertInput(withPlan, false).plan).toBeNull();
  });

  it('groups the hooks by category in their order', () => {
    const hook = (id: string, category: string) => ({ id, label: id, description: '', category });
    expect(
      hooksByCategory([hook('A', 'X'), hook('B', 'Y'), hook('C', 'X')]).map(([c, l]) => [
        c,
        l.map((h) => h.id),
      ]),
    ).toEqual([
      ['X', ['A', 'C']],
      ['Y', ['B']],
    ]);
  });
});

import { z } from 'zod';
import type { Alert, AlertInput, Hook, NotificationSetting } from './api/notification-settings';

/** Threshold bounds (console-applications-and-settings.md 9: percent_rate 0 to 100, count 0 to 1,000,000). */
export const THRESHOLD_BOUNDS = {
  percent_rate: { min: 0, max: 100 },
  count: { min: 0, max: 1_000_000 },
} as const;

/** The New notification dialog: name and notifier required. */
export const newNotificationSchema = z.object({
  name: z.string().trim().min(1, 'notificationSettings.errors.nameRequired').max(256),
  notifier: z.string().min(1, 'notificationSettings.errors.notifierRequired'),
});

/** A setting needs a non-empty config unless it is of portal type (section 5). */
export const settingConfigError = (setting: Pick<NotificationSetting, 'config_type'>, config: string) =>
  setting.config_type !== 'PORTAL' && !config.trim() ? 'notificationSettings.errors.configRequired' : null;

export interface AlertFormValues {
  name: string;
  description: string;
  enabled: boolean;
  type: 'request' | 'health_check';
  metricType: string;
  thresholdType: string;
  threshold: number | string;
  plan: string;
}

/** Name, metric type, threshold type and threshold required; the threshold within its type's bounds. */
export const alertSchema = z
  .object({
    name: z.string().trim().min(1, 'notificationSettings.errors.nameRequired').max(256),
    metricType: z.string().min(1, 'notificationSettings.errors.metricRequired'),
    thresholdType: z.string().min(1, 'notificationSettings.errors.thresholdTypeRequired'),
    threshold: z.union([z.number(), z.string()]),
  })
  .superRefine((v, ctx) => {
    if (typeof v.threshold !== 'number' || Number.isNaN(v.threshold)) {
      ctx.addIssue({
        code: 'custom',
        path: ['threshold'],
        message: 'notificationSettings.errors.thresholdRequired',
      });
      return;
    }
    const bounds = THRESHOLD_BOUNDS[v.thresholdType as keyof typeof THRESHOLD_BOUNDS];
    if (bounds && (v.threshold < bounds.min || v.threshold > bounds.max))
      ctx.addIssue({
        code: 'custom',
        path: ['threshold'],
        message:
          v.thresholdType === 'percent_rate'
            ? 'notificationSettings.errors.percentRange'
            : 'notificationSettings.errors.countRange',
      });
  });

/** A blank alert is of type request ('new'). */
export const alertFormValues = (alert?: Alert): AlertFormValues => ({
  name: alert?.name ?? '',
  description: alert?.description ?? '',
  enabled: alert?.enabled ?? true,
  type: alert?.type ?? 'request',
  metricType: alert?.metricType ?? '',
  thresholdType: alert?.thresholdType ?? '',
  threshold: alert?.threshold ?? '',
  plan: alert?.plan ?? '',
});

export const toAlertInput = (v: AlertFormValues, withPlan: boolean): AlertInput => ({
  name: v.name.trim(),
  description: v.description.trim() || null,
  enabled: v.enabled,
  type: v.type,
  metricType: v.metricType,
  thresholdType: v.thresholdType as AlertInput['thresholdType'],
  threshold: Number(v.threshold),
  plan: withPlan && v.plan ? v.plan : null,
});

/** The hooks by category, categories in the order they first appear. */
export function hooksByCategory(hooks: readonly Hook[]): [string, Hook[]][] {
  const groups = new Map<string, Hook[]>();
  for (const hook of hooks) groups.set(hook.category, [...(groups.get(hook.category) ?? []), hook]);
  return [...groups.entries()];
}

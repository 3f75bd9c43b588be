import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';

/** Where notification settings and alerts live (console-applications-and-settings.md 7). */
export type NotificationScope =
  { type: 'API'; id: string } | { type: 'APPLICATION'; id: string } | { type: 'PORTAL' };

export interface Hook {
  id: string;
  label: string;
  description: string;
  category: string;
}

export interface Notifier {
  id: string;
  name: string;
  type: 'EMAIL' | 'WEBHOOK';
}

export interface NotificationSetting {
  id?: string;
  name: string;
  config_type: 'GENERIC' | 'PORTAL';
  referenceType?: string;
  referenceId?: string;
  notifier?: string | null;
  config?: string | null;
  useSystemProxy?: boolean;
  hooks: string[];
}

export interface AlertMetric {
  key: string;
  description: string;
  type: 'request' | 'health_check';
  thresholds: { key: 'percent_rate' | 'count'; description: string }[];
}

export interface Alert {
  id: string;
  name: string;
  description: string | null;
  enabled: boolean;
  type: 'request' | 'health_check';
  metricType: string;
  thresholdType: 'percent_rate' | 'count';
  threshold: number;
  plan: string | null;
  state: 'OK' | 'TRIGGERED';
  created_at: number;
  updated_at: number;
}

export type AlertInput = Omit<Alert, 'id' | 'state' | 'created_at' | 'updated_at'>;

export interface AlertEvent {
  state: 'TRIGGERED' | 'RESOLVED';
  value: number;
  threshold: number;
  message: string;
  created_at: number;
}

/** `apis/{id}`, `applications/{id}` or `configuration`. */
export const scopeBase = (scope: NotificationScope) =>
  scope.type === 'API'
    ? `apis/${encodeURIComponent(scope.id)}`
    : scope.type === 'APPLICATION'
      ? `applications/${encodeURIComponent(scope.id)}`
      : 'configuration';

const hooksPath = (scope: NotificationScope) =>
  scope.type === 'API'
    ? 'apis/hooks'
    : scope.type === 'APPLICATION'
      ? 'applications/hooks'
      : 'configuration/hooks';

export const notificationKeys = {
  all: (scope: NotificationScope) => ['notification-settings', scopeBase(scope)] as const,
  settings: (scope: NotificationScope) => [...notificationKeys.all(scope), 'settings'] as const,
  alerts: (scope: NotificationScope) => [...notificationKeys.all(scope), 'alerts'] as const,
};

export const useHooks = (scope: NotificationScope) =>
  useQuery({
    queryKey: ['notification-settings', 'hooks', scope.type],
    queryFn: ({ signal }) => http.get<Hook[]>(hooksPath(scope), { signal }),
    staleTime: 300_000,
  });

export const useNotifiers = (scope: NotificationScope) =>
  useQuery({
    queryKey: [...notificationKeys.all(scope), 'notifiers'],
    queryFn: ({ signal }) => http.get<Notifier[]>(`${scopeBase(scope)}/notifiers`, { signal }),
    staleTime: 300_000,
  });

export const useNotificationSettings = (scope: NotificationScope, enabled = true) =>
  useQuery({
    queryKey: notificationKeys.settings(scope),
    queryFn: ({ signal }) =>
      http.get<NotificationSetting[]>(`${scopeBase(scope)}/notificationsettings`, { signal }),
    enabled,
  });

function useSettingsMutation<V, R>(scope: NotificationScope, request: (value: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.settings(scope) }),
  });
}

/** `POST .../notificationsettings`. */
export const useCreateNotificationSetting = (scope: NotificationScope) =>
  useSettingsMutation(scope, (setting: NotificationSetting) =>
    http.post<NotificationSetting>(`${scopeBase(scope)}/notificationsettings`, setting),
  );

/** `PUT .../notificationsettings/{id}`, or without id the user's own portal setting. */
export const useSaveNotificationSetting = (scope: NotificationScope) =>
  useSettingsMutation(scope, (setting: NotificationSetting) =>
    http.put<NotificationSetting>(
      setting.id
        ? `${scopeBase(scope)}/notificationsettings/${encodeURIComponent(setting.id)}`
        : `${scopeBase(scope)}/notificationsettings`,
      setting,
    ),
  );

/** `DELETE .../notificationsettings/{id}`. */
export const useDeleteNotificationSetting = (scope: NotificationScope) =>
  useSettingsMutation(scope, (id: string) =>
    http.delete<void>(`${scopeBase(scope)}/notificationsettings/${encodeURIComponent(id)}`),
  );

export const useAlertMetrics = () =>
  useQuery({
    queryKey: ['alerts', 'metrics'],
    queryFn: ({ signal }) => http.get<AlertMetric[]>('alerts/metrics', { signal }),
    staleTime: 300_000,
  });

export const useAlerts = (scope: NotificationScope, enabled = true) =>
  useQuery({
    queryKey: notificationKeys.alerts(scope),
    queryFn: ({ signal }) => http.get<Alert[]>(`${scopeBase(scope)}/alerts`, { signal }),
    enabled,
  });

const alertPath = (scope: NotificationScope, id: string) =>
  `${scopeBase(scope)}/alerts/${encodeURIComponent(id)}`;

export const useAlertEvents = (scope: NotificationScope, alertId: string | undefined) =>
  useQuery({
    queryKey: [...notificationKeys.alerts(scope), alertId, 'events'],
    queryFn: ({ signal }) =>
      http.get<{ content: AlertEvent[]; totalElements: number }>(`${alertPath(scope, alertId!)}/events`, {
        signal,
        query: { page: 1, size: 20 },
      }),
    enabled: !!alertId,
  });

function useAlertsMutation<V, R>(scope: NotificationScope, request: (value: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.alerts(scope) }),
  });
}

/** `POST .../alerts` without id, `PUT .../alerts/{id}` with one. */
export const useSaveAlert = (scope: NotificationScope) =>
  useAlertsMutation(scope, ({ id, input }: { id?: string; input: AlertInput }) =>
    id ? http.put<Alert>(alertPath(scope, id), input) : http.post<Alert>(`${scopeBase(scope)}/alerts`, input),
  );

export const useDeleteAlert = (scope: NotificationScope) =>
  useAlertsMutation(scope, (id: string) => http.delete<void>(alertPath(scope, id)));

import { Badge, Button, Center, Grid, Loader, NavLink, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { NotificationScope } from '../api/notification-settings';
import {
  useAlertMetrics,
  useAlerts,
  useHooks,
  useNotificationSettings,
  useNotifiers,
} from '../api/notification-settings';
import { AlertForm } from './alert-form';
import { NewNotificationDialog } from './new-notification-dialog';
import { NotificationForm } from './notification-form';

const PREFIX: Record<NotificationScope['type'], string> = {
  API: 'api',
  APPLICATION: 'application',
  PORTAL: 'management',
};

/** The user's own portal setting has no id: `?notificationId=portal`. */
const PORTAL_ID = 'portal';

/**
 * Notification settings and alerts of an API, an application or the platform (console-apis.md 2.11,
 * console-applications-and-settings.md 2.1 and 2.3): the list on the left, the selected notification
 * (`?notificationId`) or alert (`?alertId`, 'new' for a blank one) on the right.
 */
export function NotificationsPage({
  scope,
  has,
}: {
  scope: NotificationScope;
  has: (permission: string) => boolean;
}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const p = PREFIX[scope.type];
  const canNotifications = has(`${p}-notification-r`);
  const canAlerts = has(`${p}-alert-r`);
  const settings = useNotificationSettings(scope, canNotifications);
  const alerts = useAlerts(scope, canAlerts);
  const hooks = useHooks(scope);
  const notifiers = useNotifiers(scope);
  const metrics = useAlertMetrics();
  const alertId = params.get('alertId');
  const notificationId = alertId
    ? null
    : (params.get('notificationId') ?? (canNotifications ? PORTAL_ID : null));

  const loading =
    (canNotifications && (settings.isPending || hooks.isPending || notifiers.isPending)) ||
    (canAlerts && (alerts.isPending || metrics.isPending));
  if (loading)
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );

  const list = settings.data ?? [];
  const setting = notificationId
    ? list.find((s) => (notificationId === PORTAL_ID ? s.config_type === 'PORTAL' : s.id === notificationId))
    : undefined;
  const alert = alertId && alertId !== 'new' ? alerts.data?.find((a) => a.id === alertId) : undefined;
  const notifierOf = (id: string | null | undefined) => notifiers.data?.find((n) => n.id === id);

  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          {t('notificationSettings.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('notificationSettings.hint')}
        </Text>
      </div>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="md">
            {canNotifications && (
              <Paper
                withBorder
                radius="md"
                p="sm"
                component="nav"
                aria-label={t('notificationSettings.listLabel')}
              >
                <Text fw={600} size="sm" mb="xs">
                  {t('notificationSettings.notifications')}
                </Text>
                {list.map((s) => {
                  const id = s.config_type === 'PORTAL' ? PORTAL_ID : s.id!;
                  const notifier = notifierOf(s.notifier);
                  return (
                    <NavLink
                      key={id}
                      component={Link}
                      to={`?notificationId=${encodeURIComponent(id)}`}
                      active={notificationId === id}
                      label={s.config_type === 'PORTAL' ? t('notificationSettings.portalName') : s.name}
                      description={
                        s.config_type === 'PORTAL'
                          ? t('notificationSettings.portalType')
                          : (notifier?.type ?? '')
                      }
                    />
                  );
                })}
                {has(`${p}-notification-c`) && (
                  <Button
                    variant="light"
                    size="xs"
                    mt="xs"
                    fullWidth
                    leftSection={<IconPlus size={14} aria-hidden />}
                    onClick={() => setCreating(true)}
                  >
                    {t('notificationSettings.newNotification')}
                  </Button>
                )}
              </Paper>
            )}
            {canAlerts && (
              <Paper
                withBorder
                radius="md"
                p="sm"
                component="nav"
                aria-label={t('notificationSettings.alertsLabel')}
              >
                <Text fw={600} size="sm" mb="xs">
                  {t('notificationSettings.alerts')}
                </Text>
                {(alerts.data ?? []).length === 0 && (
                  <Text size="sm" c="dimmed">
                    {t('notificationSettings.noAlert')}
                  </Text>
                )}
                {(alerts.data ?? []).map((a) => (
                  <NavLink
                    key={a.id}
                    component={Link}
                    to={`?alertId=${encodeURIComponent(a.id)}`}
                    active={alertId === a.id}
                    label={a.name}
                    description={a.enabled ? undefined : t('notificationSettings.alert.disabled')}
                    rightSection={
                      <Badge size="sm" variant="light" color={a.state === 'TRIGGERED' ? 'red' : 'green'}>
                        {t(`notificationSettings.alert.states.${a.state}`)}
                      </Badge>
                    }
                  />
                ))}
                {has(`${p}-alert-c`) && (
                  <Button
                    component={Link}
                    to="?alertId=new"
                    variant="light"
                    size="xs"
                    mt="xs"
                    fullWidth
                    leftSection={<IconPlus size={14} aria-hidden />}
                  >
                    {t('notificationSettings.newAlert')}
                  </Button>
                )}
              </Paper>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          {setting && (
            <NotificationForm
              key={`${setting.id ?? PORTAL_ID}-${settings.dataUpdatedAt}`}
              scope={scope}
              setting={setting}
              hooks={hooks.data ?? []}
              notifiers={notifiers.data ?? []}
              canUpdate={setting.config_type === 'PORTAL' || has(`${p}-notification-u`)}
              canDelete={has(`${p}-notification-d`)}
            />
          )}
          {canAlerts && alertId && (alertId === 'new' || alert) && (
            <AlertForm
              key={alert ? `${alert.id}-${alert.updated_at}` : 'new'}
              scope={scope}
              alert={alert}
              metrics={metrics.data ?? []}
              canSave={alert ? has(`${p}-alert-u`) || has(`${p}-alert-c`) : has(`${p}-alert-c`)}
              canDelete={has(`${p}-alert-d`)}
            />
          )}
        </Grid.Col>
      </Grid>
      <NewNotificationDialog
        scope={scope}
        notifiers={notifiers.data ?? []}
        opened={creating}
        onClose={() => setCreating(false)}
      />
    </Stack>
  );
}

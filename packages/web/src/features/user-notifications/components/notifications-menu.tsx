import {
  ActionIcon,
  Button,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconBell, IconBellRinging, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { humanDate } from '../../../shared/lib/dates';
import { useDeleteNotifications, useUserNotifications } from '../api/notifications';
import { desktopNotificationsSupported, useDesktopNotifications } from '../desktop-notifications';
import classes from './notifications-menu.module.css';

/** The bell of the top bar: the signed-in user's notifications, with delete one and delete all. */
export function NotificationsMenu() {
  const { t } = useTranslation();
  const query = useUserNotifications(true);
  const remove = useDeleteNotifications();
  const [permission, setPermission] = useState(() =>
    desktopNotificationsSupported() ? Notification.permission : 'denied',
  );
  useDesktopNotifications(query.data);
  const notifications = query.data?.data ?? [];
  const total = query.data?.page.total_elements ?? 0;

  return (
    <Popover position="bottom-end" width={360} shadow="md" withArrow trapFocus>
      {/* The popover's target is the button itself (its aria-expanded), not the indicator around it. */}
      <Indicator disabled={total === 0} label={total} size={16} color="red" offset={6} maxValue={99}>
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            radius="xl"
            aria-label={t('notifications.open', { total })}
          >
            <IconBell size={20} stroke={1.6} />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown p={0}>
        <Group justify="space-between" px="md" py="sm" className={classes.header}>
          <Text fw={600}>{t('notifications.title')}</Text>
          {notifications.length > 0 && (
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              onClick={() => remove.mutate(undefined)}
              loading={remove.isPending}
            >
              {t('notifications.deleteAll')}
            </Button>
          )}
        </Group>
        {notifications.length === 0 ? (
          <Text c="dimmed" size="sm" ta="center" py="lg">
            {t('notifications.empty')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={360}>
            <Stack gap={0} component="ul" className={classes.list} aria-label={t('notifications.title')}>
              {notifications.map((notification) => (
                <li key={notification.id} className={classes.item}>
                  <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                    <div>
                      <Text size="sm" fw={600}>
                        {notification.title}
                      </Text>
                      <Text size="sm">{notification.message}</Text>
                      <Text size="xs" c="dimmed">
                        {humanDate(notification.created_at)}
                      </Text>
                    </div>
                    <Tooltip label={t('notifications.delete')}>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={t('notifications.delete')}
                        onClick={() => remove.mutate(notification.id)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </li>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        {permission === 'default' && (
          <Group px="md" py="sm" className={classes.footer}>
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconBellRinging size={16} />}
              onClick={() => void Notification.requestPermission().then(setPermission)}
            >
              {t('notifications.enableDesktop')}
            </Button>
          </Group>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

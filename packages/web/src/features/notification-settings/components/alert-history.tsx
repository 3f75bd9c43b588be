import { Badge, Paper, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DateText } from '../../../shared/ui/date-text';
import type { NotificationScope } from '../api/notification-settings';
import { useAlertEvents } from '../api/notification-settings';

/** The last changes of an alert's state (`GET .../alerts/{id}/events`). */
export function AlertHistory({ scope, alertId }: { scope: NotificationScope; alertId: string }) {
  const { t } = useTranslation();
  const events = useAlertEvents(scope, alertId);
  const rows = events.data?.content ?? [];
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={3} size="h4" mb="sm">
        {t('notificationSettings.history.title')}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {events.isPending ? t('common.loading') : t('notificationSettings.history.empty')}
        </Text>
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('notificationSettings.history.date')}</Table.Th>
              <Table.Th>{t('notificationSettings.history.state')}</Table.Th>
              <Table.Th>{t('notificationSettings.history.value')}</Table.Th>
              <Table.Th>{t('notificationSettings.history.message')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((event) => (
              <Table.Tr key={`${event.created_at}-${event.state}`}>
                <Table.Td>
                  <DateText value={event.created_at} />
                </Table.Td>
                <Table.Td>
                  <Badge color={event.state === 'TRIGGERED' ? 'red' : 'green'} variant="light">
                    {t(`notificationSettings.history.states.${event.state}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {event.value} / {event.threshold}
                </Table.Td>
                <Table.Td>{event.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

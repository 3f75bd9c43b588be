import { Center, Loader, Paper, Stack, Text, ThemeIcon, Timeline, Title } from '@mantine/core';
import { IconCheck, IconPlayerPlayFilled, IconPlayerStopFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { humanDate } from '../../../../shared/lib/dates';
import { useApiEvents } from '../../api/get-api';
import type { ApiEventType } from '../../api/types';

/** start_api: a play icon (info); stop_api: a stop icon (danger); the others: a check (info). */
export function eventLook(type: ApiEventType): { icon: 'play' | 'stop' | 'check'; color: 'blue' | 'red' } {
  if (type === 'START_API') return { icon: 'play', color: 'blue' };
  if (type === 'STOP_API') return { icon: 'stop', color: 'red' };
  return { icon: 'check', color: 'blue' };
}

const ICONS = { play: IconPlayerPlayFilled, stop: IconPlayerStopFilled, check: IconCheck };

/** management.apis.detail.events (`/events`): the API's events as a timeline, newest first. */
export function EventsPage() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const events = useApiEvents(apiId);
  return (
    <Stack gap="lg">
      <div>
        <Title order={2} size="h3">
          {t('apis.events.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('apis.events.hint')}
        </Text>
      </div>
      <Paper withBorder radius="md" p="xl">
        {events.isPending ? (
          <Center>
            <Loader aria-label={t('common.loading')} />
          </Center>
        ) : (events.data ?? []).length === 0 ? (
          <Text c="dimmed" ta="center">
            {t('apis.events.empty')}
          </Text>
        ) : (
          <Timeline bulletSize={28} lineWidth={2} aria-label={t('apis.events.title')}>
            {(events.data ?? []).map((event) => {
              const look = eventLook(event.type);
              const Icon = ICONS[look.icon];
              return (
                <Timeline.Item
                  key={event.id}
                  bullet={
                    <ThemeIcon radius="xl" size={28} color={look.color} data-event-icon={look.icon}>
                      <Icon size={14} />
                    </ThemeIcon>
                  }
                  title={t(`apis.events.types.${event.type}`)}
                >
                  <Text size="sm" c="dimmed">
                    {t('apis.events.by', {
                      date: humanDate(event.created_at),
                      user: event.user?.displayName ?? '—',
                    })}
                  </Text>
                  {event.properties.deployment_label && (
                    <Text size="xs" fs="italic">
                      {event.properties.deployment_label}
                    </Text>
                  )}
                </Timeline.Item>
              );
            })}
          </Timeline>
        )}
      </Paper>
    </Stack>
  );
}

import {
  Anchor,
  Badge,
  Button,
  Center,
  EmptyState,
  Group,
  Loader,
  Pagination,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconCheck, IconConfetti, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateText } from '../../../shared/ui/date-text';
import { useTasks } from '../api/tasks';
import type { Task } from '../api/types';
import type { DialogTarget } from './subscription-dialogs';
import { AcceptDialog, RejectDialog } from './subscription-dialogs';

const PAGE_SIZE = 10;

/**
 * management.tasks (`/management/tasks`): the pending subscriptions of the APIs the user may validate,
 * each accepted or rejected from the list.
 */
export function TasksPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const tasks = useTasks(page, PAGE_SIZE);
  const [accepting, setAccepting] = useState<DialogTarget | null>(null);
  const [rejecting, setRejecting] = useState<DialogTarget | null>(null);
  const data = tasks.data;
  const name = (id: string) => (data?.metadata[id]?.name as string | undefined) ?? id;
  const targetOf = (task: Task): DialogTarget => ({
    id: task.data.id,
    apiId: task.data.api,
    application: name(task.data.application),
    plan: name(task.data.plan),
  });
  const pages = data ? Math.max(1, Math.ceil(data.page.total_elements / PAGE_SIZE)) : 1;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          {t('tasks.title')}
        </Title>
        <Text c="dimmed">{t('tasks.hint')}</Text>
      </div>
      {!data ? (
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : data.data.length === 0 ? (
        <Paper withBorder radius="md" py={48} px="lg">
          <EmptyState
            variant="light"
            icon={<IconConfetti size={32} stroke={1.5} />}
            title={t('tasks.empty')}
            description={t('tasks.emptyHint')}
          />
        </Paper>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.data.map((task) => {
            const target = targetOf(task);
            const api = data.metadata[task.data.api];
            return (
              <li key={task.data.id}>
                <Paper withBorder radius="md" p="md">
                  <Group justify="space-between" align="flex-start" gap="md" wrap="wrap">
                    <Stack gap={4} style={{ flex: 1, minWidth: 260 }}>
                      <Group gap="xs">
                        <Badge color="yellow" variant="light" tt="none">
                          {t('tasks.type.SUBSCRIPTION_APPROVAL')}
                        </Badge>
                        <Text size="xs" c="dimmed">
                          {t('tasks.requested')} <DateText value={task.created_at} size="xs" c="dimmed" />
                        </Text>
                      </Group>
                      <Text fw={600}>
                        {t('tasks.subject', { application: target.application, plan: target.plan })}
                      </Text>
                      <Text size="sm">
                        {t('tasks.api')}{' '}
                        <Anchor
                          component={Link}
                          to={`/management/apis/${encodeURIComponent(task.data.api)}/subscriptions/${encodeURIComponent(task.data.id)}`}
                          size="sm"
                        >
                          {String(api?.name ?? task.data.api)}
                          {api?.version ? ` (${String(api.version)})` : ''}
                        </Anchor>
                      </Text>
                      {task.data.request && (
                        <Text size="sm" c="dimmed" fs="italic" style={{ whiteSpace: 'pre-line' }}>
                          “{task.data.request}”
                        </Text>
                      )}
                    </Stack>
                    <Group gap="xs">
                      <Button
                        color="teal"
                        size="sm"
                        leftSection={<IconCheck size={16} />}
                        onClick={() => setAccepting(target)}
                        aria-label={t('tasks.acceptOf', {
                          application: target.application,
                          plan: target.plan,
                        })}
                      >
                        {t('tasks.accept')}
                      </Button>
                      <Button
                        color="red"
                        variant="light"
                        size="sm"
                        leftSection={<IconX size={16} />}
                        onClick={() => setRejecting(target)}
                        aria-label={t('tasks.rejectOf', {
                          application: target.application,
                          plan: target.plan,
                        })}
                      >
                        {t('tasks.reject')}
                      </Button>
                    </Group>
                  </Group>
                </Paper>
              </li>
            );
          })}
        </Stack>
      )}
      {pages > 1 && (
        <Group justify="flex-end">
          <Pagination total={pages} value={page} onChange={setPage} size="sm" />
        </Group>
      )}
      <AcceptDialog
        target={accepting}
        onClose={() => setAccepting(null)}
        onDone={() => page > 1 && data?.data.length === 1 && setPage(page - 1)}
      />
      <RejectDialog
        target={rejecting}
        onClose={() => setRejecting(null)}
        onDone={() => page > 1 && data?.data.length === 1 && setPage(page - 1)}
      />
    </Stack>
  );
}

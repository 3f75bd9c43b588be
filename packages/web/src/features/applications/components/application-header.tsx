import { Avatar, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DateText } from '../../../shared/ui/date-text';
import type { Application } from '../api/types';

/** The application's header in its frame: name, type, description, owner and creation date. */
export function ApplicationHeader({ application }: { application: Application }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="lg">
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Avatar size={56} radius="md" color="grape" aria-hidden>
          {application.name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs">
            <Title order={1} size="h2">
              {application.name}
            </Title>
            <Badge variant="light" color="gray" tt="none">
              {t(`applications.types.${application.type}`)}
            </Badge>
          </Group>
          <Text c="dimmed" size="sm" lineClamp={2}>
            {application.description}
          </Text>
          <Group gap="xl">
            <div>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase">
                {t('applications.header.owner')}
              </Text>
              <Text size="sm">{application.owner?.displayName ?? '—'}</Text>
            </div>
            <div>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase">
                {t('applications.header.createdAt')}
              </Text>
              <DateText value={application.created_at} />
            </div>
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
}

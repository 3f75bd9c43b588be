import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { VisuallyHidden } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { DeleteConfirmDialog } from '../../../shared/ui/settings-list-page';
import type { GroupEntity } from '../api/groups';
import { useDeleteGroup, useGroups } from '../api/groups';

export const groupsBase = '/management/settings/groups';

/** management.settings.groups (`/settings/groups/`): the groups the user manages, by name. */
export function GroupsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const groups = useGroups();
  const remove = useDeleteGroup();
  const [doomed, setDoomed] = useState<GroupEntity | null>(null);
  const manageable = (groups.data ?? []).filter((g) => g.manageable);
  const canDelete = hasPermission(user, 'management-group-d');

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1} size="h2">
            {t('settingsGroups.list.title')}
          </Title>
          <Text c="dimmed">{t('settingsGroups.list.subtitle')}</Text>
        </div>
        {hasPermission(user, 'management-group-c') && (
          <Button component={Link} to={`${groupsBase}/new`} leftSection={<IconPlus size={16} />}>
            {t('settingsGroups.list.add')}
          </Button>
        )}
      </Group>
      {groups.isPending ? (
        <Skeleton height={160} />
      ) : manageable.length === 0 ? (
        <Text c="dimmed">{t('settingsGroups.list.empty')}</Text>
      ) : (
        <Table highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settingsGroups.list.name')}</Table.Th>
              <Table.Th>{t('settingsGroups.list.events')}</Table.Th>
              <Table.Th>{t('settingsGroups.list.maxMembers')}</Table.Th>
              <Table.Th w={80}>
                <VisuallyHidden>{t('settingsGroups.list.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {manageable.map((group) => (
              <Table.Tr key={group.id}>
                <Table.Td>
                  <Anchor component={Link} to={`${groupsBase}/${group.id}`}>
                    {group.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {group.event_rules.map((rule) => (
                      <Badge key={rule.event} size="sm" variant="light">
                        {t(`settingsGroups.events.${rule.event}`)}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>{group.max_invitation ?? t('settingsGroups.list.unlimited')}</Table.Td>
                <Table.Td>
                  {canDelete && (
                    <Tooltip label={t('settingsGroups.list.delete', { name: group.name })}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('settingsGroups.list.delete', { name: group.name })}
                        onClick={() => setDoomed(group)}
                      >
                        <IconTrash size={18} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <DeleteConfirmDialog
        item={doomed}
        question={(row) => t('settingsGroups.delete.text', { name: row.name })}
        title={t('settingsGroups.delete.title')}
        confirmLabel={t('settingsGroups.delete.confirm')}
        remove={remove}
        idOf={(row) => row.id}
        done="settingsGroups.delete.done"
        onClose={() => setDoomed(null)}
      />
    </Stack>
  );
}

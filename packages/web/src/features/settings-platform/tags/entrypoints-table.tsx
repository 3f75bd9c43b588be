import {
  ActionIcon,
  Badge,
  Button,
  EmptyState,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconPencil, IconPlus, IconRoute, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import type { Entrypoint, Tag } from '../api/tags';
import { useDeleteEntrypoint, useEntrypoints } from '../api/tags';

const ENTRYPOINTS = '/management/settings/tags/entrypoint';

/** The entrypoint mappings: a URL for the APIs carrying one of its tags (value, tags, edit, delete). */
export function EntrypointsTable({ tags }: { tags: Tag[] }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const entrypoints = useEntrypoints();
  const remove = useDeleteEntrypoint();
  const [deleting, setDeleting] = useState<Entrypoint | null>(null);
  const tagName = new Map(tags.map((tag) => [tag.id, tag.name]));
  const rows = entrypoints.data ?? [];
  const canCreate = hasPermission(user, 'management-entrypoint-c');
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={3} size="h4">
              {t('settingsTags.entrypoints.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('settingsTags.entrypoints.hint')}
            </Text>
          </div>
          {canCreate && tags.length > 0 && (
            <Button
              component={Link}
              to={`${ENTRYPOINTS}/new`}
              variant="light"
              leftSection={<IconPlus size={16} />}
            >
              {t('settingsTags.entrypoints.add')}
            </Button>
          )}
        </Group>
        {rows.length === 0 ? (
          <EmptyState
            py={24}
            variant="light"
            icon={<IconRoute size={28} />}
            title={t('settingsTags.entrypoints.empty')}
          />
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('settingsTags.entrypoints.value')}</Table.Th>
                  <Table.Th>{t('settingsTags.entrypoints.tags')}</Table.Th>
                  <Table.Th w={96}>
                    <VisuallyHidden>{t('settingsTags.columns.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((entrypoint) => (
                  <Table.Tr key={entrypoint.id}>
                    <Table.Td ff="monospace" fz="sm">
                      {entrypoint.value}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {entrypoint.tags.map((tag) => (
                          <Badge key={tag} variant="light">
                            {tagName.get(tag) ?? tag}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        {hasPermission(user, 'management-entrypoint-u') && (
                          <ActionIcon
                            component={Link}
                            to={`${ENTRYPOINTS}/${encodeURIComponent(entrypoint.id)}`}
                            variant="subtle"
                            aria-label={t('settingsTags.entrypoints.edit', { value: entrypoint.value })}
                          >
                            <IconPencil size={18} />
                          </ActionIcon>
                        )}
                        {hasPermission(user, 'management-entrypoint-d') && (
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('settingsTags.entrypoints.delete', { value: entrypoint.value })}
                            onClick={() => setDeleting(entrypoint)}
                          >
                            <IconTrash size={18} />
                          </ActionIcon>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <ConfirmDialog
        opened={deleting !== null}
        title={t('settingsTags.entrypoints.deleteTitle')}
        confirmLabel={t('settingsTags.deleteConfirm')}
        color="red"
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifySuccess('settingsTags.entrypoints.deleted', { value: deleting.value });
              setDeleting(null);
            },
          })
        }
      >
        <ConfirmText>
          {deleting && t('settingsTags.entrypoints.deleteQuestion', { value: deleting.value })}
        </ConfirmText>
      </ConfirmDialog>
    </Paper>
  );
}

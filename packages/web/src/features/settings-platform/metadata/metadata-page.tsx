import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Center,
  EmptyState,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus, IconTags, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import type { Metadata } from '../api/catalogue';
import { useDeleteGlobalMetadata, useGlobalMetadata } from '../api/catalogue';
import { MetadataDialog } from './metadata-dialog';

/**
 * Settings > Metadata (console-applications-and-settings.md 2.3): the global metadata every API
 * inherits; key (click to edit), name, format, default value, delete, and an add dialog.
 */
export function MetadataPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const metadata = useGlobalMetadata();
  const remove = useDeleteGlobalMetadata();
  const [editing, setEditing] = useState<Metadata | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Metadata | null>(null);
  const canUpdate = hasPermission(user, 'portal-metadata-u');
  const rows = metadata.data ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {t('settingsMetadata.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('settingsMetadata.hint')}
          </Text>
        </div>
        {hasPermission(user, 'portal-metadata-c') && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('settingsMetadata.add')}
          </Button>
        )}
      </Group>
      <Paper withBorder radius="md">
        {metadata.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('common.loading')} />
          </Center>
        ) : rows.length === 0 ? (
          <EmptyState
            py={48}
            variant="light"
            icon={<IconTags size={32} />}
            title={t('settingsMetadata.empty')}
          />
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('settingsMetadata.columns.key')}</Table.Th>
                  <Table.Th>{t('settingsMetadata.columns.name')}</Table.Th>
                  <Table.Th>{t('settingsMetadata.columns.format')}</Table.Th>
                  <Table.Th>{t('settingsMetadata.columns.defaultValue')}</Table.Th>
                  <Table.Th w={56}>
                    <VisuallyHidden>{t('settingsMetadata.columns.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((m) => (
                  <Table.Tr key={m.key}>
                    <Table.Td>
                      {canUpdate ? (
                        <Anchor
                          component="button"
                          type="button"
                          ff="monospace"
                          fz="sm"
                          aria-label={t('settingsMetadata.edit', { name: m.name })}
                          onClick={() => setEditing(m)}
                        >
                          {m.key}
                        </Anchor>
                      ) : (
                        <Text ff="monospace" size="sm">
                          {m.key}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{m.name}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color="gray">
                        {t(`settingsMetadata.formats.${m.format.toUpperCase() as 'STRING'}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{m.defaultValue ?? ''}</Table.Td>
                    <Table.Td>
                      {hasPermission(user, 'portal-metadata-d') && (
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('settingsMetadata.delete', { name: m.name })}
                          onClick={() => setDeleting(m)}
                        >
                          <IconTrash size={18} />
                        </ActionIcon>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      {editing !== null && (
        <MetadataDialog metadata={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('settingsMetadata.deleteTitle')}
        confirmLabel={t('settingsMetadata.deleteConfirm')}
        color="red"
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.key, {
            onSuccess: () => {
              notifySuccess('settingsMetadata.deleted', { name: deleting.name });
              setDeleting(null);
            },
          })
        }
      >
        <ConfirmText>{deleting && t('settingsMetadata.deleteQuestion', { name: deleting.name })}</ConfirmText>
      </ConfirmDialog>
    </Stack>
  );
}

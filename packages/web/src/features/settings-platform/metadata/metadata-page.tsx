import { Anchor, Badge, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconTags } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import {
  DeleteConfirmDialog,
  RowDeleteButton,
  SettingsListPage,
} from '../../../shared/ui/settings-list-page';
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
    <SettingsListPage
      title={t('settingsMetadata.title')}
      hint={t('settingsMetadata.hint')}
      add={
        hasPermission(user, 'portal-metadata-c') && {
          label: t('settingsMetadata.add'),
          onClick: () => setEditing('new'),
        }
      }
      loading={metadata.isPending}
      isEmpty={rows.length === 0}
      empty={{ icon: <IconTags size={32} />, title: t('settingsMetadata.empty') }}
      minWidth={560}
      tableProps={{ highlightOnHover: true }}
      head={
        <>
          <Table.Th>{t('settingsMetadata.columns.key')}</Table.Th>
          <Table.Th>{t('settingsMetadata.columns.name')}</Table.Th>
          <Table.Th>{t('settingsMetadata.columns.format')}</Table.Th>
          <Table.Th>{t('settingsMetadata.columns.defaultValue')}</Table.Th>
          <Table.Th w={56}>
            <VisuallyHidden>{t('settingsMetadata.columns.actions')}</VisuallyHidden>
          </Table.Th>
        </>
      }
      rows={rows.map((m) => (
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
              <RowDeleteButton
                label={t('settingsMetadata.delete', { name: m.name })}
                onClick={() => setDeleting(m)}
              />
            )}
          </Table.Td>
        </Table.Tr>
      ))}
    >
      {editing !== null && (
        <MetadataDialog metadata={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
      <DeleteConfirmDialog
        item={deleting}
        question={(row) => t('settingsMetadata.deleteQuestion', { name: row.name })}
        title={t('settingsMetadata.deleteTitle')}
        confirmLabel={t('settingsMetadata.deleteConfirm')}
        remove={remove}
        idOf={(row) => row.key}
        done="settingsMetadata.deleted"
        onClose={() => setDeleting(null)}
      />
    </SettingsListPage>
  );
}

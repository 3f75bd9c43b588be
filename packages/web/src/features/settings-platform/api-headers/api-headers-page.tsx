import { ActionIcon, Group, Paper, Stack, Switch, Table, VisuallyHidden } from '@mantine/core';
import { IconLayoutNavbar, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../shared/session/current-user';
import { hasAnyPermission, hasPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import {
  DeleteConfirmDialog,
  RowDeleteButton,
  SettingsListPage,
} from '../../../shared/ui/settings-list-page';
import type { ApiHeader } from '../api/catalogue';
import { useApiHeaders, useDeleteApiHeader, useSaveApiHeader } from '../api/catalogue';
import { usePortalFlags, useSavePortalSetting } from '../api/portal-flags';
import { ReorderButtons } from '../reorder-buttons';
import { ApiHeaderDialog } from './api-header-dialog';

/**
 * Settings > API Portal Headers (console-applications-and-settings.md 2.3): the name/value lines the
 * portal shows in an API's header, in order (create, edit, move, delete), and whether the header also
 * shows the API's sharding tags and views.
 */
export function ApiHeadersPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const headers = useApiHeaders();
  const save = useSaveApiHeader();
  const remove = useDeleteApiHeader();
  const [editing, setEditing] = useState<ApiHeader | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ApiHeader | null>(null);
  const rows = headers.data ?? [];
  const canUpdate = hasPermission(user, 'portal-api_header-u');
  return (
    <SettingsListPage
      title={t('settingsApiHeaders.title')}
      hint={t('settingsApiHeaders.hint')}
      add={
        hasPermission(user, 'portal-api_header-c') && {
          label: t('settingsApiHeaders.add'),
          onClick: () => setEditing('new'),
        }
      }
      intro={<HeaderToggles />}
      loading={headers.isPending}
      isEmpty={rows.length === 0}
      empty={{ icon: <IconLayoutNavbar size={32} />, title: t('settingsApiHeaders.empty') }}
      minWidth={560}
      head={
        <>
          <Table.Th>{t('settingsApiHeaders.columns.name')}</Table.Th>
          <Table.Th>{t('settingsApiHeaders.columns.value')}</Table.Th>
          <Table.Th>{t('settingsApiHeaders.columns.order')}</Table.Th>
          <Table.Th w={96}>
            <VisuallyHidden>{t('settingsApiHeaders.columns.actions')}</VisuallyHidden>
          </Table.Th>
        </>
      }
      rows={rows.map((header, index) => (
        <Table.Tr key={header.id}>
          <Table.Td fw={500}>{header.name}</Table.Td>
          <Table.Td ff="monospace" fz="sm">
            {header.value}
          </Table.Td>
          <Table.Td>
            <ReorderButtons
              name={header.name}
              index={index}
              count={rows.length}
              disabled={!canUpdate || save.isPending}
              onMove={(_from, to) =>
                save.mutate(
                  { ...header, order: to + 1 },
                  { onSuccess: () => notifySuccess('settingsApiHeaders.reordered') },
                )
              }
            />
          </Table.Td>
          <Table.Td>
            <Group gap={4} wrap="nowrap">
              {canUpdate && (
                <ActionIcon
                  variant="subtle"
                  aria-label={t('settingsApiHeaders.edit', { name: header.name })}
                  onClick={() => setEditing(header)}
                >
                  <IconPencil size={18} />
                </ActionIcon>
              )}
              {hasPermission(user, 'portal-api_header-d') && (
                <RowDeleteButton
                  label={t('settingsApiHeaders.delete', { name: header.name })}
                  onClick={() => setDeleting(header)}
                />
              )}
            </Group>
          </Table.Td>
        </Table.Tr>
      ))}
    >
      {editing !== null && (
        <ApiHeaderDialog header={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
      <DeleteConfirmDialog
        item={deleting}
        question={(row) => t('settingsApiHeaders.deleteQuestion', { name: row.name })}
        title={t('settingsApiHeaders.deleteTitle')}
        confirmLabel={t('settingsApiHeaders.deleteConfirm')}
        remove={remove}
        idOf={(row) => row.id}
        done="settingsApiHeaders.deleted"
        onClose={() => setDeleting(null)}
      />
    </SettingsListPage>
  );
}

/** Whether the portal's API header also shows the API's sharding tags and its views (portal settings). */
function HeaderToggles() {
  const { t } = useTranslation();
  const { user } = useSession();
  const flags = usePortalFlags();
  const save = useSavePortalSetting();
  const disabled =
    !hasAnyPermission(user, ['portal-settings-u', 'portal-settings-c']) || !flags.isSuccess || save.isPending;
  const toggle = (key: string, enabled: boolean) =>
    save.mutate(
      { key, value: enabled },
      { onSuccess: () => notifySuccess('settingsApiHeaders.togglesSaved') },
    );
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Switch
          label={t('settingsApiHeaders.showTags')}
          checked={flags.data?.showTags ?? true}
          disabled={disabled}
          onChange={(e) => toggle('portal.apis.apiHeaderShowTags.enabled', e.currentTarget.checked)}
        />
        <Switch
          label={t('settingsApiHeaders.showViews')}
          checked={flags.data?.showViews ?? true}
          disabled={disabled}
          onChange={(e) => toggle('portal.apis.apiHeaderShowViews.enabled', e.currentTarget.checked)}
        />
      </Stack>
    </Paper>
  );
}

import { Anchor, Badge, Center, Checkbox, Group, Paper, Switch, Table, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasAnyPermission, hasPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import {
  DeleteConfirmDialog,
  RowDeleteButton,
  SettingsListPage,
} from '../../../shared/ui/settings-list-page';
import { usePortalFlags, useSavePortalSetting } from '../api/portal-flags';
import type { View } from '../api/views';
import { useDeleteView, useUpdateViews, useViews } from '../api/views';
import { ReorderButtons, moved } from '../reorder-buttons';

export const VIEWS = '/management/settings/views';
/** The view every API belongs to: it cannot be deleted. */
export const ALL_VIEW = 'all';

/**
 * Settings > Views (console-applications-and-settings.md 2.3, 4): the view-mode switch, then the views
 * in their order with default, visibility, API count, arrows that save the whole order, and delete.
 */
export function ViewsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const views = useViews();
  const update = useUpdateViews();
  const remove = useDeleteView();
  const [deleting, setDeleting] = useState<View | null>(null);
  const canUpdate = hasPermission(user, 'portal-view-u');
  const canDelete = hasPermission(user, 'portal-view-d');
  const rows = views.data ?? [];

  const change = (view: View, changes: Partial<View>, message: 'saved' | 'defaultSet') =>
    update.mutate([{ ...view, ...changes }], {
      onSuccess: () => notifySuccess(`settingsViews.${message}`, { name: view.name }),
    });
  const move = (from: number, to: number) =>
    update.mutate(
      moved(rows, from, to).map((v, order) => ({ ...v, order })),
      { onSuccess: () => notifySuccess('settingsViews.reordered') },
    );

  return (
    <SettingsListPage
      title={t('settingsViews.title')}
      hint={t('settingsViews.hint')}
      add={hasPermission(user, 'portal-view-c') && { label: t('settingsViews.add'), to: `${VIEWS}/new` }}
      intro={<ViewModeSwitch />}
      loading={views.isPending}
      minWidth={600}
      tableProps={{ highlightOnHover: true, stickyHeader: true }}
      head={
        <>
          <Table.Th>{t('settingsViews.columns.name')}</Table.Th>
          <Table.Th>{t('settingsViews.columns.description')}</Table.Th>
          <Table.Th ta="center">{t('settingsViews.columns.default')}</Table.Th>
          <Table.Th>{t('settingsViews.columns.visible')}</Table.Th>
          <Table.Th ta="right">{t('settingsViews.columns.apis')}</Table.Th>
          <Table.Th>{t('settingsViews.columns.order')}</Table.Th>
          <Table.Th w={56}>
            <VisuallyHidden>{t('settingsViews.columns.actions')}</VisuallyHidden>
          </Table.Th>
        </>
      }
      rows={rows.map((view, index) => (
        <Table.Tr key={view.id}>
          <Table.Td>
            <Group gap="xs" wrap="nowrap">
              <Anchor component={Link} to={`${VIEWS}/${encodeURIComponent(view.id)}`} fw={500}>
                {view.name}
              </Anchor>
              {view.hidden && (
                <Badge size="sm" variant="light" color="gray">
                  {t('settingsViews.hiddenBadge')}
                </Badge>
              )}
            </Group>
          </Table.Td>
          <Table.Td c="dimmed">{view.description ?? ''}</Table.Td>
          <Table.Td>
            <Center>
              <Checkbox
                aria-label={t('settingsViews.defaultOf', { name: view.name })}
                checked={view.defaultView}
                disabled={!canUpdate || update.isPending}
                onChange={(e) => change(view, { defaultView: e.currentTarget.checked }, 'defaultSet')}
              />
            </Center>
          </Table.Td>
          <Table.Td>
            <Switch
              aria-label={t('settingsViews.visibleOf', { name: view.name })}
              checked={!view.hidden}
              disabled={!canUpdate || update.isPending}
              onChange={(e) => change(view, { hidden: !e.currentTarget.checked }, 'saved')}
            />
          </Table.Td>
          <Table.Td ta="right">{view.totalApis}</Table.Td>
          <Table.Td>
            <ReorderButtons
              name={view.name}
              index={index}
              count={rows.length}
              disabled={!canUpdate || update.isPending}
              onMove={move}
            />
          </Table.Td>
          <Table.Td>
            {canDelete && view.id !== ALL_VIEW && (
              <RowDeleteButton
                label={t('settingsViews.delete', { name: view.name })}
                onClick={() => setDeleting(view)}
              />
            )}
          </Table.Td>
        </Table.Tr>
      ))}
    >
      <DeleteConfirmDialog
        item={deleting}
        question={(row) => t('settingsViews.deleteQuestion', { name: row.name })}
        title={t('settingsViews.deleteTitle')}
        confirmLabel={t('settingsViews.deleteConfirm')}
        remove={remove}
        idOf={(row) => row.id}
        done="settingsViews.deleted"
        onClose={() => setDeleting(null)}
      />
    </SettingsListPage>
  );
}

/** The switch of the portal's view mode: a gallery of views replaces the API gallery. */
function ViewModeSwitch() {
  const { t } = useTranslation();
  const { user } = useSession();
  const flags = usePortalFlags();
  const save = useSavePortalSetting();
  const canSave = hasAnyPermission(user, ['portal-settings-u', 'portal-settings-c']);
  return (
    <Paper withBorder radius="md" p="md">
      <Switch
        label={t('settingsViews.viewMode')}
        description={t('settingsViews.viewModeHint')}
        checked={flags.data?.viewMode ?? false}
        disabled={!canSave || !flags.isSuccess || save.isPending}
        onChange={(e) => {
          const enabled = e.currentTarget.checked;
          save.mutate(
            { key: 'portal.apis.viewMode.enabled', value: enabled },
            {
              onSuccess: () =>
                notifySuccess(enabled ? 'settingsViews.viewModeOn' : 'settingsViews.viewModeOff'),
            },
          );
        }}
      />
    </Paper>
  );
}

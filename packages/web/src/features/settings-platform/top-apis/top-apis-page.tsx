import { Button, Group, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconStar } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import {
  DeleteConfirmDialog,
  RowDeleteButton,
  SettingsListPage,
} from '../../../shared/ui/settings-list-page';
import { ApiAutocomplete } from '../api-autocomplete';
import type { TopApi } from '../api/catalogue';
import { useAddTopApi, useRemoveTopApi, useReorderTopApis, useTopApis } from '../api/catalogue';
import { ReorderButtons, moved } from '../reorder-buttons';

/**
 * Settings > Top APIs (console-applications-and-settings.md 2.3): the APIs the portal puts first, in
 * order; arrows move one (the whole order is saved), delete, and an add dialog with an autocomplete.
 */
export function TopApisPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const top = useTopApis();
  const reorder = useReorderTopApis();
  const remove = useRemoveTopApi();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<TopApi | null>(null);
  const rows = top.data ?? [];
  const canUpdate = hasPermission(user, 'portal-top_apis-u');
  return (
    <SettingsListPage
      title={t('settingsTopApis.title')}
      hint={t('settingsTopApis.hint')}
      add={
        hasPermission(user, 'portal-top_apis-c') && {
          label: t('settingsTopApis.add'),
          onClick: () => setAdding(true),
        }
      }
      loading={top.isPending}
      isEmpty={rows.length === 0}
      empty={{
        icon: <IconStar size={32} />,
        title: t('settingsTopApis.empty'),
        description: t('settingsTopApis.emptyHint'),
      }}
      minWidth={560}
      head={
        <>
          <Table.Th w={48}>#</Table.Th>
          <Table.Th>{t('settingsTopApis.columns.name')}</Table.Th>
          <Table.Th>{t('settingsTopApis.columns.version')}</Table.Th>
          <Table.Th>{t('settingsTopApis.columns.description')}</Table.Th>
          <Table.Th>{t('settingsTopApis.columns.order')}</Table.Th>
          <Table.Th w={56}>
            <VisuallyHidden>{t('settingsTopApis.columns.actions')}</VisuallyHidden>
          </Table.Th>
        </>
      }
      rows={rows.map((api, index) => (
        <Table.Tr key={api.api}>
          <Table.Td c="dimmed">{index + 1}</Table.Td>
          <Table.Td fw={500}>{api.name}</Table.Td>
          <Table.Td>{api.version}</Table.Td>
          <Table.Td c="dimmed">{api.description ?? ''}</Table.Td>
          <Table.Td>
            <ReorderButtons
              name={api.name}
              index={index}
              count={rows.length}
              disabled={!canUpdate || reorder.isPending}
              onMove={(from, to) =>
                reorder.mutate(
                  moved(rows, from, to).map((r) => r.api),
                  { onSuccess: () => notifySuccess('settingsTopApis.reordered') },
                )
              }
            />
          </Table.Td>
          <Table.Td>
            {hasPermission(user, 'portal-top_apis-d') && (
              <RowDeleteButton
                label={t('settingsTopApis.delete', { name: api.name })}
                onClick={() => setDeleting(api)}
              />
            )}
          </Table.Td>
        </Table.Tr>
      ))}
    >
      {adding && (
        <AddTopApiDialog excluded={new Set(rows.map((r) => r.api))} onClose={() => setAdding(false)} />
      )}
      <DeleteConfirmDialog
        item={deleting}
        question={(row) => t('settingsTopApis.deleteQuestion', { name: row.name })}
        title={t('settingsTopApis.deleteTitle')}
        confirmLabel={t('settingsTopApis.deleteConfirm')}
        remove={remove}
        idOf={(row) => row.api}
        done="settingsTopApis.deleted"
        onClose={() => setDeleting(null)}
      />
    </SettingsListPage>
  );
}

function AddTopApiDialog({ excluded, onClose }: { excluded: ReadonlySet<string>; onClose: () => void }) {
  const { t } = useTranslation();
  const add = useAddTopApi();
  const [picked, setPicked] = useState<{ id: string; name: string } | null>(null);
  return (
    <Modal opened onClose={onClose} title={t('settingsTopApis.addTitle')} centered>
      <Stack gap="md">
        <ApiAutocomplete
          label={t('settingsTopApis.search')}
          excluded={excluded}
          onPick={(api) => setPicked({ id: api.id, name: api.name })}
        />
        <Text size="sm" c={picked ? undefined : 'dimmed'}>
          {picked ? t('settingsTopApis.picked', { name: picked.name }) : t('settingsTopApis.nothingPicked')}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            disabled={!picked}
            loading={add.isPending}
            onClick={() =>
              picked &&
              add.mutate(picked.id, {
                onSuccess: () => {
                  notifySuccess('settingsTopApis.added', { name: picked.name });
                  onClose();
                },
              })
            }
          >
            {t('settingsTopApis.addConfirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

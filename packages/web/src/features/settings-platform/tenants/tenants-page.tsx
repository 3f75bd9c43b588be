import {
  ActionIcon,
  Button,
  Center,
  EmptyState,
  Group,
  Loader,
  Paper,
  Popover,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconBuilding, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import type { Tenant } from '../api/catalogue';
import { useSaveTenants, useTenants } from '../api/catalogue';
import { SortHeader } from './sort-header';
import type { TenantRow, TenantSort } from './tenant-rules';
import { rowsOf, sortRows, tenantChanges, tenantError } from './tenant-rules';

/**
 * Settings > Tenants (console-applications-and-settings.md 2.3): ID, name and description, sortable,
 * edited in place in popups; a New tenant row; Save sends the changes, Reset drops them.
 */
export function TenantsPage() {
  const { t } = useTranslation();
  const tenants = useTenants();
  return (
    <Stack gap="lg">
      <div>
        <Title order={2} size="h3">
          {t('settingsTenants.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('settingsTenants.hint')}
        </Text>
      </div>
      {tenants.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : tenants.data ? (
        <TenantsTable key={JSON.stringify(tenants.data)} stored={tenants.data} />
      ) : null}
    </Stack>
  );
}

function TenantsTable({ stored }: { stored: Tenant[] }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const save = useSaveTenants();
  const [rows, setRows] = useState<TenantRow[]>(() => rowsOf(stored));
  const [sort, setSort] = useState<TenantSort>({ column: 'name', descending: false });
  const [added, setAdded] = useState(0);
  const canCreate = hasPermission(user, 'management-tenant-c');
  const canUpdate = hasPermission(user, 'management-tenant-u');
  const canDelete = hasPermission(user, 'management-tenant-d');
  const changes = tenantChanges(stored, rows);
  const dirty = changes.created.length + changes.updated.length + changes.deleted.length > 0;
  const invalid = rows.some((r) => tenantError(rows, r, 'name') || tenantError(rows, r, 'description'));
  // New rows stay at the bottom, in the order they were added, until saved.
  const shown = [
    ...sortRows(
      rows.filter((r) => r.id),
      sort,
    ),
    ...rows.filter((r) => !r.id),
  ];
  const edit = (key: string, field: 'name' | 'description', value: string) =>
    setRows(rows.map((r) => (r.key === key ? { ...r, [field]: value } : r)));

  return (
    <Stack gap="md">
      <Paper withBorder radius="md">
        {rows.length === 0 ? (
          <EmptyState
            py={48}
            variant="light"
            icon={<IconBuilding size={32} />}
            title={t('settingsTenants.empty')}
          />
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs" stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <SortHeader
                    column="id"
                    sort={sort}
                    onSort={setSort}
                    label={t('settingsTenants.columns.id')}
                  />
                  <SortHeader
                    column="name"
                    sort={sort}
                    onSort={setSort}
                    label={t('settingsTenants.columns.name')}
                  />
                  <SortHeader
                    column="description"
                    sort={sort}
                    onSort={setSort}
                    label={t('settingsTenants.columns.description')}
                  />
                  <Table.Th w={56}>
                    <VisuallyHidden>{t('settingsTenants.columns.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((row) => {
                  const editable = row.id ? canUpdate : canCreate;
                  return (
                    <Table.Tr key={row.key}>
                      <Table.Td ff="monospace" fz="sm" c={row.id ? undefined : 'dimmed'}>
                        {row.id ?? t('settingsTenants.newRow')}
                      </Table.Td>
                      {(['name', 'description'] as const).map((field) => (
                        <Table.Td key={field}>
                          <InlineEdit
                            label={t(`settingsTenants.columns.${field}`)}
                            owner={row.name || t('settingsTenants.newRow')}
                            value={row[field]}
                            error={tenantError(rows, row, field)}
                            editable={editable}
                            onChange={(value) => edit(row.key, field, value)}
                          />
                        </Table.Td>
                      ))}
                      <Table.Td>
                        {(row.id ? canDelete : canCreate) && (
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('settingsTenants.delete', {
                              name: row.name || t('settingsTenants.newRow'),
                            })}
                            onClick={() => setRows(rows.filter((r) => r.key !== row.key))}
                          >
                            <IconTrash size={18} />
                          </ActionIcon>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <Group justify="space-between">
        {canCreate ? (
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => {
              setRows([...rows, { key: `new-${added}`, id: null, name: '', description: '' }]);
              setAdded(added + 1);
            }}
          >
            {t('settingsTenants.add')}
          </Button>
        ) : (
          <span />
        )}
        <Group gap="sm">
          <Button variant="default" disabled={!dirty} onClick={() => setRows(rowsOf(stored))}>
            {t('common.reset')}
          </Button>
          <Button
            loading={save.isPending}
            disabled={!dirty || invalid}
            onClick={() => save.mutate(changes, { onSuccess: () => notifySuccess('settingsTenants.saved') })}
          >
            {t('common.save')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/** A cell edited in a popup: the text, and a pencil that opens a field (Enter or Escape closes it). */
function InlineEdit({
  label,
  owner,
  value,
  error,
  editable,
  onChange,
}: {
  label: string;
  owner: string;
  value: string;
  error: string | undefined;
  editable: boolean;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const text = (
    <Text size="sm" c={value ? undefined : 'dimmed'} fs={value ? undefined : 'italic'}>
      {value || t('settingsTenants.emptyValue')}
    </Text>
  );
  return (
    <Stack gap={2}>
      <Group gap={6} wrap="nowrap">
        {text}
        {editable && (
          <Popover
            opened={opened}
            onChange={setOpened}
            position="bottom-start"
            withArrow
            trapFocus
            shadow="md"
          >
            <Popover.Target>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                onClick={() => setOpened((o) => !o)}
                aria-label={t('settingsTenants.editField', { field: label, name: owner })}
              >
                <IconPencil size={14} />
              </ActionIcon>
            </Popover.Target>
            <Popover.Dropdown>
              <TextInput
                label={label}
                value={value}
                error={error ? t(error as 'settingsTenants.errors.nameRequired') : undefined}
                data-autofocus
                w={280}
                onChange={(e) => onChange(e.currentTarget.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') setOpened(false);
                }}
              />
            </Popover.Dropdown>
          </Popover>
        )}
      </Group>
      {error && !opened && (
        <Text size="xs" c="red">
          {t(error as 'settingsTenants.errors.nameRequired')}
        </Text>
      )}
    </Stack>
  );
}

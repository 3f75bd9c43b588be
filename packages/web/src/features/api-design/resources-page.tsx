import { ActionIcon, Button, Group, Paper, Stack, Switch, Table, Text, Title, Tooltip } from '@mantine/core';
import type { Resource } from '@portico/model';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, ConfirmText } from '../../shared/ui/confirm-dialog';
import { ResourceDialog } from './resource-dialog';
import { useApiDesign, useResourceTypes } from './use-design';

/**
 * `/resources` (console-apis.md 2.6): the API's resources (name, type, enabled), added by type with the
 * form of its schema, edited, enabled or disabled at once, removed; names are unique.
 */
export function ResourcesPage() {
  const { t } = useTranslation();
  const { api, canUpdate, saving, save } = useApiDesign();
  const types = useResourceTypes();
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [removing, setRemoving] = useState<number | null>(null);
  const resources = api.resources;
  const typeName = (id: string) => types.data?.find((type) => type.id === id)?.name ?? id;
  const saveAll = (next: Resource[], onSaved?: () => void) =>
    save({ resources: next }, 'apiDesign.resources.saved', () => onSaved?.());

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t('apiDesign.resources.title')}</Title>
        {canUpdate && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('apiDesign.resources.add')}
          </Button>
        )}
      </Group>
      <Paper withBorder radius="md">
        {resources.length === 0 ? (
          <Text c="dimmed" ta="center" p="xl">
            {t('apiDesign.resources.empty')}
          </Text>
        ) : (
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('apiDesign.resources.name')}</Table.Th>
                <Table.Th>{t('apiDesign.resources.type')}</Table.Th>
                <Table.Th>{t('apiDesign.resources.enabled')}</Table.Th>
                {canUpdate && <Table.Th w={100}>{t('apiDesign.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {resources.map((resource, index) => (
                <Table.Tr key={resource.name}>
                  <Table.Td fw={600}>{resource.name}</Table.Td>
                  <Table.Td>{typeName(resource.type)}</Table.Td>
                  <Table.Td>
                    <Switch
                      checked={resource.enabled}
                      disabled={!canUpdate || saving}
                      aria-label={t('apiDesign.resources.enabledOf', { name: resource.name })}
                      onChange={(e) =>
                        saveAll(
                          resources.map((r, i) =>
                            i === index ? { ...r, enabled: e.currentTarget.checked } : r,
                          ),
                        )
                      }
                    />
                  </Table.Td>
                  {canUpdate && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label={t('apiDesign.resources.edit', { name: resource.name })}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('apiDesign.resources.edit', { name: resource.name })}
                            onClick={() => setEditing(index)}
                          >
                            <IconPencil size={16} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t('apiDesign.resources.remove', { name: resource.name })}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('apiDesign.resources.remove', { name: resource.name })}
                            onClick={() => setRemoving(index)}
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      {editing !== null && (
        <ResourceDialog
          resource={editing === 'new' ? undefined : resources[editing]}
          otherNames={resources.filter((_, i) => i !== editing).map((r) => r.name)}
          types={types.data ?? []}
          saving={saving}
          onClose={() => setEditing(null)}
          onSave={(resource) =>
            saveAll(
              editing === 'new'
                ? [...resources, resource]
                : resources.map((r, i) => (i === editing ? resource : r)),
              () => setEditing(null),
            )
          }
        />
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={t('apiDesign.resources.removeTitle')}
        confirmLabel={t('apiDesign.remove')}
        color="red"
        loading={saving}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          saveAll(
            resources.filter((_, i) => i !== removing),
            () => setRemoving(null),
          )
        }
      >
        <ConfirmText>
          {t('apiDesign.resources.removeQuestion', {
            name: removing === null ? '' : resources[removing]?.name,
          })}
        </ConfirmText>
      </ConfirmDialog>
    </Stack>
  );
}

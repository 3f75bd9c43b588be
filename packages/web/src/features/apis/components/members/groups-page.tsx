import {
  Badge,
  Button,
  Center,
  Group,
  Loader,
  MultiSelect,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useApiPermissions } from '../../../../shared/session/api-permissions';
import { notifySuccess } from '../../notify';
import { useUpdateApi } from '../../api/change-api';
import { useFrameApi } from '../../api/get-api';
import { useApiGroups, useConfiguredGroups } from '../../api/members';

/** management.apis.detail.groups (`/groups`): the groups of the API, chosen among the platform's. */
export function GroupsPage() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const { api } = useFrameApi(apiId);
  const permissions = useApiPermissions(apiId);
  const groups = useApiGroups(apiId);
  const configured = useConfiguredGroups();
  const update = useUpdateApi(apiId);
  const [chosen, setChosen] = useState<string[] | null>(null);
  const value = chosen ?? api.groups;
  const names = new Map([
    ...(configured.data ?? []).map((g) => [g.id, g.name] as const),
    ...(groups.data ?? []).map((g) => [g.id, g.name] as const),
  ]);
  const data = [...new Set([...(configured.data ?? []).map((g) => g.id), ...api.groups])].map((id) => ({
    value: id,
    label: names.get(id) ?? id,
  }));
  const canUpdate = permissions.has('api-definition-u');
  const dirty = chosen !== null && [...chosen].sort().join() !== [...api.groups].sort().join();
  return (
    <Stack gap="lg">
      <div>
        <Title order={2} size="h3">
          {t('apis.groups.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('apis.groups.hint')}
        </Text>
      </div>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          <MultiSelect
            label={t('apis.fields.groups')}
            data={data}
            value={value}
            onChange={setChosen}
            readOnly={!canUpdate}
            searchable
            description={configured.isError ? t('apis.general.groupsUnavailable') : undefined}
            nothingFoundMessage={t('apis.groups.noGroup')}
          />
          {canUpdate && (
            <Group justify="flex-end" gap="sm">
              <Button variant="default" disabled={!dirty} onClick={() => setChosen(null)}>
                {t('common.reset')}
              </Button>
              <Button
                disabled={!dirty}
                loading={update.isPending}
                onClick={() =>
                  update.mutate(
                    { groups: value },
                    {
                      onSuccess: () => {
                        notifySuccess('apis.general.saved');
                        setChosen(null);
                        void groups.refetch();
                      },
                    },
                  )
                }
              >
                {t('common.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>
      <Paper withBorder radius="md">
        {groups.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('common.loading')} />
          </Center>
        ) : (groups.data ?? []).length === 0 ? (
          <Text c="dimmed" ta="center" py="lg" size="sm">
            {t('apis.groups.empty')}
          </Text>
        ) : (
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('apis.groups.columns.group')}</Table.Th>
                <Table.Th>{t('apis.groups.columns.members')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(groups.data ?? []).map((group) => (
                <Table.Tr key={group.id}>
                  <Table.Td fw={500}>{group.name}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {group.members.length === 0 ? (
                        <Text size="sm" c="dimmed">
                          —
                        </Text>
                      ) : (
                        group.members.map((m) => (
                          <Badge key={m.id} variant="light" color="gray" tt="none">
                            {t('apis.groups.memberRole', { name: m.displayName, role: m.role })}
                          </Badge>
                        ))
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
    </Stack>
  );
}

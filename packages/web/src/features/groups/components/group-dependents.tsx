import { Anchor, Skeleton, Table, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DependentType, GroupEntity } from '../api/groups';
import { useGroupDependents } from '../api/groups';
import { GroupMembersPanel } from './group-members-panel';

/** Dependents tab: the members of the group, and the APIs and applications it is attached to. */
export function GroupDependents({ group }: { group: GroupEntity }) {
  const { t } = useTranslation();
  return (
    <Tabs defaultValue="members" variant="pills" keepMounted={false}>
      <Tabs.List>
        <Tabs.Tab value="members">{t('settingsGroups.dependents.members')}</Tabs.Tab>
        <Tabs.Tab value="apis">{t('settingsGroups.dependents.apis')}</Tabs.Tab>
        <Tabs.Tab value="applications">{t('settingsGroups.dependents.applications')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="members" pt="md">
        <GroupMembersPanel group={group} />
      </Tabs.Panel>
      <Tabs.Panel value="apis" pt="md">
        <Dependents groupId={group.id} type="api" />
      </Tabs.Panel>
      <Tabs.Panel value="applications" pt="md">
        <Dependents groupId={group.id} type="application" />
      </Tabs.Panel>
    </Tabs>
  );
}

function Dependents({ groupId, type }: { groupId: string; type: DependentType }) {
  const { t } = useTranslation();
  const items = useGroupDependents(groupId, type);
  if (items.isPending) return <Skeleton height={120} />;
  if ((items.data ?? []).length === 0)
    return (
      <Text c="dimmed">
        {t(type === 'api' ? 'settingsGroups.dependents.noApi' : 'settingsGroups.dependents.noApplication')}
      </Text>
    );
  const path = (id: string) =>
    type === 'api' ? `/management/apis/${id}/portal` : `/management/applications/${id}`;
  return (
    <Table verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('settingsGroups.dependents.name')}</Table.Th>
          <Table.Th>
            {t(type === 'api' ? 'settingsGroups.dependents.version' : 'settingsGroups.dependents.type')}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.data!.map((item) => (
          <Table.Tr key={item.id}>
            <Table.Td>
              <Anchor component={Link} to={path(item.id)}>
                {item.name}
              </Anchor>
            </Table.Td>
            <Table.Td>{type === 'api' ? item.version : item.type}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

import { Anchor, Badge, Paper, Skeleton, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUserGroups, useUserMemberships } from '../api/users';

const Empty = ({ text }: { text: string }) => (
  <Paper withBorder p="xl" ta="center">
    <Text c="dimmed">{text}</Text>
  </Paper>
);

/** The groups of a user, with the user's role in each scope. */
export function UserGroupsTab({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const groups = useUserGroups(userId);
  if (groups.isPending) return <Skeleton height={120} />;
  if (!groups.data?.length) return <Empty text={t('settingsUsers.detail.noGroup')} />;
  return (
    <Table verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('settingsUsers.detail.name')}</Table.Th>
          <Table.Th>{t('settingsUsers.detail.apiRole')}</Table.Th>
          <Table.Th>{t('settingsUsers.detail.applicationRole')}</Table.Th>
          <Table.Th>{t('settingsUsers.detail.groupAdmin')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {groups.data.map((g) => (
          <Table.Tr key={g.id}>
            <Table.Td>{g.name}</Table.Td>
            <Table.Td>{g.roles.API ?? ''}</Table.Td>
            <Table.Td>{g.roles.APPLICATION ?? ''}</Table.Td>
            <Table.Td>{g.roles.GROUP ? <Badge size="sm">{g.roles.GROUP}</Badge> : null}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The APIs or applications of a user (directly or through a group), with their metadata. */
export function UserMembershipsTab({ userId, type }: { userId: string; type: 'api' | 'application' }) {
  const { t } = useTranslation();
  const memberships = useUserMemberships(userId, type);
  if (memberships.isPending) return <Skeleton height={120} />;
  const rows = memberships.data?.memberships ?? [];
  if (rows.length === 0)
    return (
      <Empty text={t(type === 'api' ? 'settingsUsers.detail.noApi' : 'settingsUsers.detail.noApplication')} />
    );
  const meta = memberships.data?.metadata ?? {};
  const link = (id: string) =>
    type === 'api'
      ? `/management/apis/${encodeURIComponent(id)}`
      : `/management/applications/${encodeURIComponent(id)}`;
  return (
    <Table verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('settingsUsers.detail.name')}</Table.Th>
          {type === 'api' ? (
            <>
              <Table.Th>{t('settingsUsers.detail.version')}</Table.Th>
              <Table.Th>{t('settingsUsers.detail.visibility')}</Table.Th>
            </>
          ) : (
            <>
              <Table.Th>{t('settingsUsers.detail.type')}</Table.Th>
              <Table.Th>{t('settingsUsers.detail.status')}</Table.Th>
            </>
          )}
          <Table.Th>{t('settingsUsers.detail.role.title')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((m) => {
          const data = meta[m.reference] ?? {};
          return (
            <Table.Tr key={m.reference}>
              <Table.Td>
                <Anchor component={Link} to={link(m.reference)}>
                  {data.name ?? m.reference}
                </Anchor>
              </Table.Td>
              <Table.Td>{type === 'api' ? data.version : data.type}</Table.Td>
              <Table.Td>{type === 'api' ? data.visibility : data.status}</Table.Td>
              <Table.Td>
                {Object.values(m.roles)[0] ?? (
                  <Text size="sm" c="dimmed">
                    {t('settingsUsers.detail.viaGroup')}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

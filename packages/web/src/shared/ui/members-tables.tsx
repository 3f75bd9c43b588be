import {
  ActionIcon,
  Avatar,
  Badge,
  Center,
  EmptyState,
  Group,
  Loader,
  Paper,
  Select,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconTrash, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PRIMARY_OWNER } from '@portico/model';
import type { TranslationKey } from '../i18n/keys';
import { http } from '../http';

/** A member of an API or an application, as `.../members` answers it. */
export interface Member {
  id: string;
  username: string;
  displayName: string;
  email: string | null;
  role: string;
  group: { id: string; name: string } | null;
}

/** The roles that may be given: not system roles, not the primary owner. */
export const assignableRoles = <R extends { name: string; system: boolean }>(roles: R[] | undefined): R[] =>
  (roles ?? []).filter((r) => !r.system && r.name !== PRIMARY_OWNER);

/** The texts of a members page: `apis.members` or `applications.members`, with the same keys below. */
export type MembersTexts = 'apis.members' | 'applications.members';

function useMembersText(texts: MembersTexts) {
  const { t } = useTranslation();
  return (key: string, values?: Record<string, unknown>) => t(`${texts}.${key}` as TranslationKey, values);
}

export function MemberCell({ member }: { member: Member }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar
        src={http.url(`users/${encodeURIComponent(member.id)}/avatar`)}
        alt=""
        size={32}
        radius="xl"
        name={member.displayName}
        color="initials"
      />
      <div>
        <Text size="sm" fw={500}>
          {member.displayName}
        </Text>
        <Text size="xs" c="dimmed">
          {member.email ?? member.username}
        </Text>
      </div>
    </Group>
  );
}

/**
 * The direct members with their role: a role picker where the role may change (never the primary
 * owner's), a remove button where the member may go (never the primary owner).
 */
export function DirectMembersTable<M extends Member>({
  texts,
  members,
  loading,
  roles,
  canUpdate,
  canDelete,
  onRoleChange,
  onRemove,
}: {
  texts: MembersTexts;
  members: M[];
  loading: boolean;
  /** The role names that may be given. */
  roles: string[];
  canUpdate: boolean;
  canDelete: boolean;
  onRoleChange: (member: M, role: string) => void;
  onRemove: (member: M) => void;
}) {
  const { t } = useTranslation();
  const text = useMembersText(texts);
  return (
    <Paper withBorder radius="md">
      {loading ? (
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : members.length === 0 ? (
        <EmptyState
          py={48}
          variant="light"
          icon={<IconUsers size={32} stroke={1.5} />}
          title={text('empty')}
        />
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{text('columns.member')}</Table.Th>
                <Table.Th>{text('columns.role')}</Table.Th>
                <Table.Th w={60} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.map((member) => {
                const owner = member.role === PRIMARY_OWNER;
                const options = roles.includes(member.role) ? roles : [...roles, member.role];
                return (
                  <Table.Tr key={member.id}>
                    <Table.Td>
                      <MemberCell member={member} />
                    </Table.Td>
                    <Table.Td>
                      {owner || !canUpdate ? (
                        <Badge variant="light" color={owner ? 'grape' : 'gray'} tt="none">
                          {owner ? text('primaryOwner') : member.role}
                        </Badge>
                      ) : (
                        <Select
                          aria-label={text('roleOf', { name: member.displayName })}
                          data={options}
                          value={member.role}
                          allowDeselect={false}
                          maw={220}
                          onChange={(role) => role && role !== member.role && onRoleChange(member, role)}
                        />
                      )}
                    </Table.Td>
                    <Table.Td>
                      {canDelete && !owner && (
                        <Tooltip label={text('remove', { name: member.displayName })}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={text('remove', { name: member.displayName })}
                            onClick={() => onRemove(member)}
                          >
                            <IconTrash size={18} />
                          </ActionIcon>
                        </Tooltip>
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
  );
}

/** The members inherited from the groups, each with its group and role (read only). */
export function InheritedMembersTable({
  texts,
  members,
  label,
}: {
  texts: MembersTexts;
  members: Member[];
  /** The table's accessible name. */
  label?: string;
}) {
  const text = useMembersText(texts);
  return (
    <Paper withBorder radius="md">
      {members.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" size="sm">
          {text('noGroupMember')}
        </Text>
      ) : (
        <Table verticalSpacing="sm" aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{text('columns.member')}</Table.Th>
              <Table.Th>{text('columns.group')}</Table.Th>
              <Table.Th>{text('columns.role')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((member) => (
              <Table.Tr key={`${member.group?.id}-${member.id}`}>
                <Table.Td>
                  <MemberCell member={member} />
                </Table.Td>
                <Table.Td>{member.group?.name}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color="gray" tt="none">
                    {member.role}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { VisuallyHidden } from '@mantine/core';
import { IconMail, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import type { GroupEntity, GroupMember, Invitation } from '../api/groups';
import {
  useDeleteInvitation,
  useGivableRoles,
  useGroupMembers,
  useInvitations,
  useRemoveMember,
  useUpdateInvitation,
} from '../api/groups';
import { AddMembersDialog, InviteMemberDialog } from './group-member-dialogs';

/**
 * The members of a group with their roles, and its pending invitations. Adding needs the super admin
 * right, or (group admins) system invitation on and room below the max members; inviting by mail needs
 * email invitation on.
 */
export function GroupMembersPanel({ group }: { group: GroupEntity }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const members = useGroupMembers(group.id);
  const invitations = useInvitations(group.id);
  const remove = useRemoveMember(group.id);
  const [doomed, setDoomed] = useState<GroupMember | null>(null);
  const [dialog, setDialog] = useState<'add' | 'invite' | null>(null);
  const superAdmin = hasPermission(user, 'management-group-u');
  const count = (members.data?.length ?? 0) + (invitations.data?.length ?? 0);
  const room = group.max_invitation === null || count < group.max_invitation;
  const canAdd = group.manageable && (superAdmin || (group.system_invitation && room));
  const canInvite = group.manageable && (superAdmin || (group.email_invitation && room));

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {group.max_invitation === null
            ? t('settingsGroups.members.count', { n: members.data?.length ?? 0 })
            : t('settingsGroups.members.countOf', { n: count, max: group.max_invitation })}
        </Text>
        <Group gap="xs">
          {canAdd && (
            <Button variant="light" leftSection={<IconUserPlus size={16} />} onClick={() => setDialog('add')}>
              {t('settingsGroups.members.add')}
            </Button>
          )}
          {canInvite && (
            <Button variant="light" leftSection={<IconMail size={16} />} onClick={() => setDialog('invite')}>
              {t('settingsGroups.members.invite')}
            </Button>
          )}
        </Group>
      </Group>
      {members.isPending ? (
        <Skeleton height={120} />
      ) : (members.data ?? []).length === 0 ? (
        <Text c="dimmed">{t('settingsGroups.members.empty')}</Text>
      ) : (
        <Table verticalSpacing="xs" aria-label={t('settingsGroups.dependents.members')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settingsGroups.members.name')}</Table.Th>
              <Table.Th>{t('settingsGroups.members.apiRole')}</Table.Th>
              <Table.Th>{t('settingsGroups.members.applicationRole')}</Table.Th>
              <Table.Th w={60}>
                <VisuallyHidden>{t('settingsGroups.list.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.data!.map((member) => (
              <Table.Tr key={member.id}>
                <Table.Td>
                  <Group gap="xs">
                    {member.displayName}
                    {member.roles.GROUP === 'ADMIN' && (
                      <Badge size="sm" variant="light">
                        {t('settingsGroups.members.groupAdmin')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{member.roles.API ?? '—'}</Table.Td>
                <Table.Td>{member.roles.APPLICATION ?? '—'}</Table.Td>
                <Table.Td>
                  {group.manageable && (
                    <Tooltip label={t('settingsGroups.members.remove', { name: member.displayName })}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('settingsGroups.members.remove', { name: member.displayName })}
                        onClick={() => setDoomed(member)}
                      >
                        <IconTrash size={18} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {(invitations.data ?? []).length > 0 && (
        <Invitations group={group} invitations={invitations.data!} superAdmin={superAdmin} />
      )}
      <AddMembersDialog
        opened={dialog === 'add'}
        group={group}
        excluded={new Set((members.data ?? []).map((m) => m.id))}
        onClose={() => setDialog(null)}
      />
      <InviteMemberDialog opened={dialog === 'invite'} group={group} onClose={() => setDialog(null)} />
      <ConfirmDialog
        opened={doomed !== null}
        title={t('settingsGroups.members.removeTitle')}
        confirmLabel={t('settingsGroups.members.removeConfirm')}
        color="red"
        loading={remove.isPending}
        onClose={() => setDoomed(null)}
        onConfirm={() =>
          doomed &&
          remove.mutate(doomed.id, {
            onSuccess: () => {
              notifySuccess('settingsGroups.members.removed', { name: doomed.displayName });
              setDoomed(null);
            },
          })
        }
      >
        <ConfirmText>
          {t('settingsGroups.members.removeText', { name: doomed?.displayName ?? '' })}
        </ConfirmText>
      </ConfirmDialog>
    </Stack>
  );
}

/** Pending invitations: roles changed in place, or the invitation removed. */
function Invitations({
  group,
  invitations,
  superAdmin,
}: {
  group: GroupEntity;
  invitations: Invitation[];
  superAdmin: boolean;
}) {
  const { t } = useTranslation();
  const apiRoles = useGivableRoles('API');
  const applicationRoles = useGivableRoles('APPLICATION');
  const update = useUpdateInvitation(group.id);
  const remove = useDeleteInvitation(group.id);
  const names = (roles: { name: string }[] | undefined) => (roles ?? []).map((r) => r.name);
  const save = (invitation: Invitation, patch: Partial<Invitation>) =>
    update.mutate(
      {
        invitation: invitation.id,
        roles: {
          api_role: patch.api_role !== undefined ? patch.api_role : invitation.api_role,
          application_role:
            patch.application_role !== undefined ? patch.application_role : invitation.application_role,
        },
      },
      { onSuccess: () => notifySuccess('settingsGroups.invitations.updated', { email: invitation.email }) },
    );
  return (
    <Stack gap="xs">
      <Title order={2} size="h5">
        {t('settingsGroups.invitations.title')}
      </Title>
      <Table verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('settingsGroups.invitations.email')}</Table.Th>
            <Table.Th>{t('settingsGroups.members.apiRole')}</Table.Th>
            <Table.Th>{t('settingsGroups.members.applicationRole')}</Table.Th>
            <Table.Th w={60}>
              <VisuallyHidden>{t('settingsGroups.list.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invitations.map((invitation) => (
            <Table.Tr key={invitation.id}>
              <Table.Td>{invitation.email}</Table.Td>
              <Table.Td>
                <Select
                  aria-label={t('settingsGroups.invitations.apiRoleOf', { email: invitation.email })}
                  data={names(apiRoles.data)}
                  value={invitation.api_role}
                  placeholder={t('settingsGroups.invitations.groupDefault')}
                  clearable
                  clearButtonProps={{ 'aria-label': t('settingsGroups.form.clearRole') }}
                  disabled={!superAdmin && group.lock_api_role}
                  onChange={(role) => save(invitation, { api_role: role })}
                  size="xs"
                />
              </Table.Td>
              <Table.Td>
                <Select
                  aria-label={t('settingsGroups.invitations.applicationRoleOf', { email: invitation.email })}
                  data={names(applicationRoles.data)}
                  value={invitation.application_role}
                  placeholder={t('settingsGroups.invitations.groupDefault')}
                  clearable
                  clearButtonProps={{ 'aria-label': t('settingsGroups.form.clearRole') }}
                  disabled={!superAdmin && group.lock_application_role}
                  onChange={(role) => save(invitation, { application_role: role })}
                  size="xs"
                />
              </Table.Td>
              <Table.Td>
                <Tooltip label={t('settingsGroups.invitations.remove', { email: invitation.email })}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('settingsGroups.invitations.remove', { email: invitation.email })}
                    onClick={() =>
                      remove.mutate(invitation.id, {
                        onSuccess: () =>
                          notifySuccess('settingsGroups.invitations.removed', { email: invitation.email }),
                      })
                    }
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

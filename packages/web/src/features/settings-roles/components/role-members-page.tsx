import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Modal,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useIntersection } from '@mantine/hooks';
import { IconArrowLeft, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import type { UserSearchResult } from '../../../shared/ui/user-picker';
import { UserPicker } from '../../../shared/ui/user-picker';
import type { RoleMember } from '../api/roles';
import { ROLE_MEMBERS_CHUNK, useAddRoleMembers, useRemoveRoleMember, useRoleMembers } from '../api/roles';
import { DialogForm } from '../../../shared/ui/dialog-form';

/** management.settings.rolemembers (`/settings/role/{roleScope}/{role}/members`): who holds the role. */
export function RoleMembersPage() {
  const { t } = useTranslation();
  const { roleScope = 'MANAGEMENT', role = '' } = useParams();
  const { user } = useSession();
  const members = useRoleMembers(roleScope, role);
  const remove = useRemoveRoleMember(roleScope, role);
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState(ROLE_MEMBERS_CHUNK);
  const { ref, entry } = useIntersection({ rootMargin: '200px' });
  const all = members.data ?? [];
  const more = shown < all.length;
  const reachedEnd = !!entry?.isIntersecting;
  useEffect(() => {
    // The sentinel under the table came into view: 20 more rows (an external event, not derived state).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (reachedEnd && more) setShown((count) => count + ROLE_MEMBERS_CHUNK);
  }, [reachedEnd, more]);
  const canAdd = hasPermission(user, 'management-role-c') && hasPermission(user, 'management-role-u');
  const canRemove = hasPermission(user, 'management-role-d');

  const removeMember = (member: RoleMember) =>
    remove.mutate(member.id, {
      onSuccess: () => notifySuccess('settingsRoles.members.removed', { name: member.displayName }),
    });

  return (
    <Stack gap="lg">
      <Anchor component={Link} to={`/management/settings/roles?roleScope=${roleScope}`} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('settingsRoles.form.back')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            {t('settingsRoles.members.title', { role })}
          </Title>
          <Text c="dimmed">
            {t('settingsRoles.members.subtitle', {
              scope: t(`settingsRoles.scopes.${roleScope as 'MANAGEMENT'}`),
            })}
          </Text>
        </div>
        {canAdd && (
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)}>
            {t('settingsRoles.members.add')}
          </Button>
        )}
      </Group>
      {members.isPending ? (
        <Skeleton height={200} />
      ) : all.length === 0 ? (
        <Paper withBorder p="xl" ta="center">
          <Text c="dimmed">{t('settingsRoles.members.empty')}</Text>
        </Paper>
      ) : (
        <Table highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settingsRoles.members.name')}</Table.Th>
              <Table.Th>{t('settingsRoles.members.username')}</Table.Th>
              <Table.Th w={60}>
                <VisuallyHidden>{t('settingsRoles.list.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {all.slice(0, shown).map((member) => (
              <Table.Tr key={member.id}>
                <Table.Td>{member.displayName}</Table.Td>
                <Table.Td>{member.username}</Table.Td>
                <Table.Td>
                  {canRemove && (
                    <Tooltip label={t('settingsRoles.members.remove', { name: member.displayName })}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('settingsRoles.members.remove', { name: member.displayName })}
                        onClick={() => removeMember(member)}
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
      {more && <div ref={ref} style={{ height: 1 }} />}
      <AddMembersDialog
        opened={adding}
        onClose={() => setAdding(false)}
        scope={roleScope}
        role={role}
        excluded={new Set(all.map((m) => m.id))}
      />
    </Stack>
  );
}

function AddMembersDialog({
  opened,
  onClose,
  scope,
  role,
  excluded,
}: {
  opened: boolean;
  onClose: () => void;
  scope: string;
  role: string;
  excluded: ReadonlySet<string>;
}) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<UserSearchResult[]>([]);
  const add = useAddRoleMembers(scope, role);
  const close = () => {
    setPicked([]);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={t('settingsRoles.members.addTitle', { role })} centered>
      <DialogForm
        onSubmit={(event) => {
          event.preventDefault();
          if (picked.length === 0) return;
          add.mutate(picked, {
            onSuccess: () => {
              for (const user of picked)
                notifySuccess('settingsRoles.members.added', { name: user.displayName });
              close();
            },
          });
        }}
      >
        <Stack gap="md">
          <UserPicker
            label={t('settingsRoles.members.search')}
            value={picked}
            onChange={setPicked}
            excluded={excluded}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={picked.length === 0} loading={add.isPending}>
              {t('settingsRoles.members.addConfirm')}
            </Button>
          </Group>
        </Stack>
      </DialogForm>
    </Modal>
  );
}

import { Button, Group, Modal, Select, Stack, Switch, Text, Title } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useApiPermissions } from '../../../../shared/session/api-permissions';
import { useSession } from '../../../../shared/session/current-user';
import { isAdmin } from '../../../../shared/session/permissions';
import { notifySuccess } from '../../notify';
import { useFrameApi } from '../../api/get-api';
import { useApiMembers, useApiRoles, useRemoveMember, useSaveMember } from '../../api/members';
import type { ApiMember, Role, UserSearchResult } from '../../api/types';
import { ConfirmDialog, ConfirmText } from '../../../../shared/ui/confirm-dialog';
import { UserPicker } from '../../../../shared/ui/user-picker';
import {
  DirectMembersTable,
  InheritedMembersTable,
  assignableRoles,
} from '../../../../shared/ui/members-tables';

/**
 * management.apis.detail.members (`/members`): direct members with their role, members inherited from
 * the API's groups (shown on demand), adding members, and the way to transfer the ownership.
 */
export function MembersPage() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const { api } = useFrameApi(apiId);
  const { user } = useSession();
  const permissions = useApiPermissions(apiId);
  const members = useApiMembers(apiId);
  const roles = useApiRoles();
  const save = useSaveMember(apiId);
  const remove = useRemoveMember(apiId);
  const [showGroups, setShowGroups] = useState(false);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<ApiMember | null>(null);
  const canUpdate = permissions.has('api-member-u');
  const canDelete = permissions.has('api-member-d');
  const canTransfer = isAdmin(user) || api.owner?.id === user?.id;
  const direct = (members.data ?? []).filter((m) => !m.group);
  const inherited = (members.data ?? []).filter((m) => m.group);
  const roleNames = assignableRoles(roles.data).map((r) => r.name);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {t('apis.members.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('apis.members.hint')}
          </Text>
        </div>
        <Group gap="sm">
          {canTransfer && (
            <Button component={Link} to="../transferownership" relative="path" variant="default">
              {t('apis.members.transfer')}
            </Button>
          )}
          {permissions.has('api-member-c') && (
            <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)}>
              {t('apis.members.add')}
            </Button>
          )}
        </Group>
      </Group>
      <DirectMembersTable
        texts="apis.members"
        members={direct}
        loading={members.isPending}
        roles={roleNames}
        canUpdate={canUpdate}
        canDelete={canDelete}
        onRoleChange={(member, role) =>
          save.mutate(
            { id: member.id, role },
            { onSuccess: () => notifySuccess('apis.members.updated', { name: member.displayName }) },
          )
        }
        onRemove={setRemoving}
      />
      <Switch
        label={t('apis.members.showGroups', { number: inherited.length })}
        checked={showGroups}
        onChange={(event) => setShowGroups(event.currentTarget.checked)}
      />
      {showGroups && <InheritedMembersTable texts="apis.members" members={inherited} />}
      <AddMembersDialog
        apiId={apiId}
        opened={adding}
        roles={roles.data}
        members={new Set(direct.map((m) => m.id))}
        onClose={() => setAdding(false)}
      />
      <ConfirmDialog
        opened={removing !== null}
        title={t('apis.members.removeTitle')}
        confirmLabel={t('apis.members.removeConfirm')}
        color="red"
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              notifySuccess('apis.members.removed', { name: removing.displayName });
              setRemoving(null);
            },
          })
        }
      >
        <ConfirmText>
          {removing && t('apis.members.removeQuestion', { name: removing.displayName })}
        </ConfirmText>
      </ConfirmDialog>
    </Stack>
  );
}

/** Adds users with a role (the default API role first); each is added by its own call. */
function AddMembersDialog({
  apiId,
  opened,
  roles,
  members,
  onClose,
}: {
  apiId: string;
  opened: boolean;
  roles: Role[] | undefined;
  members: ReadonlySet<string>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveMember(apiId);
  const assignable = assignableRoles(roles);
  const [users, setUsers] = useState<UserSearchResult[]>([]);
  const [role, setRole] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const chosenRole = role ?? assignable.find((r) => r.default)?.name ?? null;
  const close = () => {
    setUsers([]);
    setRole(null);
    setFailed(false);
    onClose();
  };
  const submit = async () => {
    if (!chosenRole || users.length === 0) return;
    setFailed(false);
    try {
      for (const user of users) await save.mutateAsync({ id: user.id, role: chosenRole });
      notifySuccess('apis.members.added', { number: users.length });
      close();
    } catch {
      setFailed(true);
    }
  };
  return (
    <Modal opened={opened} onClose={close} title={t('apis.members.addTitle')} centered size="lg">
      <Stack gap="md">
        <UserPicker label={t('apis.members.users')} value={users} onChange={setUsers} excluded={members} />
        <Select
          label={t('apis.members.role')}
          withAsterisk
          data={assignable.map((r) => ({ value: r.name, label: r.name }))}
          value={chosenRole}
          allowDeselect={false}
          onChange={setRole}
        />
        {failed && (
          <Text size="sm" c="red" role="alert">
            {t('apis.members.addFailed')}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            {t('apis.confirm.cancel')}
          </Button>
          <Button
            loading={save.isPending}
            disabled={!chosenRole || users.length === 0}
            onClick={() => void submit()}
          >
            {t('apis.members.addConfirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

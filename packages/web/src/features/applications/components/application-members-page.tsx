import { Button, Group, Modal, Select, Stack, Switch, Text, Title } from '@mantine/core';
import { IconCrown, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PRIMARY_OWNER } from '@portico/model';
import { useApplicationPermissions } from '../../../shared/session/application-permissions';
import { useSession } from '../../../shared/session/current-user';
import { isAdmin } from '../../../shared/session/permissions';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import {
  DirectMembersTable,
  InheritedMembersTable,
  assignableRoles,
} from '../../../shared/ui/members-tables';
import { notifySuccess } from '../../../shared/ui/notify';
import type { UserSearchResult } from '../../../shared/ui/user-picker';
import { UserPicker } from '../../../shared/ui/user-picker';
import {
  useApplication,
  useApplicationMembers,
  useApplicationRoles,
  useRemoveApplicationMember,
  useSaveApplicationMember,
  useTransferApplicationOwnership,
} from '../api/applications';
import type { ApplicationMember, Role } from '../api/types';
import { DialogForm } from '../../../shared/ui/dialog-form';

/**
 * The members of an application (`.../members`): direct members with their role, those inherited from
 * its groups (shown on demand), adding members, changing roles, removing, and ownership transfer.
 */
export function ApplicationMembersPage() {
  const { t } = useTranslation();
  const { applicationId = '' } = useParams();
  const { user } = useSession();
  const application = useApplication(applicationId);
  const permissions = useApplicationPermissions(applicationId);
  const members = useApplicationMembers(applicationId);
  const roles = useApplicationRoles();
  const save = useSaveApplicationMember(applicationId);
  const remove = useRemoveApplicationMember(applicationId);
  const [adding, setAdding] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const [removing, setRemoving] = useState<ApplicationMember | null>(null);
  const [showGroups, setShowGroups] = useState(false);
  const direct = (members.data ?? []).filter((m) => m.group === null);
  const inherited = (members.data ?? []).filter((m) => m.group !== null);
  const owner = direct.find((m) => m.role === PRIMARY_OWNER);
  const canTransfer = isAdmin(user) || (!!user && owner?.id === user.id);
  const roleNames = assignableRoles(roles.data).map((role) => role.name);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {t('applications.members.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('applications.members.hint')}
          </Text>
        </div>
        <Group gap="sm">
          {canTransfer && (
            <Button
              variant="default"
              leftSection={<IconCrown size={16} />}
              onClick={() => setTransferring(true)}
            >
              {t('applications.members.transfer')}
            </Button>
          )}
          {permissions.has('application-member-c') && (
            <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)}>
              {t('applications.members.add')}
            </Button>
          )}
        </Group>
      </Group>
      <DirectMembersTable
        texts="applications.members"
        members={direct}
        loading={members.isPending}
        roles={roleNames}
        canUpdate={permissions.has('application-member-u')}
        canDelete={permissions.has('application-member-d')}
        onRoleChange={(member, role) =>
          save.mutate(
            { id: member.id, role },
            {
              onSuccess: () => notifySuccess('applications.members.updated', { name: member.displayName }),
            },
          )
        }
        onRemove={setRemoving}
      />
      <Switch
        label={t('applications.members.showGroups', { number: inherited.length })}
        checked={showGroups}
        onChange={(event) => setShowGroups(event.currentTarget.checked)}
      />
      {showGroups && (
        <InheritedMembersTable
          texts="applications.members"
          members={inherited}
          label={t('applications.members.inherited')}
        />
      )}
      {adding && (
        <AddMembersDialog
          applicationId={applicationId}
          excluded={new Set(direct.map((m) => m.id))}
          roles={assignableRoles(roles.data)}
          onClose={() => setAdding(false)}
        />
      )}
      {transferring && (
        <TransferDialog
          applicationId={applicationId}
          applicationName={application.data?.name ?? ''}
          ownerId={owner?.id}
          roles={assignableRoles(roles.data)}
          onClose={() => setTransferring(false)}
        />
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={t('applications.members.removeTitle')}
        confirmLabel={t('applications.members.removeConfirm')}
        color="red"
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              notifySuccess('applications.members.removed', { name: removing.displayName });
              setRemoving(null);
            },
          })
        }
      >
        <ConfirmText>
          {t('applications.members.removeQuestion', { name: removing?.displayName ?? '' })}
        </ConfirmText>
      </ConfirmDialog>
    </Stack>
  );
}

function AddMembersDialog({
  applicationId,
  excluded,
  roles,
  onClose,
}: {
  applicationId: string;
  excluded: ReadonlySet<string>;
  roles: Role[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveApplicationMember(applicationId);
  const [users, setUsers] = useState<UserSearchResult[]>([]);
  const [role, setRole] = useState<string | null>(
    roles.find((r) => r.default)?.name ?? roles[0]?.name ?? null,
  );
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!role || users.length === 0) return;
    setBusy(true);
    const added: string[] = [];
    for (const user of users) {
      try {
        await save.mutateAsync({ id: user.id, role });
        added.push(user.displayName);
      } catch {
        // The error catalogue showed why; the others are still added.
      }
    }
    setBusy(false);
    if (added.length === 1) notifySuccess('applications.members.added', { name: added[0]! });
    else if (added.length > 1) notifySuccess('applications.members.addedMany', { number: added.length });
    onClose();
  };
  return (
    <Modal opened onClose={onClose} title={t('applications.members.addTitle')} centered>
      <DialogForm
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <UserPicker
            label={t('applications.members.users')}
            value={users}
            onChange={setUsers}
            excluded={excluded}
          />
          <Select
            label={t('applications.members.role')}
            data={roles.map((r) => ({ value: r.name, label: r.name }))}
            value={role}
            onChange={setRole}
            required
            allowDeselect={false}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!role || users.length === 0} loading={busy}>
              {t('applications.members.addConfirm')}
            </Button>
          </Group>
        </Stack>
      </DialogForm>
    </Modal>
  );
}

function TransferDialog({
  applicationId,
  applicationName,
  ownerId,
  roles,
  onClose,
}: {
  applicationId: string;
  applicationName: string;
  ownerId: string | undefined;
  roles: Role[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const transfer = useTransferApplicationOwnership(applicationId);
  const [users, setUsers] = useState<UserSearchResult[]>([]);
  const [role, setRole] = useState<string | null>(
    roles.find((r) => r.default)?.name ?? roles[0]?.name ?? null,
  );
  const chosen = users[0];
  return (
    <Modal opened onClose={onClose} title={t('applications.members.transferTitle')} centered>
      <DialogForm
        onSubmit={(event) => {
          event.preventDefault();
          if (!chosen || !role) return;
          transfer.mutate(
            { id: chosen.id, role },
            {
              onSuccess: () => {
                notifySuccess('applications.members.transferred', { name: chosen.displayName });
                onClose();
              },
            },
          );
        }}
      >
        <Stack gap="md">
          <Text size="sm">{t('applications.members.transferHint', { name: applicationName })}</Text>
          <UserPicker
            label={t('applications.members.newOwner')}
            value={users}
            onChange={setUsers}
            excluded={new Set(ownerId ? [ownerId] : [])}
            multiple={false}
          />
          <Select
            label={t('applications.members.previousOwnerRole')}
            data={roles.map((r) => ({ value: r.name, label: r.name }))}
            value={role}
            onChange={setRole}
            required
            allowDeselect={false}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!chosen || !role} loading={transfer.isPending}>
              {t('applications.members.transferConfirm')}
            </Button>
          </Group>
        </Stack>
      </DialogForm>
    </Modal>
  );
}

import { Alert, Button, Checkbox, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { isHttpError } from '../../../shared/http';
import { translateServerText } from '../../../shared/i18n/server-messages';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import type { UserSearchResult } from '../../../shared/ui/user-picker';
import { UserPicker } from '../../../shared/ui/user-picker';
import type { GroupEntity } from '../api/groups';
import { useGivableRoles, useInvite, useSaveMembers } from '../api/groups';
import { DialogForm } from '../../../shared/ui/dialog-form';

const Email = z.email();

/** The API and application role pickers of both dialogs (locked roles fixed for group admins). */
function RolePickers({
  group,
  api,
  application,
  onChange,
}: {
  group: GroupEntity;
  api: string | null;
  application: string | null;
  onChange: (roles: { api: string | null; application: string | null }) => void;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const superAdmin = hasPermission(user, 'management-group-u');
  const apiRoles = useGivableRoles('API');
  const applicationRoles = useGivableRoles('APPLICATION');
  return (
    <>
      <Select
        label={t('settingsGroups.members.apiRole')}
        data={(apiRoles.data ?? []).map((r) => r.name)}
        value={api}
        clearable
        clearButtonProps={{ 'aria-label': t('settingsGroups.form.clearRole') }}
        disabled={!superAdmin && group.lock_api_role}
        onChange={(role) => onChange({ api: role, application })}
      />
      <Select
        label={t('settingsGroups.members.applicationRole')}
        data={(applicationRoles.data ?? []).map((r) => r.name)}
        value={application}
        clearable
        clearButtonProps={{ 'aria-label': t('settingsGroups.form.clearRole') }}
        disabled={!superAdmin && group.lock_application_role}
        onChange={(role) => onChange({ api, application: role })}
      />
    </>
  );
}

const failure = (error: unknown, fallback: string) =>
  (isHttpError(error) && translateServerText(error.text)) || fallback;

/** Add group members: users found by search, an API or application role, optionally group admin. */
export function AddMembersDialog({
  opened,
  group,
  excluded,
  onClose,
}: {
  opened: boolean;
  group: GroupEntity;
  excluded: ReadonlySet<string>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveMembers(group.id);
  const [users, setUsers] = useState<UserSearchResult[]>([]);
  const [roles, setRoles] = useState({
    api: group.roles.API ?? null,
    application: group.roles.APPLICATION ?? null,
  });
  const [admin, setAdmin] = useState(false);
  const close = () => {
    setUsers([]);
    setAdmin(false);
    save.reset();
    onClose();
  };
  const noRole = !roles.api && !roles.application;
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('settingsGroups.members.addTitle')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md">
        {save.isError && (
          <Alert color="red" role="alert">
            {failure(save.error, t('errors.unexpected'))}
          </Alert>
        )}
        <UserPicker
          label={t('settingsGroups.members.users')}
          value={users}
          onChange={setUsers}
          excluded={excluded}
        />
        <RolePickers group={group} api={roles.api} application={roles.application} onChange={setRoles} />
        {noRole && (
          <Alert color="yellow" variant="light">
            {t('settingsGroups.members.selectRole')}
          </Alert>
        )}
        <Checkbox
          label={t('settingsGroups.members.makeAdmin')}
          checked={admin}
          onChange={(event) => setAdmin(event.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button
            disabled={users.length === 0 || noRole}
            loading={save.isPending}
            onClick={() =>
              save.mutate(
                users.map((u) => ({
                  id: u.id,
                  reference: u.reference,
                  roles: [
                    ...(roles.api ? [{ scope: 'API' as const, name: roles.api }] : []),
                    ...(roles.application
                      ? [{ scope: 'APPLICATION' as const, name: roles.application }]
                      : []),
                    ...(admin ? [{ scope: 'GROUP' as const, name: 'ADMIN' }] : []),
                  ],
                })),
                {
                  onSuccess: () => {
                    notifySuccess('settingsGroups.members.added');
                    close();
                  },
                },
              )
            }
          >
            {t('settingsGroups.members.addConfirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Invite a member by email: a mail with a link goes out (an existing user's email joins at once). */
export function InviteMemberDialog({
  opened,
  group,
  onClose,
}: {
  opened: boolean;
  group: GroupEntity;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const invite = useInvite(group.id);
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [roles, setRoles] = useState<{ api: string | null; application: string | null }>({
    api: null,
    application: null,
  });
  const close = () => {
    setEmail('');
    setTouched(false);
    invite.reset();
    onClose();
  };
  const problem = !email.trim() ? 'required' : Email.safeParse(email.trim()).success ? undefined : 'format';
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('settingsGroups.invitations.inviteTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <DialogForm
        onSubmit={(event) => {
          event.preventDefault();
          if (problem) return setTouched(true);
          invite.mutate(
            { email: email.trim(), api_role: roles.api, application_role: roles.application },
            {
              onSuccess: (invitation) => {
                if (invitation) notifySuccess('settingsGroups.invitations.sent', { email: email.trim() });
                else notifySuccess('settingsGroups.members.added');
                close();
              },
            },
          );
        }}
      >
        <Stack gap="md">
          {invite.isError && (
            <Alert color="red" role="alert">
              {failure(invite.error, t('errors.unexpected'))}
            </Alert>
          )}
          <TextInput
            label={t('settingsGroups.invitations.email')}
            type="email"
            required
            data-autofocus
            value={email}
            error={touched && problem ? t(`settingsGroups.invitations.emailErrors.${problem}`) : undefined}
            onBlur={() => setTouched(true)}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          <RolePickers group={group} api={roles.api} application={roles.application} onChange={setRoles} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!!problem} loading={invite.isPending}>
              {t('settingsGroups.invitations.send')}
            </Button>
          </Group>
        </Stack>
      </DialogForm>
    </Modal>
  );
}

import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconKey, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import type { User } from '../api/users';
import {
  PORTICO_SOURCE,
  useChangeUserRole,
  useDeleteUser,
  usePlatformRoles,
  useResetPassword,
  useUser,
} from '../api/users';
import { UserGroupsTab, UserMembershipsTab } from './user-tabs';

/** management.settings.user (`/settings/users/{userId}`): roles, password reset, deletion, and what the user belongs to. */
export function UserPage() {
  const { t } = useTranslation();
  const { userId = '' } = useParams();
  const user = useUser(userId);
  if (user.isPending) return <Skeleton height={420} />;
  if (!user.data) return null;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/management/settings/users" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('settingsUsers.detail.back')}
        </Group>
      </Anchor>
      <UserHeader user={user.data} />
      <Tabs defaultValue="groups" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="groups">{t('settingsUsers.detail.groups')}</Tabs.Tab>
          <Tabs.Tab value="apis">{t('settingsUsers.detail.apis')}</Tabs.Tab>
          <Tabs.Tab value="applications">{t('settingsUsers.detail.applications')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="groups" pt="md">
          <UserGroupsTab userId={user.data.id} />
        </Tabs.Panel>
        <Tabs.Panel value="apis" pt="md">
          <UserMembershipsTab userId={user.data.id} type="api" />
        </Tabs.Panel>
        <Tabs.Panel value="applications" pt="md">
          <UserMembershipsTab userId={user.data.id} type="application" />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function UserHeader({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user: me } = useSession();
  const [confirm, setConfirm] = useState<'delete' | 'reset' | null>(null);
  const remove = useDeleteUser();
  const reset = useResetPassword();
  const canDelete = hasPermission(me, 'management-user-d') && !user.primary_owner && me?.id !== user.id;
  const canReset = hasPermission(me, 'management-user-u') && user.source === PORTICO_SOURCE;

  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <div>
            <Group gap="xs">
              <Title order={1} size="h2">
                {user.displayName}
              </Title>
              {user.primary_owner && (
                <Badge variant="light" color="violet">
                  {t('settingsUsers.primaryOwner')}
                </Badge>
              )}
              {user.status !== 'ACTIVE' && (
                <Badge variant="light" color="gray">
                  {t('settingsUsers.status.PENDING')}
                </Badge>
              )}
            </Group>
            <Text c="dimmed">
              {[user.email, t('settingsUsers.detail.source', { source: user.source })]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          </div>
          <Group gap="sm">
            {canReset && (
              <Button
                variant="default"
                leftSection={<IconKey size={16} />}
                onClick={() => setConfirm('reset')}
              >
                {t('settingsUsers.detail.resetPassword')}
              </Button>
            )}
            {canDelete && (
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} />}
                onClick={() => setConfirm('delete')}
              >
                {t('settingsUsers.detail.delete')}
              </Button>
            )}
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} maw={640}>
          <RoleSelect user={user} scope="MANAGEMENT" />
          <RoleSelect user={user} scope="PORTAL" />
        </SimpleGrid>
      </Stack>
      <ConfirmDialog
        opened={confirm === 'delete'}
        title={t('settingsUsers.detail.deleteTitle')}
        confirmLabel={t('settingsUsers.detail.delete')}
        color="red"
        loading={remove.isPending}
        onClose={() => setConfirm(null)}
        onConfirm={() =>
          remove.mutate(user.id, {
            onSuccess: () => {
              notifySuccess('settingsUsers.detail.deleted', { name: user.displayName });
              void navigate('/management/settings/users');
            },
          })
        }
      >
        <ConfirmText>{t('settingsUsers.detail.deleteText', { name: user.displayName })}</ConfirmText>
      </ConfirmDialog>
      <ConfirmDialog
        opened={confirm === 'reset'}
        title={t('settingsUsers.detail.resetTitle')}
        confirmLabel={t('settingsUsers.detail.resetPassword')}
        loading={reset.isPending}
        onClose={() => setConfirm(null)}
        onConfirm={() =>
          reset.mutate(user.id, {
            onSuccess: () => {
              notifySuccess('settingsUsers.detail.resetDone', { name: user.displayName });
              setConfirm(null);
            },
          })
        }
      >
        <ConfirmText>{t('settingsUsers.detail.resetText', { name: user.displayName })}</ConfirmText>
      </ConfirmDialog>
    </Paper>
  );
}

function RoleSelect({ user, scope }: { user: User; scope: 'MANAGEMENT' | 'PORTAL' }) {
  const { t } = useTranslation();
  const { user: me } = useSession();
  const roles = usePlatformRoles(scope);
  const change = useChangeUserRole(user.id);
  const current = user.roles?.find((r) => r.scope === scope)?.name ?? null;
  const mayChange = hasPermission(me, 'management-role-c') && hasPermission(me, 'management-role-u');
  return (
    <Select
      label={t(`settingsUsers.detail.role.${scope}`)}
      data={(roles.data ?? []).map((r) => ({ value: r.name, label: r.name }))}
      value={current}
      allowDeselect={false}
      disabled={!mayChange || change.isPending}
      onChange={(role) =>
        role &&
        role !== current &&
        change.mutate(
          { scope, role },
          { onSuccess: () => notifySuccess('settingsUsers.detail.roleChanged', { role }) },
        )
      }
    />
  );
}

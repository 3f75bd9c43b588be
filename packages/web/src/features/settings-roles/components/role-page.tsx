import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Skeleton,
  Stack,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import type { Role, RoleInput, RoleScope } from '../api/roles';
import { isRoleScope, useRole, useRoleScopes, useSaveRole } from '../api/roles';
import { PermissionGrid } from './permission-grid';

const listPath = (scope: string) => `/management/settings/roles?roleScope=${scope}`;

/**
 * management.settings.rolenew and .role (`/settings/role/{roleScope}/new`, `/settings/role/{roleScope}/{role}`):
 * name (new roles only), description, default flag and the permission grid; system roles are read-only.
 */
export function RolePage() {
  const { roleScope = '', role } = useParams();
  const scope: RoleScope = isRoleScope(roleScope) ? roleScope : 'MANAGEMENT';
  const isNew = role === undefined || role === 'new';
  const loaded = useRole(scope, isNew ? undefined : role);
  const scopes = useRoleScopes();
  if ((!isNew && loaded.isPending) || scopes.isPending) return <Skeleton height={420} />;
  if (!isNew && !loaded.data) return null;
  return (
    <RoleForm
      key={loaded.data?.name ?? 'new'}
      scope={scope}
      role={isNew ? undefined : loaded.data}
      permissions={scopes.data?.[scope] ?? []}
    />
  );
}

function RoleForm({
  scope,
  role,
  permissions,
}: {
  scope: RoleScope;
  role: Role | undefined;
  permissions: string[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const initial: RoleInput = {
    name: role?.name ?? '',
    description: role?.description ?? '',
    default: role?.default ?? false,
    permissions: role?.permissions ?? {},
  };
  const [value, setValue] = useState<RoleInput>(initial);
  const [touched, setTouched] = useState(false);
  const save = useSaveRole(scope, role?.name);
  const system = role?.system ?? false;
  const mayWrite = hasPermission(user, role ? 'management-role-u' : 'management-role-c');
  const readOnly = system || !mayWrite;
  const pristine = JSON.stringify(value) === JSON.stringify(initial);
  const nameError = !role && touched && !value.name.trim() ? t('settingsRoles.form.nameRequired') : undefined;
  const invalid = !role && !value.name.trim();
  const change = (patch: Partial<RoleInput>) => setValue((current) => ({ ...current, ...patch }));

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (invalid || pristine || readOnly) return;
        save.mutate(value, {
          onSuccess: (saved) => {
            notifySuccess(role ? 'settingsRoles.form.updated' : 'settingsRoles.form.created', {
              name: saved.name,
            });
            if (!role)
              void navigate(`/management/settings/role/${scope}/${encodeURIComponent(saved.name)}`, {
                replace: true,
              });
          },
        });
      }}
    >
      <Stack gap="lg">
        <Anchor component={Link} to={listPath(scope)} size="sm">
          <Group gap={4}>
            <IconArrowLeft size={14} />
            {t('settingsRoles.form.back')}
          </Group>
        </Anchor>
        <Group gap="sm">
          <Title order={1} size="h2">
            {role
              ? role.name
              : t('settingsRoles.form.newTitle', { scope: t(`settingsRoles.scopes.${scope}`) })}
          </Title>
          {role?.default && (
            <Badge variant="light" color="teal">
              {t('settingsRoles.badges.default')}
            </Badge>
          )}
          {system && (
            <Badge variant="light" color="gray">
              {t('settingsRoles.badges.system')}
            </Badge>
          )}
        </Group>
        {system && (
          <Alert icon={<IconLock size={18} />} color="gray">
            {t('settingsRoles.form.systemReadOnly')}
          </Alert>
        )}
        <TextInput
          label={t('settingsRoles.form.name')}
          required={!role}
          disabled={!!role}
          value={value.name}
          error={nameError}
          onBlur={() => setTouched(true)}
          onChange={(event) => change({ name: event.currentTarget.value })}
          maw={480}
        />
        <Textarea
          label={t('settingsRoles.form.description')}
          value={value.description}
          readOnly={readOnly}
          autosize
          minRows={2}
          onChange={(event) => change({ description: event.currentTarget.value })}
          maw={640}
        />
        <Checkbox
          label={t('settingsRoles.form.default')}
          description={t('settingsRoles.form.defaultHint')}
          checked={value.default}
          disabled={readOnly || (role?.default ?? false)}
          onChange={(event) => change({ default: event.currentTarget.checked })}
        />
        <Title order={2} size="h4">
          {t('settingsRoles.form.permissions')}
        </Title>
        <PermissionGrid
          permissions={permissions}
          value={value.permissions}
          onChange={(permissionsMap) => change({ permissions: permissionsMap })}
          readOnly={readOnly}
        />
        {!readOnly && (
          <Group>
            <Button type="submit" disabled={invalid || pristine} loading={save.isPending}>
              {role ? t('common.save') : t('settingsRoles.form.create')}
            </Button>
            <Button variant="default" disabled={pristine} onClick={() => setValue(initial)}>
              {t('common.reset')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus, IconTrash, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { DeleteConfirmDialog } from '../../../shared/ui/settings-list-page';
import type { Role, RoleScope } from '../api/roles';
import { MEMBER_SCOPES, ROLE_SCOPES, isRoleScope, useDeleteRole, useRoles } from '../api/roles';

const base = '/management/settings';

/** management.settings.roles (`/settings/roles?roleScope`): the roles of each scope, one tab per scope. */
export function RolesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('roleScope');
  const scope: RoleScope = isRoleScope(asked) ? asked : 'MANAGEMENT';
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          {t('settingsRoles.list.title')}
        </Title>
        <Text c="dimmed">{t('settingsRoles.list.subtitle')}</Text>
      </div>
      <Tabs
        value={scope}
        onChange={(value) => value && setParams({ roleScope: value }, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List>
          {ROLE_SCOPES.map((s) => (
            <Tabs.Tab key={s} value={s}>
              {t(`settingsRoles.scopes.${s}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {ROLE_SCOPES.map((s) => (
          <Tabs.Panel key={s} value={s} pt="md">
            <ScopeRoles scope={s} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}

function ScopeRoles({ scope }: { scope: RoleScope }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const roles = useRoles(scope);
  const remove = useDeleteRole(scope);
  const [doomed, setDoomed] = useState<Role | null>(null);
  const canCreate = hasPermission(user, 'management-role-c');
  const canDelete = hasPermission(user, 'management-role-d');
  const withMembers = MEMBER_SCOPES.includes(scope);

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          {t('settingsRoles.list.scopeTitle', { scope: t(`settingsRoles.scopes.${scope}`) })}
        </Title>
        {canCreate && (
          <Button
            component={Link}
            to={`${base}/role/${scope}/new`}
            leftSection={<IconPlus size={16} />}
            variant="light"
          >
            {t('settingsRoles.list.add')}
          </Button>
        )}
      </Group>
      {roles.isPending ? (
        <Skeleton height={160} />
      ) : (
        <Table highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settingsRoles.list.name')}</Table.Th>
              <Table.Th>{t('settingsRoles.list.description')}</Table.Th>
              <Table.Th w={120}>
                <VisuallyHidden>{t('settingsRoles.list.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(roles.data ?? []).map((role) => (
              <Table.Tr key={role.name}>
                <Table.Td>
                  <Group gap="xs">
                    <Anchor component={Link} to={`${base}/role/${scope}/${encodeURIComponent(role.name)}`}>
                      {role.name}
                    </Anchor>
                    {role.default && (
                      <Badge size="sm" variant="light" color="teal">
                        {t('settingsRoles.badges.default')}
                      </Badge>
                    )}
                    {role.system && (
                      <Badge size="sm" variant="light" color="gray">
                        {t('settingsRoles.badges.system')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{role.description}</Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    {withMembers && (
                      <Tooltip label={t('settingsRoles.list.members', { name: role.name })}>
                        <ActionIcon
                          component={Link}
                          to={`${base}/role/${scope}/${encodeURIComponent(role.name)}/members`}
                          variant="subtle"
                          aria-label={t('settingsRoles.list.members', { name: role.name })}
                        >
                          <IconUsers size={18} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                    {canDelete && !role.system && !role.default && (
                      <Tooltip label={t('settingsRoles.list.delete', { name: role.name })}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('settingsRoles.list.delete', { name: role.name })}
                          onClick={() => setDoomed(role)}
                        >
                          <IconTrash size={18} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <DeleteConfirmDialog
        item={doomed}
        question={(row) => t('settingsRoles.delete.text', { name: row.name })}
        title={t('settingsRoles.delete.title')}
        confirmLabel={t('settingsRoles.delete.confirm')}
        remove={remove}
        idOf={(row) => row.name}
        done="settingsRoles.delete.done"
        onClose={() => setDoomed(null)}
      />
    </Stack>
  );
}

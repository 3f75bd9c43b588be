import { Anchor, Badge, Button, Checkbox, Group, Menu, Stack, Table, Text, Title } from '@mantine/core';
import { IconChevronDown, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IDENTITY_PROVIDER_TYPES } from '@portico/model';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { DateText } from '../../../shared/ui/date-text';
import { notifySuccess } from '../../../shared/ui/notify';
import { useIdentityProviderList, useLoginSettings, useSaveLoginSetting } from '../api/identities';
import { typeLabel } from './identity-types';

/**
 * Settings > Authentication (`/management/settings/identities`): force-login and show-login-form settings,
 * the identity providers, and a menu creating a provider of each type.
 */
export function IdentitiesListPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const providers = useIdentityProviderList();
  const login = useLoginSettings();
  const saveLogin = useSaveLoginSetting();
  const canCreate = hasPermission(user, 'portal-identity_provider-c');
  const canSetSettings = hasPermission(user, 'portal-settings-u');
  const toggle = (key: 'forceLogin' | 'localLogin', enabled: boolean) =>
    saveLogin.mutate(
      { key, enabled },
      { onSuccess: () => notifySuccess('settingsIdentities.settingsSaved') },
    );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('settingsIdentities.title')}
        </Title>
        {canCreate && (
          <Menu position="bottom-end">
            <Menu.Target>
              <Button leftSection={<IconPlus size={16} />} rightSection={<IconChevronDown size={16} />}>
                {t('settingsIdentities.new')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {IDENTITY_PROVIDER_TYPES.map((type) => (
                <Menu.Item key={type} component={Link} to={`new?type=${type}`}>
                  {typeLabel(t, type)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      <Checkbox
        label={t('settingsIdentities.forceLogin')}
        checked={login.data?.forceLogin ?? false}
        disabled={!canSetSettings || saveLogin.isPending}
        onChange={(e) => toggle('forceLogin', e.currentTarget.checked)}
      />
      <Checkbox
        label={t('settingsIdentities.localLogin')}
        checked={login.data?.localLogin ?? true}
        disabled={!canSetSettings || saveLogin.isPending}
        onChange={(e) => toggle('localLogin', e.currentTarget.checked)}
      />
      {providers.isSuccess && providers.data.length === 0 ? (
        <Text c="dimmed">{t('settingsIdentities.empty')}</Text>
      ) : (
        <Table highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settingsIdentities.id')}</Table.Th>
              <Table.Th>{t('settingsIdentities.name')}</Table.Th>
              <Table.Th>{t('settingsIdentities.description')}</Table.Th>
              <Table.Th>{t('settingsIdentities.enabled')}</Table.Th>
              <Table.Th>{t('settingsIdentities.updatedAt')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(providers.data ?? []).map((provider) => (
              <Table.Tr key={provider.id}>
                <Table.Td>
                  <Anchor component={Link} to={encodeURIComponent(provider.id)}>
                    {provider.id}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  {provider.name}{' '}
                  <Badge variant="light" size="sm">
                    {typeLabel(t, provider.type)}
                  </Badge>
                </Table.Td>
                <Table.Td>{provider.description}</Table.Td>
                <Table.Td>
                  <Text
                    size="sm"
                    c={provider.enabled ? undefined : 'dimmed'}
                    fw={provider.enabled ? 700 : 500}
                  >
                    {provider.enabled ? t('settingsIdentities.on') : t('settingsIdentities.off')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <DateText value={provider.updated_at} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

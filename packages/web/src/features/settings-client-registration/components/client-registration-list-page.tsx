import {
  ActionIcon,
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ClientRegistrationProviderJson } from '@portico/model';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import {
  useClientRegistrationProviders,
  useDeleteClientRegistrationProvider,
  useRegistrationFlag,
  useSaveRegistrationFlag,
} from '../api/providers';

/** The list's date format of section 9 ('MMM d, y h:mm:ss a'). */
export const formatUpdatedAt = (value: number) => dayjs(value).format('MMM D, YYYY h:mm:ss A');

/**
 * Settings > Client Registration (`/management/settings/client-registration`,
 * management.settings.clientregistrationproviders.list): the registration flag and the providers by name.
 */
export function ClientRegistrationListPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const providers = useClientRegistrationProviders();
  const flag = useRegistrationFlag();
  const saveFlag = useSaveRegistrationFlag();
  const remove = useDeleteClientRegistrationProvider();
  const [deleting, setDeleting] = useState<ClientRegistrationProviderJson | null>(null);
  const canCreate = hasPermission(user, 'portal-client_registration_provider-c');
  const canDelete = hasPermission(user, 'portal-client_registration_provider-d');
  const canSetFlag = hasPermission(user, 'portal-settings-u');
  const rows = [...(providers.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('settingsClientRegistration.title')}
        </Title>
        {canCreate && rows.length > 0 && (
          <Button component={Link} to="new" leftSection={<IconPlus size={16} />}>
            {t('settingsClientRegistration.new')}
          </Button>
        )}
      </Group>
      <Checkbox
        label={t('settingsClientRegistration.flag')}
        checked={flag.data ?? false}
        disabled={!canSetFlag || flag.isPending || saveFlag.isPending}
        onChange={(event) => {
          const enabled = event.currentTarget.checked;
          saveFlag.mutate(enabled, {
            onSuccess: () =>
              notifySuccess(
                enabled ? 'settingsClientRegistration.mandatory' : 'settingsClientRegistration.optional',
              ),
          });
        }}
      />
      {providers.isSuccess && rows.length === 0 ? (
        <Paper withBorder p="xl">
          <Stack align="center" gap="xs">
            <Text fw={600}>{t('settingsClientRegistration.empty')}</Text>
            <Text c="dimmed" size="sm">
              {t('settingsClientRegistration.emptyHint')}
            </Text>
            {canCreate && (
              <Button component={Link} to="new" leftSection={<IconPlus size={16} />}>
                {t('settingsClientRegistration.new')}
              </Button>
            )}
          </Stack>
        </Paper>
      ) : (
        <Table highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settingsClientRegistration.name')}</Table.Th>
              <Table.Th>{t('settingsClientRegistration.description')}</Table.Th>
              <Table.Th>{t('settingsClientRegistration.updatedAt')}</Table.Th>
              <Table.Th aria-label={t('settingsClientRegistration.actions')} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((provider) => (
              <Table.Tr key={provider.id}>
                <Table.Td>
                  <Anchor component={Link} to={encodeURIComponent(provider.id)}>
                    {provider.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{provider.description}</Table.Td>
                <Table.Td>{formatUpdatedAt(provider.updated_at)}</Table.Td>
                <Table.Td>
                  {canDelete && (
                    <Tooltip label={t('settingsClientRegistration.delete')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('settingsClientRegistration.deleteNamed', { name: provider.name })}
                        onClick={() => setDeleting(provider)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('settingsClientRegistration.delete')}
        confirmLabel={t('settingsClientRegistration.delete')}
        color="red"
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          const provider = deleting!;
          remove.mutate(provider.id, {
            onSuccess: () => {
              setDeleting(null);
              notifySuccess('settingsClientRegistration.deleted', { name: provider.name });
            },
          });
        }}
      >
        <ConfirmText>{t('settingsClientRegistration.confirmDelete')}</ConfirmText>
      </ConfirmDialog>
    </Stack>
  );
}

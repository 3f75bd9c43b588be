import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconEdit, IconPlus, IconRadar, IconTrash } from '@tabler/icons-react';
import type { Endpoint } from '@portico/model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDialog, ConfirmText } from '../../shared/ui/confirm-dialog';
import { useApiProxy } from './use-proxy';
import { withoutEndpoint, withoutGroup } from './proxy-model';

type Deleting = { group: number; endpoint?: number; name: string };

/**
 * `/proxy/endpoints` (console-apis.md 2.5): each group with its endpoints; add, edit, delete; the link to
 * the service discovery of the groups.
 */
export function EndpointsPage() {
  const { t } = useTranslation();
  const { api, proxy, base, canUpdate, save, saving } = useApiProxy();
  const apiCheck = api.services['health-check']?.enabled === true;
  // Checked by its own configuration, or by the API's when it inherits it.
  const checked = (endpoint: Endpoint) =>
    endpoint.healthcheck && endpoint.healthcheck.inherit === false
      ? endpoint.healthcheck.enabled
      : apiCheck && endpoint.healthcheck?.enabled !== false;
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const path = (...parts: string[]) => `${base}/proxy/${parts.map(encodeURIComponent).join('/')}`;
  const lastGroup = proxy.groups.length <= 1;

  const confirmDelete = () => {
    if (!deleting) return;
    const next =
      deleting.endpoint === undefined
        ? withoutGroup(proxy, deleting.group)
        : withoutEndpoint(proxy, deleting.group, deleting.endpoint);
    if (next) save(next, () => setDeleting(null));
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('apiProxy.endpoints.title')}
        </Title>
        <Group gap="sm">
          {/* Service discovery is not in the side menu (console-apis.md 2.5): it opens from here. */}
          <Button
            variant="default"
            component={Link}
            to={`${base}/proxy/discovery`}
            leftSection={<IconRadar size={16} />}
          >
            {t('apiProxy.discovery.title')}
          </Button>
          {canUpdate && (
            <Button component={Link} to={`${base}/proxy/newgroup`} leftSection={<IconPlus size={16} />}>
              {t('apiProxy.endpoints.addGroup')}
            </Button>
          )}
        </Group>
      </Group>
      {proxy.groups.map((group, g) => (
        <Paper key={group.name} withBorder radius="md" p="md">
          <Stack gap="sm">
            <Group justify="space-between">
              <Group gap="sm">
                <Title order={3} size="h4">
                  {group.name}
                </Title>
                <Badge variant="light" color="gray">
                  {t(`apiProxy.group.lb.${group.load_balancing.type}`)}
                </Badge>
              </Group>
              <Group gap="xs">
                <Tooltip label={t('apiProxy.endpoints.editGroup', { name: group.name })}>
                  <ActionIcon
                    variant="subtle"
                    size="lg"
                    component={Link}
                    to={path('groups', group.name)}
                    aria-label={t('apiProxy.endpoints.editGroup', { name: group.name })}
                  >
                    <IconEdit size={16} />
                  </ActionIcon>
                </Tooltip>
                {canUpdate && (
                  <Tooltip
                    label={
                      lastGroup
                        ? t('apiProxy.endpoints.lastGroup')
                        : t('apiProxy.endpoints.deleteGroup', { name: group.name })
                    }
                  >
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="lg"
                      disabled={lastGroup}
                      aria-label={t('apiProxy.endpoints.deleteGroup', { name: group.name })}
                      onClick={() => setDeleting({ group: g, name: group.name })}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
                {canUpdate && (
                  <Button
                    variant="default"
                    size="xs"
                    component={Link}
                    to={path('groups', group.name, 'newendpoint')}
                    leftSection={<IconPlus size={14} />}
                  >
                    {t('apiProxy.endpoints.addEndpoint')}
                  </Button>
                )}
              </Group>
            </Group>
            {group.endpoints.length === 0 ? (
              <Text c="dimmed" size="sm">
                {t('apiProxy.endpoints.empty')}
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={560}>
                <Table verticalSpacing="xs" aria-label={group.name}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('apiProxy.endpoint.name')}</Table.Th>
                      <Table.Th>{t('apiProxy.endpoint.target')}</Table.Th>
                      <Table.Th>{t('apiProxy.endpoint.weight')}</Table.Th>
                      <Table.Th>{t('apiProxy.endpoints.status')}</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>{t('apiProxy.endpoints.actions')}</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {group.endpoints.map((endpoint, e) => (
                      <Table.Tr key={endpoint.name}>
                        <Table.Td>
                          <Link to={path('groups', group.name, 'endpoints', endpoint.name)}>
                            {endpoint.name}
                          </Link>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" ff="monospace">
                            {endpoint.target}
                          </Text>
                        </Table.Td>
                        <Table.Td>{endpoint.weight}</Table.Td>
                        <Table.Td>
                          <Group gap={4}>
                            {endpoint.backup && (
                              <Badge color="orange" variant="light">
                                {t('apiProxy.endpoint.backup')}
                              </Badge>
                            )}
                            {checked(endpoint) && (
                              <Badge color="teal" variant="light">
                                {t('apiProxy.endpoints.healthcheck')}
                              </Badge>
                            )}
                          </Group>
                        </Table.Td>
                        <Table.Td>
                          {canUpdate && (
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              aria-label={t('apiProxy.endpoints.deleteEndpoint', { name: endpoint.name })}
                              onClick={() => setDeleting({ group: g, endpoint: e, name: endpoint.name })}
                            >
                              <IconTrash size={16} />
                            </ActionIcon>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        </Paper>
      ))}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('apiProxy.endpoints.deleteTitle')}
        confirmLabel={t('apiProxy.endpoints.delete')}
        color="red"
        loading={saving}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      >
        <ConfirmText>{t('apiProxy.endpoints.deleteQuestion', { name: deleting?.name ?? '' })}</ConfirmText>
      </ConfirmDialog>
    </Stack>
  );
}

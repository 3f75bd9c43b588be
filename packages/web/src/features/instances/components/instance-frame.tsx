import { Anchor, Center, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate, useOutletContext, useParams } from 'react-router';
import type { InstanceDetail } from '../api/instances';
import { useInstance } from '../api/instances';
import { OsIcon } from './os-icon';
import { StateBadge, TagList } from './instances-page';

/** The instance shown by the frame, for its tabs. */
export const useFrameInstance = () => useOutletContext<InstanceDetail>();

/** management.instances.detail: header (hostname, ip:port, version, tags) and the two tabs. */
export function InstanceFrame() {
  const { t } = useTranslation();
  const { instanceId = '' } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const instance = useInstance(instanceId);
  const tab = pathname.endsWith('/monitoring') ? 'monitoring' : 'environment';
  if (instance.isPending)
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  if (!instance.data)
    return (
      <Text c="dimmed" ta="center" py="xl">
        {t('instances.notFound')}
      </Text>
    );
  const i = instance.data;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/management/instances" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('instances.back')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Group>
          <OsIcon name={i.operating_system_name} size={40} />
          <div>
            <Title order={1} size="h2">
              {i.hostname}
            </Title>
            <Text c="dimmed">
              {i.ip}:{i.port} · {t('instances.versionValue', { version: i.version })}
            </Text>
          </div>
        </Group>
        <Stack gap={6} align="flex-end">
          <StateBadge state={i.state} />
          {i.tags.length > 0 ? (
            <TagList tags={i.tags} />
          ) : (
            <Text size="sm" c="dimmed">
              {t('instances.noTag')}
            </Text>
          )}
        </Stack>
      </Group>
      <Tabs
        value={tab}
        onChange={(value) =>
          value && void navigate(`/management/instances/${encodeURIComponent(i.id)}/${value}`)
        }
      >
        <Tabs.List>
          <Tabs.Tab value="environment">{t('instances.tabs.environment')}</Tabs.Tab>
          <Tabs.Tab value="monitoring">{t('instances.tabs.monitoring')}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <Outlet context={i} />
    </Stack>
  );
}

import {
  Group,
  Paper,
  SimpleGrid,
  Table,
  Text,
  TextInput,
  ThemeIcon,
  Title,
  UnstyledButton,
} from '@mantine/core';
import {
  IconBox,
  IconChevronDown,
  IconChevronUp,
  IconDatabase,
  IconReport,
  IconSettings,
  IconShield,
} from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InstanceDetail, PluginType } from '../api/instances';
import { formatDateTime } from '../format';
import { StateBadge } from './instances-page';
import { useFrameInstance } from './instance-frame';

const PLUGIN_ICONS: Record<PluginType, typeof IconShield> = {
  policy: IconShield,
  service: IconSettings,
  repository: IconDatabase,
  reporter: IconReport,
  resource: IconBox,
};

type PluginColumn = 'type' | 'id' | 'name' | 'version';

/** Plugins sorted by a column, ascending or not (the table's header toggles it). */
export function sortPlugins(plugins: InstanceDetail['plugins'], by: PluginColumn, ascending: boolean) {
  return [...plugins].sort(
    (a, b) => (ascending ? 1 : -1) * a[by].localeCompare(b[by]) || a.id.localeCompare(b.id),
  );
}

function InfoTable({ instance: i }: { instance: InstanceDetail }) {
  const { t } = useTranslation();
  const rows: [string, React.ReactNode][] = [
    [t('instances.info.hostname'), i.hostname],
    [t('instances.info.ip'), i.ip],
    [t('instances.info.port'), i.port],
    [t('instances.info.state'), <StateBadge key="state" state={i.state} />],
    [t('instances.info.version'), i.version],
    [t('instances.info.tags'), i.tags.join(', ') || t('instances.noTag')],
    [t('instances.info.tenant'), i.tenant ?? ''],
    [t('instances.info.startedAt'), formatDateTime(i.started_at)],
    [t('instances.info.lastHeartbeat'), formatDateTime(i.last_heartbeat_at)],
    [t('instances.info.stoppedAt'), formatDateTime(i.stopped_at)],
  ];
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h4" mb="sm">
        {t('instances.info.title')}
      </Title>
      <Table aria-label={t('instances.info.title')}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w="40%">{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function PluginsTable({ plugins }: { plugins: InstanceDetail['plugins'] }) {
  const { t } = useTranslation();
  const [sort, setSort] = useState<{ by: PluginColumn; ascending: boolean }>({ by: 'type', ascending: true });
  const sorted = useMemo(() => sortPlugins(plugins, sort.by, sort.ascending), [plugins, sort]);
  const header = (column: PluginColumn) => {
    const active = sort.by === column;
    const Icon = active && !sort.ascending ? IconChevronUp : IconChevronDown;
    return (
      <Table.Th key={column} aria-sort={active ? (sort.ascending ? 'ascending' : 'descending') : 'none'}>
        <UnstyledButton
          onClick={() => setSort({ by: column, ascending: active ? !sort.ascending : true })}
          fw={700}
          fz="sm"
        >
          <Group gap={4} wrap="nowrap">
            {t(`instances.plugins.${column}`)}
            <Icon size={14} opacity={active ? 1 : 0.3} />
          </Group>
        </UnstyledButton>
      </Table.Th>
    );
  };
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h4" mb="sm">
        {t('instances.plugins.title')}
      </Title>
      <Table.ScrollContainer minWidth={400} mah={420}>
        <Table striped aria-label={t('instances.plugins.title')}>
          <Table.Thead>
            <Table.Tr>{(['type', 'id', 'name', 'version'] as const).map(header)}</Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sorted.map((p) => {
              const Icon = PLUGIN_ICONS[p.type] ?? IconBox;
              return (
                <Table.Tr key={`${p.type}:${p.id}`}>
                  <Table.Td>
                    <ThemeIcon
                      variant="light"
                      size="sm"
                      aria-label={t(`instances.pluginTypes.${p.type}`)}
                      role="img"
                    >
                      <Icon size={14} />
                    </ThemeIcon>
                  </Table.Td>
                  <Table.Td>{p.id}</Table.Td>
                  <Table.Td>{p.name}</Table.Td>
                  <Table.Td>{p.version}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

/** System properties whose name or value contains the filter (case-insensitive), by name. */
export function filterProperties(properties: Record<string, string>, filter: string): [string, string][] {
  const needle = filter.trim().toLowerCase();
  return Object.entries(properties)
    .filter(([k, v]) => !needle || k.toLowerCase().includes(needle) || v.toLowerCase().includes(needle))
    .sort(([a], [b]) => a.localeCompare(b));
}

function SystemProperties({ properties }: { properties: Record<string, string> }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const rows = filterProperties(properties, filter);
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t('instances.properties.title')}
        </Title>
        <TextInput
          placeholder={t('instances.properties.filter')}
          aria-label={t('instances.properties.filter')}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          size="xs"
        />
      </Group>
      <Table striped aria-label={t('instances.properties.title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('instances.properties.name')}</Table.Th>
            <Table.Th>{t('instances.properties.value')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Td ff="monospace" fz="xs">
                {k}
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }} fz="sm">
                {v}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {rows.length === 0 && (
        <Text c="dimmed" size="sm" ta="center" mt="sm">
          {t('instances.properties.none')}
        </Text>
      )}
    </Paper>
  );
}

/** management.instances.detail.environment: info, plugins and system properties. */
export function InstanceEnvironment() {
  const instance = useFrameInstance();
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
      <InfoTable instance={instance} />
      <PluginsTable plugins={instance.plugins} />
      <SystemProperties properties={instance.systemProperties} />
    </SimpleGrid>
  );
}

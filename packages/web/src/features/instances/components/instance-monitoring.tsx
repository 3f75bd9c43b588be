import {
  Center,
  Group,
  Paper,
  Progress,
  RingProgress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Monitoring } from '../api/instances';
import { useMonitoring } from '../api/instances';
import { formatBytes, formatUptime, gaugeColor } from '../format';
import { useFrameInstance } from './instance-frame';

/** A 0 to 100 gauge, red above 80 (section 9). */
function Gauge({ label, percent }: { label: string; percent: number }) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <Paper withBorder radius="md" p="md">
      <Stack align="center" gap={4}>
        <Text fw={600}>{label}</Text>
        <RingProgress
          size={150}
          thickness={14}
          roundCaps
          sections={[{ value, color: gaugeColor(value) }]}
          aria-label={`${label}: ${value}%`}
          role="meter"
          aria-valuenow={value}
          aria-valuemin={0}
          aria-valuemax={100}
          label={
            <Text ta="center" fw={700} fz="xl" c={gaugeColor(value)} data-gauge={label}>
              {value}%
            </Text>
          }
        />
      </Stack>
    </Paper>
  );
}

function Figures({ title, rows }: { title: string; rows: [string, string | number][] }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h5" mb="xs">
        {title}
      </Title>
      <Table aria-label={title} verticalSpacing={4}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th fw={500} c="dimmed" fz="sm">
                {label}
              </Table.Th>
              <Table.Td ta="right" fz="sm" ff="monospace">
                {value}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

type PoolName = 'young' | 'survivor' | 'old';

function Pools({ pools }: { pools: NonNullable<Monitoring['jvm']>['pools'] }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h5" mb="xs">
        {t('instances.monitoring.pools')}
      </Title>
      <Stack gap="sm">
        {(['young', 'survivor', 'old'] as PoolName[]).map((name) => {
          const pool = pools[name];
          const used = pool.max > 0 ? (pool.used / pool.max) * 100 : 0;
          const peak = pool.max > 0 ? Math.min(100, (pool.peak / pool.max) * 100) : 0;
          return (
            <div key={name}>
              <Group justify="space-between" gap="xs">
                <Text size="sm" fw={500}>
                  {t(`instances.monitoring.pool.${name}`)}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('instances.monitoring.poolUsage', {
                    used: formatBytes(pool.used),
                    max: formatBytes(pool.max),
                    peak: formatBytes(pool.peak),
                  })}
                </Text>
              </Group>
              <Progress.Root size="lg">
                <Progress.Section
                  value={used}
                  color="blue"
                  aria-label={t('instances.monitoring.poolUsed', {
                    pool: t(`instances.monitoring.pool.${name}`),
                  })}
                />
                <Progress.Section
                  value={Math.max(0, peak - used)}
                  color="gray.4"
                  aria-label={t('instances.monitoring.poolPeak', {
                    pool: t(`instances.monitoring.pool.${name}`),
                  })}
                />
              </Progress.Root>
            </div>
          );
        })}
      </Stack>
    </Paper>
  );
}

/** management.instances.detail.monitoring: the gateway's figures, polled every 5 s. */
export function InstanceMonitoring() {
  const { t } = useTranslation();
  const instance = useFrameInstance();
  const monitoring = useMonitoring(instance);
  if (instance.state === 'stopped')
    return (
      <Text c="dimmed" ta="center" py="xl">
        {t('instances.monitoring.stopped')}
      </Text>
    );
  const m = monitoring.data;
  if (!m?.jvm || !m.cpu || !m.process || !m.thread || !m.gc)
    return (
      <Center py="xl">
        <Text c="dimmed">{t(monitoring.isPending ? 'common.loading' : 'instances.monitoring.noData')}</Text>
      </Center>
    );
  const { jvm, cpu, process, thread, gc } = m;
  const load = Object.entries(cpu.load_average)
    .map(([, v]) => v.toFixed(2))
    .join(' / ');
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <Gauge label={t('instances.monitoring.cpu')} percent={cpu.percent_use} />
        <Gauge label={t('instances.monitoring.heap')} percent={jvm.heap_used_percent} />
        <Figures
          title={t('instances.monitoring.gcCollections')}
          rows={[
            [t('instances.monitoring.young'), gc.young_collection_count],
            [t('instances.monitoring.old'), gc.old_collection_count],
          ]}
        />
        <Figures
          title={t('instances.monitoring.fileDescriptors')}
          rows={[
            [t('instances.monitoring.open'), process.open_file_descriptors],
            [t('instances.monitoring.max'), process.max_file_descriptors],
          ]}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Figures
          title={t('instances.monitoring.memory')}
          rows={[
            [t('instances.monitoring.uptime'), formatUptime(jvm.uptime_in_millis)],
            [t('instances.monitoring.heapUsed'), formatBytes(jvm.heap_used_in_bytes)],
            [t('instances.monitoring.heapCommitted'), formatBytes(jvm.heap_committed_in_bytes)],
            [t('instances.monitoring.heapMax'), formatBytes(jvm.heap_max_in_bytes)],
            [t('instances.monitoring.nonHeapUsed'), formatBytes(jvm.non_heap_used_in_bytes)],
            [t('instances.monitoring.nonHeapCommitted'), formatBytes(jvm.non_heap_committed_in_bytes)],
          ]}
        />
        <Pools pools={jvm.pools} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <Figures
          title={t('instances.monitoring.cpuTitle')}
          rows={[
            [t('instances.monitoring.percent'), `${cpu.percent_use}%`],
            [t('instances.monitoring.loadAverage'), load],
          ]}
        />
        <Figures
          title={t('instances.monitoring.process')}
          rows={[
            [t('instances.monitoring.openFiles'), process.open_file_descriptors],
            [t('instances.monitoring.maxFiles'), process.max_file_descriptors],
          ]}
        />
        <Figures
          title={t('instances.monitoring.threads')}
          rows={[
            [t('instances.monitoring.count'), thread.count],
            [t('instances.monitoring.peak'), thread.peak_count],
          ]}
        />
        <Figures
          title={t('instances.monitoring.gc')}
          rows={[
            [t('instances.monitoring.youngCount'), gc.young_collection_count],
            [t('instances.monitoring.youngTime'), `${gc.young_collection_time_in_millis} ms`],
            [t('instances.monitoring.oldCount'), gc.old_collection_count],
            [t('instances.monitoring.oldTime'), `${gc.old_collection_time_in_millis} ms`],
          ]}
        />
      </SimpleGrid>
    </Stack>
  );
}

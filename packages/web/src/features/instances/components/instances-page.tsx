import {
  Badge,
  Card,
  Group,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../format';
import { useInstances } from '../api/instances';
import type { Instance } from '../api/instances';
import type { TimeframeId } from '../timeframes';
import { HISTORY_DEFAULT, HISTORY_PAGE_SIZES, TIMEFRAMES, liveCards, timeframeRange } from '../timeframes';
import { OsIcon } from './os-icon';

const detailPath = (i: Instance) => `/management/instances/${encodeURIComponent(i.id)}/environment`;

export function StateBadge({ state }: { state: Instance['state'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={state === 'started' ? 'teal' : 'gray'} variant="light">
      {t(`instances.state.${state}`)}
    </Badge>
  );
}

export function TagList({ tags }: { tags: readonly string[] }) {
  return (
    <Group gap={4}>
      {tags.map((tag) => (
        <Badge key={tag} variant="outline" size="sm">
          {tag}
        </Badge>
      ))}
    </Group>
  );
}

function LiveCards() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const instances = useInstances({ includeStopped: false, page: 0, size: 100 });
  const cards = useMemo(() => liveCards(instances.data?.content ?? [], search), [instances.data, search]);
  if (instances.isPending) return null;
  if ((instances.data?.content ?? []).length === 0)
    return (
      <Text c="dimmed" ta="center" py="xl">
        {t('instances.empty')}
      </Text>
    );
  return (
    <Stack>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('instances.search')}
        aria-label={t('instances.search')}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={360}
      />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {cards.map((i) => (
          <Card key={i.id} withBorder radius="md" component={Link} to={detailPath(i)}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Text fw={600}>{i.hostname}</Text>
                <Text size="sm" c="dimmed">
                  {i.ip}:{i.port}
                </Text>
              </div>
              <OsIcon name={i.operating_system_name} />
            </Group>
            <Group gap="xs" mt="sm">
              <StateBadge state={i.state} />
              <Text size="sm">{t('instances.versionValue', { version: i.version })}</Text>
              {i.tenant && <Text size="sm">{t('instances.tenantValue', { tenant: i.tenant })}</Text>}
            </Group>
            <Group mt="xs">
              {i.tags.length > 0 ? (
                <TagList tags={i.tags} />
              ) : (
                <Text size="xs" c="dimmed">
                  {t('instances.noTag')}
                </Text>
              )}
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function History() {
  const { t } = useTranslation();
  const [timeframe, setTimeframe] = useState<TimeframeId>(HISTORY_DEFAULT);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<number>(HISTORY_PAGE_SIZES[0]);
  // The window ends now; it moves only when the timeframe changes (no refetch loop on each render).
  const [to, setTo] = useState(() => Date.now());
  const instances = useInstances({
    includeStopped: true,
    from: to - timeframeRange(timeframe),
    to,
    page: page - 1,
    size,
  });
  const rows = instances.data?.content ?? [];
  const total = instances.data?.totalElements ?? 0;
  return (
    <Stack>
      <Select
        label={t('instances.timeframe')}
        data={TIMEFRAMES.map((f) => ({ value: f.id, label: t(`instances.timeframes.${f.id}`) }))}
        value={timeframe}
        onChange={(v) => {
          if (!v) return;
          setTimeframe(v as TimeframeId);
          setTo(Date.now());
          setPage(1);
        }}
        allowDeselect={false}
        maw={240}
      />
      <Table.ScrollContainer minWidth={800}>
        <Table striped highlightOnHover aria-label={t('instances.historyTable')}>
          <Table.Thead>
            <Table.Tr>
              {(['host', 'status', 'tags', 'tenant', 'startedAt', 'lastHeartbeat', 'stoppedAt'] as const).map(
                (c) => (
                  <Table.Th key={c}>{t(`instances.columns.${c}`)}</Table.Th>
                ),
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((i) => (
              <Table.Tr key={i.id}>
                <Table.Td>
                  <Text component={Link} to={detailPath(i)} size="sm" fw={500} c="blue.8">
                    {i.hostname}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {i.ip}:{i.port}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <StateBadge state={i.state} />
                </Table.Td>
                <Table.Td>
                  <TagList tags={i.tags} />
                </Table.Td>
                <Table.Td>{i.tenant ?? ''}</Table.Td>
                <Table.Td>{formatDateTime(i.started_at)}</Table.Td>
                <Table.Td>{formatDateTime(i.last_heartbeat_at)}</Table.Td>
                <Table.Td>{i.stopped_at ? formatDateTime(i.stopped_at) : ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {!instances.isPending && rows.length === 0 && (
        <Text c="dimmed" ta="center">
          {t('instances.emptyHistory')}
        </Text>
      )}
      <Group justify="space-between">
        <Select
          aria-label={t('instances.pageSize')}
          data={HISTORY_PAGE_SIZES.map(String)}
          value={String(size)}
          onChange={(v) => {
            setSize(Number(v));
            setPage(1);
          }}
          allowDeselect={false}
          w={90}
        />
        <Pagination
          total={Math.max(1, Math.ceil(total / size))}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': t(`instances.pager.${control}`) })}
        />
      </Group>
    </Stack>
  );
}

/** management.instances (`/management/instances/`): live cards, or the history table. */
export function InstancesPage() {
  const { t } = useTranslation();
  const [history, setHistory] = useState(false);
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('instances.title')}
        </Title>
        <Switch
          label={t('instances.showHistory')}
          checked={history}
          onChange={(e) => setHistory(e.currentTarget.checked)}
        />
      </Group>
      {history ? <History /> : <LiveCards />}
    </Stack>
  );
}

import {
  Anchor,
  Avatar,
  Badge,
  Button,
  Center,
  EmptyState,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedCallback, useIntersection } from '@mantine/hooks';
import {
  IconArrowDown,
  IconArrowUp,
  IconArrowsSort,
  IconLogin,
  IconMoodEmpty,
  IconPlayerPlayFilled,
  IconPlayerStopFilled,
  IconPlus,
  IconRefreshAlert,
  IconSearch,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useConfig } from '../../../../shared/config/config-context';
import { useSession } from '../../../../shared/session/current-user';
import { hasPermission } from '../../../../shared/session/permissions';
import { loginPath } from '../../../../shared/session/redirects';
import { useApiQuality, useApiState, useApis } from '../../api/get-apis';
import type { ApiListItem, ApiListOrder } from '../../api/types';
import { INFINITE_SCROLL_STEP } from '../../rules';
import { QualityBadge } from '../quality-badge';
import { VisibilityIcon } from '../visibility-icon';

const ORDERS: readonly ApiListOrder[] = ['name', '-name', 'context_path', '-context_path'];

/** Whether the platform computes quality scores (`apiQualityMetrics.enabled` of the portal settings). */
export function useQualityEnabled(): boolean {
  const config = useConfig() as { apiQualityMetrics?: { enabled?: boolean } };
  return config.apiQualityMetrics?.enabled === true;
}

/**
 * management.apis.list (`/management/apis?q`): the APIs the user manages, searchable, sorted by name or
 * context path, shown 20 more at a time while scrolling.
 */
export function ApiListPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const orderParam = params.get('order') as ApiListOrder | null;
  const order: ApiListOrder = orderParam && ORDERS.includes(orderParam) ? orderParam : 'name';
  const [text, setText] = useState(q);
  const apis = useApis(q, order);
  const canCreate = hasPermission(user, 'management-api-c');
  const quality = useQualityEnabled();

  const applySearch = useDebouncedCallback((value: string) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value.trim()) next.set('q', value.trim());
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  }, 300);

  const sortBy = (field: 'name' | 'context_path') => {
    const next: ApiListOrder = order === field ? (`-${field}` as ApiListOrder) : field;
    setParams((current) => {
      const copy = new URLSearchParams(current);
      copy.set('order', next);
      return copy;
    });
  };

  if (!user) {
    return (
      <Paper withBorder radius="md" py={48} px="lg">
        <EmptyState
          variant="light"
          icon={<IconLogin size={32} stroke={1.5} />}
          title={t('apis.list.signedOut')}
          description={t('apis.list.signedOutDescription')}
        >
          <EmptyState.Actions>
            <Button component={Link} to={loginPath(location.pathname + location.search)}>
              {t('shell.login')}
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </Paper>
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            {t('apis.list.title')}
          </Title>
          <Text c="dimmed">{t('apis.list.subtitle')}</Text>
        </div>
        {canCreate && (
          <Button component={Link} to="/management/apis/new" leftSection={<IconPlus size={16} />}>
            {t('apis.list.add')}
          </Button>
        )}
      </Group>
      <TextInput
        type="search"
        leftSection={<IconSearch size={16} />}
        aria-label={t('apis.list.search')}
        placeholder={t('apis.list.searchPlaceholder')}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          applySearch(event.currentTarget.value);
        }}
        maw={480}
      />
      {apis.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : (apis.data ?? []).length === 0 ? (
        <Paper withBorder radius="md" py={48} px="lg">
          <EmptyState
            variant="light"
            icon={<IconMoodEmpty size={32} stroke={1.5} />}
            title={q ? t('apis.list.noResult') : t('apis.list.empty')}
            description={q ? t('apis.list.noResultDescription', { q }) : undefined}
          >
            {!q && canCreate && (
              <EmptyState.Actions>
                <Button component={Link} to="/management/apis/new" leftSection={<IconPlus size={16} />}>
                  {t('apis.list.startCreating')}
                </Button>
              </EmptyState.Actions>
            )}
          </EmptyState>
        </Paper>
      ) : (
        <ApiTable key={q} apis={apis.data ?? []} order={order} quality={quality} onSort={sortBy} />
      )}
    </Stack>
  );
}

function ApiTable({
  apis,
  order,
  quality,
  onSort,
}: {
  apis: ApiListItem[];
  order: ApiListOrder;
  quality: boolean;
  onSort: (field: 'name' | 'context_path') => void;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(INFINITE_SCROLL_STEP);
  const { ref, entry } = useIntersection({ rootMargin: '200px' });
  const more = shown < apis.length;
  const reachedEnd = !!entry?.isIntersecting;
  useEffect(() => {
    // The sentinel under the table came into view: 20 more rows (an external event, not derived state).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (reachedEnd && more) setShown((count) => count + INFINITE_SCROLL_STEP);
  }, [reachedEnd, more]);

  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <SortHeader field="name" order={order} onSort={onSort} label={t('apis.list.columns.name')} />
              <Table.Th>{t('apis.list.columns.state')}</Table.Th>
              <SortHeader
                field="context_path"
                order={order}
                onSort={onSort}
                label={t('apis.list.columns.contextPath')}
              />
              <Table.Th>{t('apis.list.columns.tags')}</Table.Th>
              {quality && <Table.Th>{t('apis.list.columns.quality')}</Table.Th>}
              <Table.Th>{t('apis.list.columns.owner')}</Table.Th>
              <Table.Th>{t('apis.list.columns.visibility')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {apis.slice(0, shown).map((api) => (
              <ApiRow key={api.id} api={api} quality={quality} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {more && (
        <Center py="sm" ref={ref}>
          <Button variant="subtle" onClick={() => setShown((count) => count + INFINITE_SCROLL_STEP)}>
            {t('apis.list.showMore', { shown, total: apis.length })}
          </Button>
        </Center>
      )}
    </Paper>
  );
}

function SortHeader({
  field,
  order,
  label,
  onSort,
}: {
  field: 'name' | 'context_path';
  order: ApiListOrder;
  label: string;
  onSort: (field: 'name' | 'context_path') => void;
}) {
  const { t } = useTranslation();
  const direction = order === field ? 'ascending' : order === `-${field}` ? 'descending' : 'none';
  const Icon =
    direction === 'ascending' ? IconArrowUp : direction === 'descending' ? IconArrowDown : IconArrowsSort;
  return (
    <Table.Th aria-sort={direction}>
      <UnstyledButton onClick={() => onSort(field)} aria-label={t('apis.list.sortBy', { column: label })}>
        <Group gap={4} wrap="nowrap">
          <Text fw={700} size="sm">
            {label}
          </Text>
          <Icon size={14} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

function ApiRow({ api, quality }: { api: ApiListItem; quality: boolean }) {
  const { t } = useTranslation();
  const state = useApiState(api.id);
  const score = useApiQuality(api.id, quality, true);
  const started = api.state === 'STARTED';
  const outOfSync = state.data?.is_synchronized === false;
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="sm" wrap="nowrap">
          <Avatar src={api.picture_url} alt="" size={32} radius="sm" />
          <div>
            <Anchor component={Link} to={`/management/apis/${encodeURIComponent(api.id)}/portal`} fw={600}>
              {api.name}
            </Anchor>
            <Text size="xs" c="dimmed">
              {api.version}
            </Text>
          </div>
        </Group>
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Tooltip label={started ? t('apis.lifecycle.stateStarted') : t('apis.lifecycle.stateStopped')}>
            {started ? (
              <IconPlayerPlayFilled
                size={16}
                color="var(--mantine-color-teal-6)"
                role="img"
                aria-label={t('apis.lifecycle.stateStarted')}
              />
            ) : (
              <IconPlayerStopFilled
                size={16}
                color="var(--mantine-color-red-6)"
                role="img"
                aria-label={t('apis.lifecycle.stateStopped')}
              />
            )}
          </Tooltip>
          {outOfSync && (
            <Tooltip label={t('apis.frame.outOfSync')}>
              <IconRefreshAlert
                size={16}
                color="var(--mantine-color-orange-6)"
                role="img"
                aria-label={t('apis.frame.outOfSync')}
              />
            </Tooltip>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {api.context_path}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          {api.tags.map((tag) => (
            <Badge key={tag} variant="light" color="gray" tt="none" size="sm">
              {tag}
            </Badge>
          ))}
        </Group>
      </Table.Td>
      {quality && <Table.Td>{score.data && <QualityBadge score={score.data.score} />}</Table.Td>}
      <Table.Td>
        <Text size="sm">{api.owner?.displayName ?? '—'}</Text>
      </Table.Td>
      <Table.Td>
        <VisibilityIcon visibility={api.visibility} />
      </Table.Td>
    </Table.Tr>
  );
}

import {
  Anchor,
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
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedCallback, useIntersection } from '@mantine/hooks';
import {
  IconApps,
  IconArrowDown,
  IconArrowUp,
  IconArrowsSort,
  IconPlus,
  IconSearch,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { useApplications } from '../api/applications';
import type { Application } from '../api/types';
import { APPLICATION_LIST_STEP } from '../rules';

type SortField = 'name' | 'type' | 'owner';
type Order = SortField | `-${SortField}`;
const ORDERS: readonly Order[] = ['name', '-name', 'type', '-type', 'owner', '-owner'];

const valueOf = (app: Application, field: SortField) =>
  (field === 'owner' ? (app.owner?.displayName ?? '') : app[field]).toLocaleLowerCase();

/**
 * management.applications (`/management/applications?q&order`): the user's applications, searchable,
 * sorted by name, type or owner, shown 20 more at a time while scrolling.
 */
export function ApplicationListPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const orderParam = params.get('order') as Order | null;
  const order: Order = orderParam && ORDERS.includes(orderParam) ? orderParam : 'name';
  const [text, setText] = useState(q);
  const applications = useApplications(q);
  const canCreate = hasPermission(user, 'portal-application-c');
  const canCreateHere = canCreate || hasPermission(user, 'management-application-c');

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
  const sortBy = (field: SortField) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('order', order === field ? `-${field}` : field);
      return next;
    });
  const field = order.replace('-', '') as SortField;
  const sorted = [...(applications.data ?? [])].sort(
    (a, b) => (order.startsWith('-') ? -1 : 1) * valueOf(a, field).localeCompare(valueOf(b, field)),
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            {t('applications.list.title')}
          </Title>
          <Text c="dimmed">{t('applications.list.subtitle')}</Text>
        </div>
        {canCreate && (
          <Button component={Link} to="/management/applications/create" leftSection={<IconPlus size={16} />}>
            {t('applications.list.add')}
          </Button>
        )}
      </Group>
      <TextInput
        type="search"
        leftSection={<IconSearch size={16} />}
        aria-label={t('applications.list.search')}
        placeholder={t('applications.list.searchPlaceholder')}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          applySearch(event.currentTarget.value);
        }}
        maw={480}
      />
      {applications.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : sorted.length === 0 ? (
        <Paper withBorder radius="md" py={48} px="lg">
          <EmptyState
            variant="light"
            icon={<IconApps size={32} stroke={1.5} />}
            title={q ? t('applications.list.noResult') : t('applications.list.empty')}
            description={
              q
                ? t('applications.list.noResultHint', { q })
                : canCreateHere
                  ? t('applications.list.emptyHint')
                  : t('applications.list.emptyNoRight')
            }
          >
            {!q && canCreate && (
              <EmptyState.Actions>
                <Button
                  component={Link}
                  to="/management/applications/create"
                  leftSection={<IconPlus size={16} />}
                >
                  {t('applications.list.add')}
                </Button>
              </EmptyState.Actions>
            )}
          </EmptyState>
        </Paper>
      ) : (
        <ApplicationTable key={`${q}|${order}`} applications={sorted} order={order} onSort={sortBy} />
      )}
    </Stack>
  );
}

function ApplicationTable({
  applications,
  order,
  onSort,
}: {
  applications: Application[];
  order: Order;
  onSort: (field: SortField) => void;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(APPLICATION_LIST_STEP);
  const { ref, entry } = useIntersection({ rootMargin: '200px' });
  const more = shown < applications.length;
  const reachedEnd = !!entry?.isIntersecting;
  useEffect(() => {
    // The sentinel under the table came into view: 20 more rows (an external event, not derived state).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (reachedEnd && more) setShown((count) => count + APPLICATION_LIST_STEP);
  }, [reachedEnd, more]);
  const header = (field: SortField) => {
    const direction = order === field ? 'ascending' : order === `-${field}` ? 'descending' : 'none';
    const Icon =
      direction === 'ascending' ? IconArrowUp : direction === 'descending' ? IconArrowDown : IconArrowsSort;
    const label = t(`applications.list.columns.${field}`);
    return (
      <Table.Th aria-sort={direction}>
        <UnstyledButton
          onClick={() => onSort(field)}
          aria-label={t('applications.list.sortBy', { column: label })}
        >
          <Group gap={4} wrap="nowrap">
            <Text fw={700} size="sm">
              {label}
            </Text>
            <Icon size={14} />
          </Group>
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {header('name')}
              {header('type')}
              {header('owner')}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {applications.slice(0, shown).map((app) => (
              <Table.Tr key={app.id}>
                <Table.Td>
                  <Anchor
                    component={Link}
                    to={`/management/applications/${encodeURIComponent(app.id)}`}
                    fw={600}
                  >
                    {app.name}
                  </Anchor>
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {app.description}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color="gray" tt="none">
                    {t(`applications.types.${app.type}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{app.owner?.displayName ?? '—'}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {more && (
        <Center py="sm" ref={ref}>
          <Button variant="subtle" onClick={() => setShown((count) => count + APPLICATION_LIST_STEP)}>
            {t('applications.list.showMore', { shown, total: applications.length })}
          </Button>
        </Center>
      )}
    </Paper>
  );
}

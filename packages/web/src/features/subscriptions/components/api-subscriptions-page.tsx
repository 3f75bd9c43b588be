import {
  Anchor,
  Button,
  Center,
  EmptyState,
  Group,
  Loader,
  MultiSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconFilterOff, IconPlus, IconSearch, IconTicket } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { useApiPermissions } from '../../../shared/session/api-permissions';
import { useApiPlans, useApiSubscriptions, useSubscribers } from '../api/api-subscriptions';
import type { SubscriptionFilters, SubscriptionStatus } from '../api/types';
import { DEFAULT_SUBSCRIPTION_STATUSES, SUBSCRIPTION_STATUSES, filtersOf, searchOf } from '../filters';
import { AddSubscriptionDialog } from './add-subscription-dialog';
import { PagingBar } from './paging-bar';
import { SubscriptionsTable } from './subscriptions-table';

/**
 * subscriptions.list (`/management/apis/{apiId}/subscriptions?page&size&application&status&plan`): the
 * API's subscriptions filtered by plan, application and status (accepted, pending and paused by
 * default), page by page, and the dialog that subscribes an application.
 */
export function ApiSubscriptionsPage() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params, ['application', 'plan']);
  const permissions = useApiPermissions(apiId);
  const subscriptions = useApiSubscriptions(apiId, filters);
  const plans = useApiPlans(apiId);
  const subscribers = useSubscribers(apiId);
  const [draft, setDraft] = useState({
    plan: filters.plan ?? [],
    application: filters.application ?? [],
    status: filters.status as string[],
  });
  const [adding, setAdding] = useState(false);
  const go = (next: SubscriptionFilters) => setParams(new URLSearchParams(searchOf(next)));
  // Searching starts again from the first page.
  const search = () =>
    go({
      ...filters,
      page: 1,
      plan: draft.plan,
      application: draft.application,
      status: draft.status as SubscriptionStatus[],
    });
  const clear = () => {
    setDraft({ plan: [], application: [], status: [...DEFAULT_SUBSCRIPTION_STATUSES] });
    go({ ...filters, page: 1, plan: [], application: [], status: [...DEFAULT_SUBSCRIPTION_STATUSES] });
  };
  const page = subscriptions.data;
  const name = (id: string) => (page?.metadata[id]?.name as string | undefined) ?? id;
  const here = searchOf(filters);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {t('subscriptions.list.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('subscriptions.list.hint')}
          </Text>
        </div>
        {permissions.has('api-subscription-c') && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            {t('subscriptions.add.open')}
          </Button>
        )}
      </Group>
      <Paper withBorder radius="md" p="md">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            search();
          }}
        >
          <Stack gap="sm">
            <SimpleGrid type="container" cols={{ base: 1, '480px': 2, '860px': 3 }} spacing="sm">
              <MultiSelect
                label={t('subscriptions.filters.plan')}
                placeholder={draft.plan.length ? undefined : t('subscriptions.filters.allPlans')}
                data={(plans.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
                value={draft.plan}
                onChange={(plan) => setDraft({ ...draft, plan })}
                searchable
                clearable
              />
              <MultiSelect
                label={t('subscriptions.filters.application')}
                placeholder={
                  draft.application.length ? undefined : t('subscriptions.filters.allApplications')
                }
                data={(subscribers.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
                value={draft.application}
                onChange={(application) => setDraft({ ...draft, application })}
                searchable
                clearable
              />
              <MultiSelect
                label={t('subscriptions.filters.status')}
                data={SUBSCRIPTION_STATUSES.map((s) => ({ value: s, label: t(`subscriptions.status.${s}`) }))}
                value={draft.status}
                onChange={(status) => setDraft({ ...draft, status })}
                clearable
              />
            </SimpleGrid>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" leftSection={<IconFilterOff size={16} />} onClick={clear}>
                {t('subscriptions.filters.clear')}
              </Button>
              <Button type="submit" leftSection={<IconSearch size={16} />}>
                {t('subscriptions.filters.search')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {!page ? (
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : page.data.length === 0 ? (
        <Paper withBorder radius="md" py={48} px="lg">
          <EmptyState
            variant="light"
            icon={<IconTicket size={32} stroke={1.5} />}
            title={t('subscriptions.list.empty')}
            description={t('subscriptions.list.emptyHint')}
          />
        </Paper>
      ) : (
        <Stack gap="sm">
          <SubscriptionsTable
            rows={page.data}
            busy={subscriptions.isFetching}
            leading={[
              {
                header: t('subscriptions.columns.plan'),
                cell: (s) => (
                  <Anchor component={Link} to={`${encodeURIComponent(s.id)}${here}`} fw={600} size="sm">
                    {name(s.plan)}
                  </Anchor>
                ),
              },
              {
                header: t('subscriptions.columns.application'),
                cell: (s) => (
                  <>
                    <Text size="sm">{name(s.application)}</Text>
                    {typeof page.metadata[s.application]?.owner === 'string' && (
                      <Text size="xs" c="dimmed">
                        {String(page.metadata[s.application]!.owner)}
                      </Text>
                    )}
                  </>
                ),
              },
            ]}
          />
          <PagingBar
            page={filters.page}
            size={filters.size}
            total={page.page.total_elements}
            onPage={(p) => go({ ...filters, page: p })}
            onSize={(size) => go({ ...filters, page: 1, size })}
          />
        </Stack>
      )}
      <AddSubscriptionDialog apiId={apiId} opened={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}

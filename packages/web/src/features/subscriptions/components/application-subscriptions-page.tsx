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
import { IconFilterOff, IconSearch, IconTicket } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { useApplicationSubscriptions, useSubscribedApis } from '../api/application-subscriptions';
import type { SubscriptionFilters, SubscriptionStatus } from '../api/types';
import { DEFAULT_SUBSCRIPTION_STATUSES, SUBSCRIPTION_STATUSES, filtersOf, searchOf } from '../filters';
import { PagingBar } from './paging-bar';
import { SubscriptionsTable } from './subscriptions-table';

/**
 * The subscriptions of an application (`/management/applications/{id}/subscriptions?page&size&api&status`):
 * filtered by API and status, page by page.
 */
export function ApplicationSubscriptionsPage() {
  const { t } = useTranslation();
  const { applicationId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params, ['api']);
  const subscriptions = useApplicationSubscriptions(applicationId, filters);
  const apis = useSubscribedApis(applicationId);
  const [draft, setDraft] = useState({ api: filters.api ?? [], status: filters.status as string[] });
  const go = (next: SubscriptionFilters) => setParams(new URLSearchParams(searchOf(next)));
  const page = subscriptions.data;
  const name = (id: string) => (page?.metadata[id]?.name as string | undefined) ?? id;
  const here = searchOf(filters);

  return (
    <Stack gap="lg">
      <div>
        <Title order={2} size="h3">
          {t('subscriptions.application.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('subscriptions.application.hint')}
        </Text>
      </div>
      <Paper withBorder radius="md" p="md">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            go({ ...filters, page: 1, api: draft.api, status: draft.status as SubscriptionStatus[] });
          }}
        >
          <Stack gap="sm">
            <SimpleGrid type="container" cols={{ base: 1, '480px': 2 }} spacing="sm">
              <MultiSelect
                label={t('subscriptions.filters.api')}
                placeholder={draft.api.length ? undefined : t('subscriptions.filters.allApis')}
                data={(apis.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.version})` }))}
                value={draft.api}
                onChange={(api) => setDraft({ ...draft, api })}
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
              <Button
                variant="default"
                leftSection={<IconFilterOff size={16} />}
                onClick={() => {
                  setDraft({ api: [], status: [...DEFAULT_SUBSCRIPTION_STATUSES] });
                  go({ ...filters, page: 1, api: [], status: [...DEFAULT_SUBSCRIPTION_STATUSES] });
                }}
              >
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
            title={t('subscriptions.application.empty')}
            description={t('subscriptions.application.emptyHint')}
          />
        </Paper>
      ) : (
        <Stack gap="sm">
          <SubscriptionsTable
            rows={page.data}
            busy={subscriptions.isFetching}
            leading={[
              {
                header: t('subscriptions.columns.api'),
                cell: (s) => (
                  <Anchor component={Link} to={`${encodeURIComponent(s.id)}${here}`} fw={600} size="sm">
                    {name(s.api)}
                    {page.metadata[s.api]?.version ? ` (${String(page.metadata[s.api]!.version)})` : ''}
                  </Anchor>
                ),
              },
              { header: t('subscriptions.columns.plan'), cell: (s) => <Text size="sm">{name(s.plan)}</Text> },
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
    </Stack>
  );
}

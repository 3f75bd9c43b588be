import { Button, Group, Pagination, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconRefresh, IconSettings } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useConfig } from '../../../shared/config/config-context';
import type { LogsQuery, LogsScope } from '../api/logs';
import { useExportLogs, useLogs } from '../api/logs';
import type { LogsView, LogTimeframe } from '../logs-query';
import {
  LOG_PAGE_SIZES,
  LOG_REFRESH_CHOICES,
  LOG_TIMEFRAMES,
  filtersToQuery,
  formatLogDate,
  viewFromParams,
  viewToParams,
} from '../logs-query';
import { LogsFiltersPanel } from './logs-filters';
import { LogsTable } from './logs-table';

/** Whether the platform shows the user column (the `logging.user.displayed` setting). */
export function useUserDisplayed(): boolean {
  const config = useConfig() as { logging?: { user?: { displayed?: boolean } } };
  return config.logging?.user?.displayed === true;
}

/**
 * A log list (`/logs?from&to&q&page&size`): timeframe and auto-refresh, filters, Export as CSV (disabled
 * without logs), the sortable table with error rows flagged, paging by 5 to 100 (15 by default), 'No log'.
 * Everything lives in the URL, so a view can be shared and the detail's Back link returns to it.
 */
export function LogsScreen({
  scope,
  name,
  configureHref,
}: {
  scope: LogsScope;
  name: string;
  /** The logging configuration, for users allowed to change it. */
  configureHref?: string | undefined;
}) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [now, setNow] = useState(() => Date.now());
  const [refresh, setRefresh] = useState(0);
  const userDisplayed = useUserDisplayed();
  const view = useMemo(() => viewFromParams(params, now), [params, now]);
  const query: LogsQuery = {
    from: view.from,
    to: view.to,
    query: filtersToQuery(view.filters, scope.kind === 'api' ? 'application' : 'api'),
    page: view.page,
    size: view.size,
    field: view.field,
  };
  const logs = useLogs(scope, query, 0);
  const exportLogs = useExportLogs(scope, name);

  useEffect(() => {
    if (refresh === 0) return;
    const timer = setInterval(() => setNow(Date.now()), refresh * 1000);
    return () => clearInterval(timer);
  }, [refresh]);

  const change = (patch: Partial<LogsView>) => {
    setParams(viewToParams({ ...view, page: 1, ...patch }));
    setNow(Date.now());
  };
  const detailHref = (log: { id: string; timestamp: number }) => {
    const back = new URLSearchParams(params);
    back.set('timestamp', String(log.timestamp));
    return `${encodeURIComponent(log.id)}?${back.toString()}`;
  };
  const data = logs.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / view.size)) : 1;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <Title order={2}>{t('logs.title')}</Title>
        {configureHref && (
          <Button
            component={Link}
            to={configureHref}
            variant="light"
            leftSection={<IconSettings size={16} />}
          >
            {t('logs.configure')}
          </Button>
        )}
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('logs.timeframe.label')}
          data={LOG_TIMEFRAMES.map((tf) => ({ value: tf.id, label: t(`logs.timeframe.${tf.id}`) }))}
          value={view.timeframe ?? null}
          placeholder={`${formatLogDate(view.from).slice(0, 16)} – ${formatLogDate(view.to).slice(0, 16)}`}
          onChange={(id) => id && change({ timeframe: id as LogTimeframe })}
          allowDeselect={false}
          w={200}
        />
        <Select
          label={t('logs.refresh.label')}
          data={LOG_REFRESH_CHOICES.map((s) => ({
            value: String(s),
            label: s === 0 ? t('logs.refresh.off') : t('logs.refresh.every', { seconds: s }),
          }))}
          value={String(refresh)}
          onChange={(s) => setRefresh(Number(s ?? 0))}
          allowDeselect={false}
          w={180}
        />
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          onClick={() => setNow(Date.now())}
          loading={logs.isFetching}
        >
          {t('logs.refresh.now')}
        </Button>
        <Button
          variant="default"
          ml="auto"
          leftSection={<IconDownload size={16} />}
          disabled={!data || data.total === 0}
          loading={exportLogs.isPending}
          onClick={() => exportLogs.mutate(query)}
        >
          {t('logs.exportCsv')}
        </Button>
      </Group>
      <LogsFiltersPanel
        key={JSON.stringify(view.filters)}
        scope={scope}
        value={view.filters}
        onApply={(filters) => change({ filters })}
      />
      <Paper withBorder radius="md">
        <LogsTable
          scope={scope}
          data={data}
          userDisplayed={userDisplayed}
          sort={view.field}
          onSort={(field) => change({ field })}
          detailHref={detailHref}
        />
        {data && data.logs.length === 0 && (
          <Text c="dimmed" ta="center" p="lg">
            {t('logs.empty')}
          </Text>
        )}
        {!data && logs.isPending && (
          <Text c="dimmed" ta="center" p="lg">
            {t('common.loading')}
          </Text>
        )}
      </Paper>
      {data && data.total > 0 && (
        <Group justify="space-between" wrap="wrap">
          <Group gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('logs.total', { count: data.total })}
            </Text>
            <Select
              aria-label={t('logs.pageSize')}
              data={LOG_PAGE_SIZES.map((s) => ({ value: String(s), label: String(s) }))}
              value={String(view.size)}
              onChange={(s) => change({ size: Number(s) })}
              allowDeselect={false}
              w={90}
            />
          </Group>
          <Pagination
            total={pages}
            value={Math.min(view.page, pages)}
            onChange={(page) => setParams(viewToParams({ ...view, page }))}
            getControlProps={(control) => ({ 'aria-label': t(`logs.pager.${control}`) })}
          />
        </Group>
      )}
    </Stack>
  );
}

import { Button, Group, MultiSelect, Paper, SimpleGrid, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LogsScope } from '../api/logs';
import { useLogFilterOptions } from '../api/logs';
import type { LogFilters } from '../logs-query';
import { LOG_METHODS, LOG_STATUS_CLASSES, NO_LOG_FILTERS } from '../logs-query';

/**
 * The filters of a log list: request and transaction ids, methods, status classes, applications (or
 * APIs), plans, the URI (a path prefix) and a free query in Lucene syntax; applied together with AND.
 * The draft starts from `value`: the list keys the panel by the applied filters.
 */
export function LogsFiltersPanel({
  scope,
  value,
  onApply,
}: {
  scope: LogsScope;
  value: LogFilters;
  onApply: (filters: LogFilters) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  const options = useLogFilterOptions(scope);
  const set = (patch: Partial<LogFilters>) => setDraft((current) => ({ ...current, ...patch }));
  return (
    <Paper withBorder radius="md" p="md">
      <form
        aria-label={t('logs.filters.title')}
        onSubmit={(event) => {
          event.preventDefault();
          onApply(draft);
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          <MultiSelect
            label={t('logs.filters.methods')}
            data={LOG_METHODS.map((m) => ({ value: m, label: m }))}
            value={draft.methods}
            onChange={(methods) => set({ methods })}
            clearable
          />
          <MultiSelect
            label={t('logs.filters.statuses')}
            data={LOG_STATUS_CLASSES.map((c) => ({ value: String(c), label: t(`logs.filters.status.${c}`) }))}
            value={draft.statuses.map(String)}
            onChange={(statuses) => set({ statuses: statuses.map(Number) })}
            clearable
          />
          <MultiSelect
            label={t(scope.kind === 'api' ? 'logs.filters.applications' : 'logs.filters.apis')}
            data={options.data?.consumers ?? []}
            value={draft.consumers}
            onChange={(consumers) => set({ consumers })}
            searchable
            clearable
          />
          {scope.kind === 'api' ? (
            <MultiSelect
              label={t('logs.filters.plans')}
              data={options.data?.plans ?? []}
              value={draft.plans}
              onChange={(plans) => set({ plans })}
              searchable
              clearable
            />
          ) : (
            <TextInput
              label={t('logs.filters.uri')}
              description={t('logs.filters.uriHint')}
              value={draft.uri}
              onChange={(e) => set({ uri: e.currentTarget.value })}
            />
          )}
          {scope.kind === 'api' && (
            <TextInput
              label={t('logs.filters.uri')}
              description={t('logs.filters.uriHint')}
              value={draft.uri}
              onChange={(e) => set({ uri: e.currentTarget.value })}
            />
          )}
          <TextInput
            label={t('logs.filters.id')}
            value={draft.id}
            onChange={(e) => set({ id: e.currentTarget.value })}
          />
          <TextInput
            label={t('logs.filters.transaction')}
            value={draft.transaction}
            onChange={(e) => set({ transaction: e.currentTarget.value })}
          />
          <TextInput
            label={t('logs.filters.query')}
            description={t('logs.filters.queryHint')}
            value={draft.query}
            onChange={(e) => set({ query: e.currentTarget.value })}
          />
        </SimpleGrid>
        <Group justify="flex-end" mt="md">
          <Button
            variant="default"
            onClick={() => {
              setDraft(NO_LOG_FILTERS);
              onApply(NO_LOG_FILTERS);
            }}
          >
            {t('logs.filters.clear')}
          </Button>
          <Button type="submit">{t('logs.filters.apply')}</Button>
        </Group>
      </form>
    </Paper>
  );
}

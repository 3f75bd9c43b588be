import { Anchor, Badge, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TranslationKey } from '../../../shared/i18n/keys';
import type { LogsPage, LogsScope } from '../api/logs';
import { formatLogDate, isErrorStatus } from '../logs-query';
import classes from './logs.module.css';

interface Column {
  field: string;
  label: TranslationKey;
}

/**
 * The sortable columns: Date, Status, API (the application of an API's logs, the API of an
 * application's), User (when the user column setting is on), Plan, Method, Path, Response time.
 */
export function logColumns(scope: LogsScope, userDisplayed: boolean): Column[] {
  return [
    { field: '@timestamp', label: 'logs.columns.date' },
    { field: 'status', label: 'logs.columns.status' },
    scope.kind === 'api'
      ? { field: 'application', label: 'logs.columns.application' }
      : { field: 'api', label: 'logs.columns.api' },
    ...(userDisplayed ? [{ field: 'user', label: 'logs.columns.user' as const }] : []),
    { field: 'plan', label: 'logs.columns.plan' },
    { field: 'method', label: 'logs.columns.method' },
    { field: 'path', label: 'logs.columns.path' },
    { field: 'response-time', label: 'logs.columns.responseTime' },
  ];
}

export const statusColor = (status: number) =>
  status >= 500
    ? 'red'
    : status >= 400
      ? 'orange'
      : status >= 300
        ? 'blue'
        : status >= 200
          ? 'green'
          : 'gray';

/** The list's table: sortable headers (`field`, `-field` descending), each date a link to the detail. */
export function LogsTable({
  scope,
  data,
  userDisplayed,
  sort,
  onSort,
  detailHref,
}: {
  scope: LogsScope;
  data: LogsPage | undefined;
  userDisplayed: boolean;
  sort: string;
  onSort: (field: string) => void;
  detailHref: (log: { id: string; timestamp: number }) => string;
}) {
  const { t } = useTranslation();
  const columns = logColumns(scope, userDisplayed);
  const descending = sort.startsWith('-');
  const sorted = descending ? sort.slice(1) : sort;
  const nameOf = (id: string | null) => (id ? (data?.metadata[id]?.name ?? id) : '—');
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table aria-label={t('logs.title')} verticalSpacing="xs" stickyHeader highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => {
              const active = sorted === column.field;
              const Icon = active ? (descending ? IconArrowDown : IconArrowUp) : IconSelector;
              return (
                <Table.Th
                  key={column.field}
                  aria-sort={active ? (descending ? 'descending' : 'ascending') : 'none'}
                >
                  <UnstyledButton
                    className={classes.sort}
                    onClick={() => onSort(active && !descending ? `-${column.field}` : column.field)}
                  >
                    {t(column.label)}
                    <Icon size={14} aria-hidden />
                  </UnstyledButton>
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data?.logs.map((log) => {
            const error = isErrorStatus(log.status);
            return (
              <Table.Tr
                key={log.id}
                data-log-id={log.id}
                data-error={error || undefined}
                className={error ? classes.error : undefined}
              >
                <Table.Td className={classes.nowrap}>
                  <Anchor component={Link} to={detailHref(log)} size="sm">
                    {formatLogDate(log.timestamp)}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Badge color={statusColor(log.status)} variant="light">
                    {log.status}
                  </Badge>
                  {error && <VisuallyHidden>{t('logs.error')}</VisuallyHidden>}
                </Table.Td>
                <Table.Td>{nameOf(scope.kind === 'api' ? log.application : log.api)}</Table.Td>
                {userDisplayed && <Table.Td>{log.user ?? '—'}</Table.Td>}
                <Table.Td>{nameOf(log.plan)}</Table.Td>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {log.method}
                  </Text>
                </Table.Td>
                <Table.Td className={classes.pathCell}>{log.path}</Table.Td>
                <Table.Td className={classes.nowrap}>{t('logs.ms', { value: log.responseTime })}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

import { ActionIcon, Anchor, Group, Pagination, Table, Text, Tooltip } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { GroupByAnswer, Metadata } from '../api/analytics';
import { useAnalytics } from '../api/analytics';
import type { TableWidget as TableDefinition } from '../dashboards';
import { COUNTRY_FIELD, TABLE_PAGE } from '../dashboards';
import { combinedQuery, useDashboard } from './dashboard-context';
import classes from './dashboard.module.css';
import { WidgetCard } from './widget-card';

export interface Row {
  key: string;
  name: string;
  value: number;
  link?: string;
}

/** Fields whose unknown values the writer calls `Other` (client-names.ts), translated here. */
const USER_AGENT_FIELDS = new Set(['user_agent.name', 'user_agent.os_name']);

/** A country's name in the language from its ISO code (the geo_country widget), or the code itself. */
function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language, 'en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The rows of a group_by answer in its order, named by the metadata (countries in the language); links
 * to known APIs and applications.
 */
export function rowsOf(
  field: string,
  answer: GroupByAnswer | undefined,
  language = 'en',
  other = 'Other',
): Row[] {
  if (!answer) return [];
  const meta: Metadata = answer.metadata ?? {};
  const rank = (key: string) => Number(meta[key]?.order ?? Number.MAX_SAFE_INTEGER);
  return Object.entries(answer.values)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, value]) => {
      const m = meta[key] ?? {};
      const known = m.unknown !== 'true' && m.deleted !== 'true';
      const name =
        field === COUNTRY_FIELD
          ? countryName(key, language)
          : key === 'Other' && USER_AGENT_FIELDS.has(field)
            ? other
            : m.name
              ? m.version
                ? `${m.name} (${m.version})`
                : m.name
              : key;
      const link =
        known && field === 'api'
          ? `/management/apis/${encodeURIComponent(key)}/analytics`
          : known && field === 'application'
            ? `/management/applications/${encodeURIComponent(key)}/analytics`
            : undefined;
      return { key, name, value, link };
    });
}

/** A top table: key and hits (or the ordered average), 5 rows a page; a selectable row adds its filter. */
export function TableWidget({ widget }: { widget: TableDefinition }) {
  const { t, i18n } = useTranslation();
  const d = useDashboard();
  const [page, setPage] = useState(1);
  const result = useAnalytics<GroupByAnswer>(d.scope, {
    type: 'group_by',
    field: widget.field,
    from: d.from,
    to: d.to,
    size: widget.size,
    order: widget.order,
    query: combinedQuery(widget.query, d.q),
  });
  const rows = useMemo(
    () => rowsOf(widget.field, result.data, i18n.language, t('dashboards.otherClient')),
    [widget.field, result.data, i18n.language, t],
  );
  const { remember } = d;
  useEffect(() => remember(widget.field, result.data?.metadata), [remember, widget.field, result.data]);
  const pages = Math.max(1, Math.ceil(rows.length / TABLE_PAGE));
  const current = Math.min(page, pages);
  const shown = rows.slice((current - 1) * TABLE_PAGE, current * TABLE_PAGE);
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  const filter = (row: Row) => d.addFilter({ field: widget.field, value: row.key });

  return (
    <WidgetCard widget={widget} loading={result.isFetching} empty={rows.length === 0} error={result.isError}>
      <Table
        striped
        layout="fixed"
        highlightOnHover={widget.selectable}
        aria-label={t(widget.title)}
        fz="sm"
        verticalSpacing={6}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t(widget.column)}</Table.Th>
            <Table.Th className={`${classes.value} ${classes.valueColumn}`}>{t(widget.valueColumn)}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((row) => (
            <Table.Tr
              key={row.key}
              className={widget.selectable ? classes.row : undefined}
              onClick={widget.selectable ? () => filter(row) : undefined}
            >
              <Table.Td>
                <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
                  {widget.selectable && (
                    <Tooltip label={t('dashboards.filterBy', { name: row.name })}>
                      <ActionIcon
                        variant="subtle"
                        size="sm"
                        aria-label={t('dashboards.filterBy', { name: row.name })}
                        onClick={(e) => {
                          e.stopPropagation();
                          filter(row);
                        }}
                      >
                        <IconFilter size={14} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                  {row.link ? (
                    <Anchor
                      component={Link}
                      to={row.link}
                      size="sm"
                      onClick={(e) => e.stopPropagation()}
                      truncate
                    >
                      {row.name}
                    </Anchor>
                  ) : (
                    <Text size="sm" truncate>
                      {row.name}
                    </Text>
                  )}
                </Group>
              </Table.Td>
              <Table.Td className={classes.value}>{number.format(row.value)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {pages > 1 && (
        <Group justify="center" mt={4}>
          <Pagination
            size="xs"
            total={pages}
            value={current}
            onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': t(`dashboards.pager.${control}`) })}
            getItemProps={(p) => ({ 'aria-label': t('dashboards.pager.page', { page: p }) })}
          />
        </Group>
      )}
    </WidgetCard>
  );
}

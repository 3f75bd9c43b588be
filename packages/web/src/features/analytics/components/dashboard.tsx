import { Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useConfig } from '../../../shared/config/config-context';
import type { AnalyticsScope, Metadata } from '../api/analytics';
import type { DashboardKind, Widget } from '../dashboards';
import { DEFAULT_OPTIONAL_WIDGETS, dashboardWidgets } from '../dashboards';
import type { Filter } from '../filters';
import { DISPLAY_FIELD, filtersOf, queryOf, withFilter, withoutFilter } from '../filters';
import type { Window } from '../timeframe';
import { TIMEFRAME_UPDATE_DELAY, intervalOf, refreshed, windowFromParams } from '../timeframe';
import type { DashboardState } from './dashboard-context';
import { DashboardContext } from './dashboard-context';
import classes from './dashboard.module.css';
import { FilterChips, FilterSelects } from './filter-bar';
import { LineWidget } from './line-widget';
import { PieWidget } from './pie-widget';
import { StatsWidget } from './stats-widget';
import { TableWidget } from './table-widget';
import { TimeframeBar } from './timeframe-bar';

function WidgetView({ widget }: { widget: Widget }) {
  switch (widget.kind) {
    case 'table':
      return <TableWidget widget={widget} />;
    case 'pie':
      return <PieWidget widget={widget} />;
    case 'line':
      return <LineWidget widget={widget} />;
    case 'stats':
      return <StatsWidget widget={widget} />;
  }
}

/** The window and filter of the URL (`from`, `to`, `q`), and how to change them. */
export function useDashboardParams() {
  const [params, setParams] = useSearchParams();
  const [now] = useState(() => Date.now());
  const window = windowFromParams(params, now);
  const q = params.get('q') ?? '';
  const update = useCallback(
    (change: { window?: Window; q?: string }) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          const w = change.window ?? windowFromParams(current, now);
          next.set('from', String(w.from));
          next.set('to', String(w.to));
          const text = change.q ?? current.get('q') ?? '';
          if (text) next.set('q', text);
          else next.delete('q');
          return next;
        },
        { replace: true },
      ),
    [setParams, now],
  );
  return { window, q, update };
}

/**
 * An analytics dashboard (console-apis.md 2.10, console-applications-and-settings.md 2.1 and 2.2): the
 * timeframe, the filters (selects, and clicks on widgets that add to `q`, shown as removable chips),
 * and the widgets of its kind in a grid of 6 columns and rows of 330 px.
 */
export function Dashboard({
  scope,
  kind,
  actions,
}: {
  scope: AnalyticsScope;
  kind: DashboardKind;
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const { window, q, update } = useDashboardParams();
  const filters = useMemo(() => filtersOf(q), [q]);
  const [refresh, setRefresh] = useState(0);
  const client = useQueryClient();
  const [names, setNames] = useState<Record<string, Metadata>>({});
  const [settled] = useDebouncedValue(`${window.from}:${window.to}:${q}`, TIMEFRAME_UPDATE_DELAY);
  const [from, to, ...rest] = settled.split(':');
  const settledWindow = { from: Number(from), to: Number(to) };
  const settledQ = rest.join(':');

  const latest = useRef({ window, update, client });
  useEffect(() => {
    latest.current = { window, update, client };
  });
  const refreshNow = useCallback(() => {
    const { window: w, update: set, client: c } = latest.current;
    const next = refreshed(w, Date.now());
    if (next === w) void c.invalidateQueries({ queryKey: ['analytics'] });
    else set({ window: next });
  }, []);
  useEffect(() => {
    if (refresh === 0) return;
    const timer = setInterval(refreshNow, refresh * 1000);
    return () => clearInterval(timer);
  }, [refresh, refreshNow]);

  const setFilters = (next: Filter[]) => update({ q: queryOf(next) });
  const remember = useCallback(
    (field: string, metadata: Metadata | undefined) =>
      metadata && setNames((all) => ({ ...all, [field]: { ...all[field], ...metadata } })),
    [],
  );
  const state: DashboardState = {
    scope,
    from: settledWindow.from,
    to: settledWindow.to,
    interval: intervalOf(settledWindow),
    q: settledQ,
    addFilter: (f) => update({ q: queryOf(withFilter(filters, f)) }),
    remember,
  };
  const nameOf = (f: Filter) => {
    const field = f.field === DISPLAY_FIELD ? t('dashboards.filters.display') : fieldName(t, f.field);
    const value =
      f.field === DISPLAY_FIELD
        ? t(`dashboards.filters.displayModes.${f.value === 'only' ? 'only' : 'without'}`)
        : (names[f.field]?.[f.value]?.name ?? f.value);
    return `${field}: ${value}`;
  };

  return (
    <Stack gap="md">
      <TimeframeBar
        window={window}
        onWindow={(w) => update({ window: w })}
        refresh={refresh}
        onRefresh={refreshNow}
        onRefreshEvery={setRefresh}
      />
      <FilterSelects filters={filters} onChange={setFilters} />
      <FilterChips
        filters={filters}
        nameOf={nameOf}
        onRemove={(f) => setFilters(withoutFilter(filters, f))}
        onClear={() => setFilters([])}
      />
      {actions}
      <DashboardContext.Provider value={state}>
        <div className={classes.container}>
          <div className={classes.grid}>
            {dashboardWidgets(kind, config.analytics.widgets ?? DEFAULT_OPTIONAL_WIDGETS).map((widget) => (
              <WidgetView key={widget.id} widget={widget} />
            ))}
          </div>
        </div>
      </DashboardContext.Provider>
    </Stack>
  );
}

const FIELD_KEYS: Record<string, string> = {
  api: 'dashboards.columns.api',
  application: 'dashboards.columns.application',
  plan: 'dashboards.columns.plan',
  path: 'dashboards.columns.path',
  'mapped-path': 'dashboards.columns.mappedPath',
  host: 'dashboards.columns.host',
  'user_agent.name': 'dashboards.columns.browser',
  'user_agent.os_name': 'dashboards.columns.system',
  'geoip.country_iso_code': 'dashboards.columns.country',
  'geoip.city_name': 'dashboards.columns.city',
  tenant: 'dashboards.columns.tenant',
  status: 'dashboards.filters.status',
  method: 'dashboards.filters.method',
  'response-time': 'dashboards.filters.responseTime',
};

function fieldName(t: (key: never) => string, field: string): string {
  const key = FIELD_KEYS[field];
  return key ? t(key as never) : field;
}

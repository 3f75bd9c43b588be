import type { TranslationKey } from '../../shared/i18n/keys';
import { translationKey as k } from '../../shared/i18n/keys';

/** Status pie buckets 100-199 to 500-599 (section 9), in Gravitee's `ranges` syntax. */
export const STATUS_PIE_RANGES = '100:199;200:299;300:399;400:499;500:599';
/** Group sizes of section 9: 20 for the slowest lists, 1000 for failures, 10000 for hit tops. */
export const GROUP_SIZES = { slow: 20, failed: 1000, hits: 10_000 } as const;
/** Top tables page at 5 rows. */
export const TABLE_PAGE = 5;

interface WidgetBase {
  id: string;
  title: TranslationKey;
  subhead?: TranslationKey;
  /** Grid position: column 0 to 5 and width in columns of a 6-column grid (rows of 330 px). */
  col: number;
  width: number;
}

/** A table of group_by keys (links to the API or application), clicking a row adds its filter. */
export interface TableWidget extends WidgetBase {
  kind: 'table';
  field: string;
  /** The column of the keys; the second column is hits or the ordered metric. */
  column: TranslationKey;
  valueColumn: TranslationKey;
  order?: string;
  query?: string;
  size: number;
  selectable: boolean;
}

export interface PieWidget extends WidgetBase {
  kind: 'pie';
  field: 'status';
  ranges: string;
  labels: readonly string[];
}

/** A date histogram: by a field's keys (stacked areas, selectable) or of averages (lines). */
export interface LineWidget extends WidgetBase {
  kind: 'line';
  aggs: string;
  stacked: boolean;
  selectable: boolean;
  /** Series labels of metric aggregations, by series name (`avg_response-time`). */
  labels?: Readonly<Record<string, TranslationKey>>;
}

export interface StatsWidget extends WidgetBase {
  kind: 'stats';
  field: string;
}

export type Widget = TableWidget | PieWidget | LineWidget | StatsWidget;

export type DashboardKind = 'api' | 'application' | 'platform';

const status: PieWidget = {
  ...{ id: 'status', kind: 'pie', title: k('dashboards.widgets.status'), col: 0, width: 2 },
  ...{ field: 'status', ranges: STATUS_PIE_RANGES, labels: ['1xx', '2xx', '3xx', '4xx', '5xx'] },
};
const stats: StatsWidget = {
  ...{ id: 'stats', kind: 'stats', title: k('dashboards.widgets.stats'), col: 2, width: 4 },
  field: 'response-time',
};

const hitsTable = (
  id: string,
  field: string,
  title: TranslationKey,
  subhead: TranslationKey,
  column: TranslationKey,
  col: number,
): TableWidget => ({
  ...{ id, kind: 'table', title, subhead, col, width: 2, field, column },
  ...{ valueColumn: k('dashboards.columns.hits'), size: GROUP_SIZES.hits, selectable: true },
});

const topApis = (col: number) =>
  hitsTable(
    'top-apis',
    'api',
    k('dashboards.widgets.topApis'),
    k('dashboards.widgets.topApisSub'),
    k('dashboards.columns.api'),
    col,
  );
const topApplications = (col: number) =>
  hitsTable(
    'top-applications',
    'application',
    k('dashboards.widgets.topApplications'),
    k('dashboards.widgets.topApplicationsSub'),
    k('dashboards.columns.application'),
    col,
  );
const topPaths = (col: number) =>
  hitsTable(
    'top-paths',
    'path',
    k('dashboards.widgets.topPaths'),
    k('dashboards.widgets.topPathsSub'),
    k('dashboards.columns.path'),
    col,
  );
const topMappedPaths = (col: number) =>
  hitsTable(
    'top-mapped-paths',
    'mapped-path',
    k('dashboards.widgets.topMappedPaths'),
    k('dashboards.widgets.topMappedPathsSub'),
    k('dashboards.columns.mappedPath'),
    col,
  );
const hitsByHost = (col: number) =>
  hitsTable(
    'hits-by-host',
    'host',
    k('dashboards.widgets.hitsByHost'),
    k('dashboards.widgets.hitsByHostSub'),
    k('dashboards.columns.host'),
    col,
  );

const hitsByBrowser = (col: number) =>
  hitsTable(
    'hits-by-browser',
    'user_agent.name',
    k('dashboards.widgets.hitsByBrowser'),
    k('dashboards.widgets.hitsByBrowserSub'),
    k('dashboards.columns.browser'),
    col,
  );
const hitsBySystem = (col: number) =>
  hitsTable(
    'hits-by-system',
    'user_agent.os_name',
    k('dashboards.widgets.hitsBySystem'),
    k('dashboards.widgets.hitsBySystemSub'),
    k('dashboards.columns.system'),
    col,
  );

/** The field of the geo_country widget: ISO codes, named in the reader's language. */
export const COUNTRY_FIELD = 'geoip.country_iso_code';
const hitsByCountry = (col: number) =>
  hitsTable(
    'hits-by-country',
    COUNTRY_FIELD,
    k('dashboards.widgets.hitsByCountry'),
    k('dashboards.widgets.hitsByCountrySub'),
    k('dashboards.columns.country'),
    col,
  );
const hitsByCity = (col: number) =>
  hitsTable(
    'hits-by-city',
    'geoip.city_name',
    k('dashboards.widgets.hitsByCity'),
    k('dashboards.widgets.hitsByCitySub'),
    k('dashboards.columns.city'),
    col,
  );

/** The optional widgets (section 9) that the configuration may list, by their configuration names. */
const OPTIONAL_WIDGETS: Readonly<Record<string, (col: number) => TableWidget>> = {
  host: hitsByHost,
  user_agent_name: hitsByBrowser,
  os_name: hitsBySystem,
  geo_country: hitsByCountry,
  geo_city: hitsByCity,
};
/** What an older server that names none shows. */
export const DEFAULT_OPTIONAL_WIDGETS = ['host', 'user_agent_name', 'os_name'] as const;

const topFailedApis = (col: number): TableWidget => ({
  ...hitsTable(
    'top-failed-apis',
    'api',
    k('dashboards.widgets.topFailedApis'),
    k('dashboards.widgets.topFailedApisSub'),
    k('dashboards.columns.api'),
    col,
  ),
  ...{ query: 'status:[500 TO 599]', size: GROUP_SIZES.failed },
});
const slowest = (
  id: string,
  field: 'api' | 'application',
  metric: string,
  title: TranslationKey,
  subhead: TranslationKey,
  col: number,
): TableWidget => ({
  ...{ id, kind: 'table', title, subhead, col, width: 2, field },
  column: field === 'api' ? k('dashboards.columns.api') : k('dashboards.columns.application'),
  valueColumn:
    metric === 'proxy-latency' ? k('dashboards.columns.latency') : k('dashboards.columns.responseTime'),
  ...{ order: `-avg:${metric}`, size: GROUP_SIZES.slow, selectable: false },
});

const responseStatus: LineWidget = {
  ...{ id: 'response-status', kind: 'line', title: k('dashboards.widgets.responseStatus'), col: 0, width: 6 },
  ...{
    subhead: k('dashboards.widgets.responseStatusSub'),
    aggs: 'field:status',
    stacked: true,
    selectable: true,
  },
};
const responseTimes = (withApi: boolean): LineWidget => ({
  ...{ id: 'response-times', kind: 'line', title: k('dashboards.widgets.responseTimes'), col: 0, width: 6 },
  subhead: withApi ? k('dashboards.widgets.responseTimesSub') : k('dashboards.widgets.responseTimesAppSub'),
  aggs: withApi ? 'avg:response-time;avg:api-response-time' : 'avg:response-time',
  ...{ stacked: false, selectable: false },
  labels: {
    'avg_response-time': k('dashboards.series.globalLatency'),
    'avg_api-response-time': k('dashboards.series.apiLatency'),
  },
});
const hitsBy = (field: 'api' | 'application'): LineWidget => ({
  ...{
    id: `hits-by-${field}`,
    kind: 'line',
    col: 0,
    width: 6,
    aggs: `field:${field}`,
    stacked: true,
    selectable: true,
  },
  title: field === 'api' ? k('dashboards.widgets.hitsByApi') : k('dashboards.widgets.hitsByApplication'),
  subhead:
    field === 'api' ? k('dashboards.widgets.hitsByApiSub') : k('dashboards.widgets.hitsByApplicationSub'),
});

/**
 * The widgets of each dashboard, row by row (the vendor's default global dashboards): the API
 * dashboard, the application dashboard and the platform dashboard.
 */
export const DASHBOARDS: Readonly<Record<DashboardKind, readonly (readonly Widget[])[]>> = {
  api: [
    [status, stats],
    [topApplications(0), tableOf('top-plans', 'plan', 2), topPaths(4)],
    [
      slowest(
        'top-slow-applications',
        'application',
        'response-time',
        k('dashboards.widgets.topSlowApplications'),
        k('dashboards.widgets.topSlowApplicationsSub'),
        0,
      ),
      topMappedPaths(2),
    ],
    [responseStatus],
    [responseTimes(true)],
    [hitsBy('application')],
  ],
  application: [
    [topPaths(0), topMappedPaths(2), { ...status, col: 4 }],
    [
      topApis(0),
      topFailedApis(2),
      slowest(
        'top-slow-apis',
        'api',
        'response-time',
        k('dashboards.widgets.topSlowApis'),
        k('dashboards.widgets.topSlowApisSub'),
        4,
      ),
    ],
    [responseStatus],
    [responseTimes(false)],
    [hitsBy('api')],
  ],
  platform: [
    [status, stats],
    [topApis(0), topApplications(2), tableOf('tenants', 'tenant', 4)],
    [
      topFailedApis(0),
      slowest(
        'top-slow-apis',
        'api',
        'response-time',
        k('dashboards.widgets.topSlowApis'),
        k('dashboards.widgets.topSlowApisSub'),
        2,
      ),
      slowest(
        'top-overhead-apis',
        'api',
        'proxy-latency',
        k('dashboards.widgets.topOverheadApis'),
        k('dashboards.widgets.topOverheadApisSub'),
        4,
      ),
    ],
    [responseStatus],
    [responseTimes(true)],
  ],
};

/** Where the optional widgets go in each dashboard: after this many rows (none in the application's). */
const OPTIONAL_AFTER: Readonly<Record<DashboardKind, number | undefined>> = {
  api: 3,
  application: undefined,
  platform: 3,
};

/**
 * The widgets of a dashboard: its own, and the optional ones the configuration lists (in that order,
 * three to a row, after the tables). Names it does not know are left out.
 */
export function dashboardWidgets(kind: DashboardKind, optional: readonly string[]): Widget[] {
  const rows = DASHBOARDS[kind];
  const after = OPTIONAL_AFTER[kind];
  if (after === undefined) return rows.flat();
  const names = [...new Set(optional)].filter((name) => OPTIONAL_WIDGETS[name] !== undefined);
  const extra = names.map((name, i) => OPTIONAL_WIDGETS[name]!((i % 3) * 2));
  return [...rows.slice(0, after).flat(), ...extra, ...rows.slice(after).flat()];
}

function tableOf(id: 'top-plans' | 'tenants', field: 'plan' | 'tenant', col: number): TableWidget {
  return id === 'top-plans'
    ? hitsTable(
        id,
        field,
        k('dashboards.widgets.topPlans'),
        k('dashboards.widgets.topPlansSub'),
        k('dashboards.columns.plan'),
        col,
      )
    : hitsTable(
        id,
        field,
        k('dashboards.widgets.tenants'),
        k('dashboards.widgets.tenantsSub'),
        k('dashboards.columns.tenant'),
        col,
      );
}

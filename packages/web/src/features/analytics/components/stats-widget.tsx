import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StatsAnswer } from '../api/analytics';
import { useAnalytics } from '../api/analytics';
import type { StatsWidget as StatsDefinition } from '../dashboards';
import { combinedQuery, useDashboard } from './dashboard-context';
import classes from './dashboard.module.css';
import { WidgetCard } from './widget-card';

/** The response-time stats as tiles: hits, min, max, average, and the rates per second, minute, hour. */
export function StatsWidget({ widget }: { widget: StatsDefinition }) {
  const { t, i18n } = useTranslation();
  const d = useDashboard();
  const result = useAnalytics<StatsAnswer>(d.scope, {
    type: 'stats',
    field: widget.field,
    from: d.from,
    to: d.to,
    query: combinedQuery(undefined, d.q),
  });
  const s = result.data;
  const whole = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  const rate = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  const ms = (v: number | null | undefined) =>
    v === null || v === undefined ? '-' : `${whole.format(v)} ms`;
  const tiles: [string, string][] = s
    ? [
        [t('dashboards.stats.hits'), whole.format(s.count)],
        [t('dashboards.stats.avg'), ms(s.avg)],
        [t('dashboards.stats.min'), ms(s.min)],
        [t('dashboards.stats.max'), ms(s.max)],
        [t('dashboards.stats.rps'), rate.format(s.rps)],
        [t('dashboards.stats.rpm'), rate.format(s.rpm)],
        [t('dashboards.stats.rph'), rate.format(s.rph)],
      ]
    : [];
  return (
    <WidgetCard
      widget={widget}
      loading={result.isFetching}
      empty={!s || s.count === 0}
      error={result.isError}
    >
      <dl className={classes.tiles}>
        {tiles.map(([name, value]) => (
          <div key={name} className={classes.tile}>
            <Text component="dt" size="xs" c="dimmed">
              {name}
            </Text>
            <Text component="dd" m={0} fw={700} size="xl" data-stat={name}>
              {value}
            </Text>
          </div>
        ))}
      </dl>
    </WidgetCard>
  );
}

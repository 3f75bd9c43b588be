import { useComputedColorScheme, useMantineTheme } from '@mantine/core';
import dayjs from 'dayjs';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistogramAnswer } from '../api/analytics';
import { useAnalytics } from '../api/analytics';
import type { LineWidget as LineDefinition } from '../dashboards';
import type { ChartClick } from './chart';
import { Chart } from './chart';
import { seriesPalette, statusColor, textColors } from './colors';
import { combinedQuery, useDashboard } from './dashboard-context';
import { WidgetCard } from './widget-card';

export interface Series {
  /** The key filtered on when the series is clicked (a status, an API ID); undefined for metrics. */
  key?: string;
  field: string;
  name: string;
  data: number[];
}

/** The series of a histogram answer: one per key of a `field:` aggregation, one per metric otherwise. */
export function seriesOf(answer: HistogramAnswer | undefined, label: (name: string) => string): Series[] {
  if (!answer) return [];
  return answer.values.flatMap((agg) =>
    agg.name.startsWith('by_')
      ? agg.buckets.map((b) => ({
          key: b.name,
          field: agg.field,
          name: agg.metadata?.[b.name]?.name ?? b.name,
          data: b.data,
        }))
      : agg.buckets.map((b) => ({ field: agg.field, name: label(b.name), data: b.data })),
  );
}

/** A date histogram: stacked areas by key (clicking one filters on it) or lines of averages. */
export function LineWidget({ widget }: { widget: LineDefinition }) {
  const { t, i18n } = useTranslation();
  const d = useDashboard();
  const theme = useMantineTheme();
  const dark = useComputedColorScheme('light') === 'dark';
  const result = useAnalytics<HistogramAnswer>(d.scope, {
    type: 'date_histo',
    aggs: widget.aggs,
    interval: d.interval,
    from: d.from,
    to: d.to,
    query: combinedQuery(undefined, d.q),
  });
  const { remember } = d;
  useEffect(() => {
    for (const agg of result.data?.values ?? []) if (agg.metadata) remember(agg.field, agg.metadata);
  }, [remember, result.data]);
  const series = useMemo(
    () => seriesOf(result.data, (name) => (widget.labels?.[name] ? t(widget.labels[name]) : name)),
    [result.data, widget.labels, t],
  );
  const empty = series.every((s) => s.data.every((v) => v === 0));
  const number = new Intl.NumberFormat(i18n.language);
  const label = `${t(widget.title)}: ${series
    .map(
      (s) =>
        `${s.name} ${number.format(widget.stacked ? s.data.reduce((a, b) => a + b, 0) : Math.max(0, ...s.data))}`,
    )
    .join(', ')}`;
  const option = useMemo(() => {
    const colors = textColors(theme, dark);
    const palette = seriesPalette(theme, dark);
    const ts = result.data?.timestamp;
    const times = series[0]?.data.map((_, i) => (ts ? ts.from + i * ts.interval : 0)) ?? [];
    const format = ts && ts.to - ts.from >= 86_400_000 ? 'MM-DD HH:mm' : 'HH:mm:ss';
    return {
      tooltip: { trigger: 'axis' },
      legend: { type: 'scroll', bottom: 0, textStyle: { color: colors.text } },
      grid: { left: 48, right: 16, top: 16, bottom: 56 },
      xAxis: {
        type: 'category',
        boundaryGap: false,
        data: times.map((time) => dayjs(time).format(format)),
        axisLabel: { color: colors.dimmed },
        axisLine: { lineStyle: { color: colors.line } },
      },
      yAxis: {
        type: 'value',
        minInterval: widget.stacked ? 1 : undefined,
        axisLabel: { color: colors.dimmed },
        splitLine: { lineStyle: { color: colors.line } },
      },
      series: series.map((s, i) => {
        const color =
          (s.field === 'status' && s.key ? statusColor(theme, dark, s.key) : undefined) ??
          palette[i % palette.length];
        return {
          type: 'line',
          name: s.name,
          data: s.data,
          showSymbol: false,
          smooth: false,
          color,
          ...(widget.stacked ? { stack: 'hits', areaStyle: { opacity: 0.5 } } : {}),
        };
      }),
    };
  }, [series, result.data, widget.stacked, theme, dark]);
  const click = (event: ChartClick) => {
    if (!widget.selectable) return;
    const s = series.find((x) => x.name === event.seriesName);
    if (s?.key) d.addFilter({ field: s.field, value: s.key });
  };
  return (
    <WidgetCard widget={widget} loading={result.isFetching} empty={empty} error={result.isError}>
      <Chart option={option} label={label} onClick={click} height={250} />
    </WidgetCard>
  );
}

import { useComputedColorScheme, useMantineTheme } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupByAnswer } from '../api/analytics';
import { useAnalytics } from '../api/analytics';
import type { PieWidget as PieDefinition } from '../dashboards';
import { rangeValue } from '../filters';
import type { ChartClick } from './chart';
import { Chart } from './chart';
import { statusColors, textColors } from './colors';
import { combinedQuery, useDashboard } from './dashboard-context';
import { WidgetCard } from './widget-card';

interface Slice {
  name: string;
  value: number;
  /** `[200 TO 299]` of the range `200.0-299.0`. */
  range: string;
}

/** The slices of a ranges answer (`100.0-199.0`: 0, ...), labelled in order. */
export function slicesOf(answer: GroupByAnswer | undefined, labels: readonly string[]): Slice[] {
  if (!answer) return [];
  const rank = (key: string) => Number(answer.metadata?.[key]?.order ?? 0);
  return Object.entries(answer.values)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, value], i) => {
      const [from = '', to = ''] = key.split('-').map((n) => String(Math.trunc(Number(n))));
      return { name: labels[i] ?? key, value, range: rangeValue(from, to) };
    });
}

/** The status pie: hits per status class; clicking a slice filters on its range. */
export function PieWidget({ widget }: { widget: PieDefinition }) {
  const { t, i18n } = useTranslation();
  const d = useDashboard();
  const theme = useMantineTheme();
  const dark = useComputedColorScheme('light') === 'dark';
  const result = useAnalytics<GroupByAnswer>(d.scope, {
    type: 'group_by',
    field: widget.field,
    ranges: widget.ranges,
    from: d.from,
    to: d.to,
    query: combinedQuery(undefined, d.q),
  });
  const slices = useMemo(() => slicesOf(result.data, widget.labels), [result.data, widget.labels]);
  const total = slices.reduce((sum, s) => sum + s.value, 0);
  const number = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);
  const label = `${t(widget.title)}: ${slices.map((s) => `${s.name} ${number.format(s.value)}`).join(', ')}`;
  const option = useMemo(() => {
    const colors = textColors(theme, dark);
    const palette = statusColors(theme, dark);
    return {
      color: palette,
      tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
      // The counts are in the legend: labels around a small ring would be cut at its edges.
      legend: {
        bottom: 0,
        textStyle: { color: colors.text },
        formatter: (name: string) =>
          `${name}: ${number.format(slices.find((s) => s.name === name)?.value ?? 0)}`,
      },
      series: [
        {
          type: 'pie',
          radius: ['35%', '70%'],
          center: ['50%', '45%'],
          label: { show: false },
          // Empty classes are left out of the ring; each class keeps its colour.
          data: slices
            .map((s, i) => ({ name: s.name, value: s.value, itemStyle: { color: palette[i] } }))
            .filter((s) => s.value > 0),
        },
      ],
    };
  }, [slices, theme, dark, number]);
  const click = (event: ChartClick) => {
    const slice = slices.find((s) => s.name === event.name);
    if (slice) d.addFilter({ field: 'status', value: slice.range });
  };
  return (
    <WidgetCard widget={widget} loading={result.isFetching} empty={total === 0} error={result.isError}>
      <Chart option={option} label={label} onClick={click} height={240} />
    </WidgetCard>
  );
}

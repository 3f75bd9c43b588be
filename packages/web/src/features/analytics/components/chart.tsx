import { Skeleton, useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import type { init } from './echarts-setup';

let loading: Promise<{ init: typeof init }> | undefined;
const loadECharts = () => (loading ??= import('./echarts-setup'));

export interface ChartClick {
  seriesName?: string;
  name?: string;
  dataIndex?: number;
}

/**
 * One ECharts chart, drawn once its library chunk has loaded; redrawn in the colour scheme (light or
 * dark) of the app and resized with its box. `label` describes it, figures included, for assistive
 * technology (ECharts' aria description).
 */
export function Chart({
  option,
  label,
  onClick,
  height = 250,
}: {
  option: EChartsCoreOption;
  label: string;
  onClick?: (event: ChartClick) => void;
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const scheme = useComputedColorScheme('light');
  const [ready, setReady] = useState(false);
  const click = useRef(onClick);
  useEffect(() => {
    click.current = onClick;
  });

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void loadECharts().then(({ init }) => {
      if (disposed || !box.current) return;
      const instance = init(box.current, scheme === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
      instance.on('click', (event) => click.current?.(event as ChartClick));
      chart.current = instance;
      observer = new ResizeObserver(() => instance.resize());
      observer.observe(box.current);
      setReady(true);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
      setReady(false);
    };
  }, [scheme]);

  useEffect(() => {
    if (!ready || !chart.current) return;
    chart.current.setOption(
      {
        backgroundColor: 'transparent',
        animationDuration: 400,
        aria: { enabled: true, label: { description: label } },
        ...option,
      },
      { notMerge: true },
    );
  }, [option, label, ready]);

  return (
    <div style={{ position: 'relative', height }}>
      {!ready && <Skeleton height={height} aria-hidden />}
      <div ref={box} role="img" aria-label={label} style={{ position: 'absolute', inset: 0 }} />
    </div>
  );
}

import { LineChart, PieChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as register } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

/**
 * ECharts with only what the dashboards draw (lines and areas, pies, their axes, legend, tooltip
 * and the accessible description), imported by the chart component on demand so that it is a
 * chunk of its own, never part of a first load.
 */
register([
  LineChart,
  PieChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  AriaComponent,
  CanvasRenderer,
]);

export { init };

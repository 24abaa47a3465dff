/**
 * The ECharts option the console's charts hand to EChart: only the parts EChart.tsx registers.
 * Only types come from ECharts here; the library itself loads with the chart.
 */
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type {
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  MarkLineComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';

export type ChartOption = ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | MarkLineComponentOption
  | DataZoomComponentOption
>;

/** ECharts' own texts (zoom, tooltips) come in `ZH` or `EN`, the two it carries: Chinese readers get theirs. */
export const echartsLocale = (language: string): 'ZH' | 'EN' => (language.startsWith('zh') ? 'ZH' : 'EN');

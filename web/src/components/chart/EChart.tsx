/**
 * An ECharts canvas holding an option. Only the parts the console's charts (device history and
 * energy, recharge statistics) use are registered (line and bar series, grid, tooltip, legend,
 * mark lines, data zoom, the canvas renderer), and this module is loaded on demand
 * (`React.lazy`, LazyEChart.ts), so pages without a chart never download ECharts.
 */
import { BarChart, LineChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
} from 'echarts/components';
import { init, use as registerChartParts, type ECharts } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { ChartOption } from './chartOption';

registerChartParts([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, MarkLineComponent, DataZoomComponent, CanvasRenderer]);

export interface EChartProps {
  option: ChartOption;
  /** ECharts' own texts (zoom, tooltips): `ZH` or `EN`, the two it carries. */
  locale: 'ZH' | 'EN';
  className?: string;
}

export default function EChart({ option, locale, className }: EChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);

  useEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    const instance = init(element, undefined, { renderer: 'canvas', locale });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [locale]);

  useEffect(() => {
    // A new range is a new chart: zoom and legend choices start over. A reader who asked for less
    // motion gets it drawn at once, without ECharts' growing bars and lines.
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    chart.current?.setOption(still ? { ...option, animation: false } : option, { notMerge: true });
  }, [option, locale]);

  return <div ref={host} className={className} data-testid="history-chart-canvas" />;
}

/** The ECharts option of a trip: each device's readings as a line, the limits as dashed mark lines. */
import type { ChartOption } from '@/components/chart/chartOption';
import type { Trip } from './api/quickQuery';

const LIMIT_COLOUR = '#cd4246';

export interface TripChartLabels {
  upper: string;
  lower: string;
}

export function tripChartOption(trip: Trip, labels: TripChartLabels, narrow: boolean): ChartOption {
  const limits = [
    ...(trip.upperLimit != null ? [{ yAxis: trip.upperLimit, name: labels.upper }] : []),
    ...(trip.lowerLimit != null ? [{ yAxis: trip.lowerLimit, name: labels.lower }] : []),
  ];
  return {
    animation: false,
    grid: narrow ? { left: 44, right: 12, top: 48, bottom: 56 } : { left: 56, right: 32, top: 48, bottom: 64 },
    legend: { top: 8, left: 'center', type: 'scroll' },
    tooltip: { trigger: 'axis', valueFormatter: (value) => `${String(value)} °C` },
    xAxis: { type: 'time' },
    // The limits stay in view however far inside them the readings run.
    yAxis: {
      type: 'value',
      min: ({ min }) => Math.floor(Math.min(min, trip.lowerLimit ?? min) - 1),
      max: ({ max }) => Math.ceil(Math.max(max, trip.upperLimit ?? max) + 1),
      axisLabel: { formatter: '{value} °C' },
    },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }],
    series: trip.devices.map((device, index) => ({
      type: 'line' as const,
      name: device.deviceName,
      showSymbol: false,
      data: device.points.map((p) => [p.ts, p.t]),
      // The limits once, on the first line: drawn against the shared axis.
      ...(index === 0 && limits.length > 0
        ? {
            markLine: {
              symbol: 'none',
              silent: true,
              lineStyle: { color: LIMIT_COLOUR, type: 'dashed' as const },
              label: { formatter: '{b}: {c} °C', position: 'insideEndTop' as const },
              data: limits,
            },
          }
        : {}),
    })),
  };
}

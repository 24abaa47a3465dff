/**
 * The ECharts option of a waybill's trip, for its owner's report and the receiver's view alike: each
 * device's readings as a line, the limits as dashed mark lines kept in view.
 */
import type { ChartOption } from '@/components/chart/chartOption';
import { SERIES_COLOURS } from '@/lib/seriesColours';

/** What the chart reads of a trip (the owner's and the public answer both have it). */
export interface ChartedTrip {
  upperLimit?: number | null;
  lowerLimit?: number | null;
  devices: readonly { deviceName: string; points: readonly { ts: string; t: number }[] }[];
}

const LIMIT_COLOUR = '#cd4246';

export interface TripChartLabels {
  upper: string;
  lower: string;
}

export function tripChartOption(trip: ChartedTrip, labels: TripChartLabels, narrow = false): ChartOption {
  const limits = [
    ...(trip.upperLimit != null ? [{ yAxis: trip.upperLimit, name: labels.upper }] : []),
    ...(trip.lowerLimit != null ? [{ yAxis: trip.lowerLimit, name: labels.lower }] : []),
  ];
  return {
    animation: false,
    color: [...SERIES_COLOURS], // each device's line in the colour of its route on the map
    grid: narrow ? { left: 44, right: 12, top: 48, bottom: 56 } : { left: 56, right: 32, top: 48, bottom: 64 },
    legend: { top: 8, left: 'center', type: 'scroll' },
    tooltip: { trigger: 'axis', valueFormatter: (value) => `${String(value)} °C` },
    xAxis: { type: 'time', axisLabel: { hideOverlap: true } },
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

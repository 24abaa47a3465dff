/** The energy chart's ECharts option: a bar of kWh per hour or per day. */
import { Colors } from '@blueprintjs/colors';
import type { ChartOption } from '@/components/chart/chartOption';

export interface EnergyBucket {
  /** The hour's or day's start, ISO 8601 with its offset. */
  ts: string;
  kwh: number;
}

/** Bars labelled with the hour (`14:00`) or the day (`26/11`) in `language`, kWh on the value axis. */
export function energyOption(buckets: readonly EnergyBucket[], interval: 'hour' | 'day', language: string,
  seriesName: string): ChartOption {
  const format = new Intl.DateTimeFormat(
    language,
    interval === 'hour' ? { hour: '2-digit', minute: '2-digit', day: 'numeric', month: 'numeric' } : { day: 'numeric', month: 'short' },
  );
  return {
    grid: { left: 56, right: 16, top: 24, bottom: 40 },
    tooltip: { trigger: 'axis', valueFormatter: (value) => `${Number(value).toFixed(2)} kWh` },
    xAxis: { type: 'category', data: buckets.map((b) => format.format(new Date(b.ts))) },
    yAxis: { type: 'value', name: 'kWh', min: 0 },
    series: [{ type: 'bar', name: seriesName, data: buckets.map((b) => b.kwh), itemStyle: { color: Colors.GOLD3 } }],
  };
}

/**
 * The history chart's ECharts option, as a pure function of the readings: temperature (in the
 * device's unit) on the left axis, humidity on the right, each probe's alarm limits as dashed
 * mark lines, a gap where the device sent nothing for a while, zoom by wheel and slider.
 * Only types come from ECharts here; the library itself loads with the chart (EChart.tsx).
 */
import { Colors } from '@blueprintjs/colors';
import type { LineSeriesOption } from 'echarts/charts';
import type { MarkLineComponentOption } from 'echarts/components';
import type { ChartOption } from '@/components/chart/chartOption';
import type { Probe, Reading, TemperatureUnit } from '@/lib/api/devices';
import { formatNumber, probeValue, unitSymbol } from '@/lib/units';

// A canvas cannot read CSS variables: Blueprint's palette comes as values. Temperature is drawn in
// the product's orange (spec seed 000 section 9), which Blueprint's palette does not have.
export const COLORS = {
  t: '#ec6c00',
  h: Colors.BLUE3,
  upper: Colors.RED3,
  lower: Colors.INDIGO3,
} as const;

export interface ChartLabels {
  /** Series names by probe. */
  probe: (probe: string) => string;
  upperLimit: string;
  lowerLimit: string;
}

export interface ChartInput {
  points: readonly Reading[];
  /** The probes the device reports, with their limits (Celsius / % RH). */
  probes: readonly Probe[];
  unit: TemperatureUnit;
  precision: number;
  /** The range asked for, in epoch milliseconds: the time axis spans it even where data is missing. */
  startMs: number;
  endMs: number;
  labels: ChartLabels;
}

/** A gap longer than this many typical steps (and at least 10 minutes) breaks the line. */
export const GAP_STEPS = 5;
export const MIN_GAP_MS = 10 * 60_000;

type Point = [number, number | null];

/** The typical time between two readings: the median step. */
export function medianStep(times: readonly number[]): number {
  const steps: number[] = [];
  for (let i = 1; i < times.length; i += 1) {
    const step = (times[i] as number) - (times[i - 1] as number);
    if (step > 0) steps.push(step);
  }
  if (steps.length === 0) return 0;
  steps.sort((a, b) => a - b);
  return steps[Math.floor(steps.length / 2)] as number;
}

/** `[time, value]` pairs with a null pair wherever the device was silent, so ECharts breaks the line there. */
export function withGaps(pairs: readonly Point[]): Point[] {
  const threshold = Math.max(MIN_GAP_MS, GAP_STEPS * medianStep(pairs.map(([time]) => time)));
  const out: Point[] = [];
  pairs.forEach((pair, i) => {
    const previous = pairs[i - 1];
    if (previous && pair[0] - previous[0] > threshold) out.push([previous[0] + 1, null]);
    out.push(pair);
  });
  return out;
}

/** A probe's readings as chart pairs in the device's unit; readings without the probe are left out. */
export function seriesData(points: readonly Reading[], probe: string, unit: TemperatureUnit): Point[] {
  const pairs: Point[] = [];
  for (const point of points) {
    const raw = probe === 't' ? point.temperature : point.humidity;
    const value = probeValue(probe, raw, unit);
    const time = Date.parse(point.ts);
    if (value !== null && Number.isFinite(time)) pairs.push([time, value]);
  }
  return withGaps(pairs);
}

/** A round tick step (1, 2, 2.5 or 5 times a power of ten) near `rough`. */
export function niceStep(rough: number): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/** About this many intervals on a value axis. */
export const TICKS = 6;

/**
 * An axis range holding the data and the limits, with some air, on round ticks (so the ends are
 * labelled like the rest), or undefined for ECharts to choose when there is nothing to hold.
 */
export function axisExtent(values: readonly number[]): { min: number; max: number; interval: number } | undefined {
  if (values.length === 0) return undefined;
  let low = Math.min(...values);
  let high = Math.max(...values);
  const air = Math.max((high - low) * 0.05, 0.2);
  low -= air;
  high += air;
  const interval = Math.max(niceStep((high - low) / TICKS), 0.1);
  const round = (value: number) => Number(value.toFixed(6)); // no 3.0000000000000004 on the axis
  return { min: round(Math.floor(low / interval) * interval), max: round(Math.ceil(high / interval) * interval), interval };
}

function limitLines(probe: Probe, unit: TemperatureUnit, precision: number, labels: ChartLabels): MarkLineComponentOption | undefined {
  const symbol = unitSymbol(probe.probe, unit);
  const lines: NonNullable<MarkLineComponentOption['data']> = [];
  const add = (limit: number | null, name: string, color: string) => {
    const value = probeValue(probe.probe, limit, unit);
    if (value === null) return;
    lines.push({
      name,
      yAxis: value,
      lineStyle: { color, type: 'dashed', width: 1.5 },
      label: { formatter: `${name} ${formatNumber(value, precision)} ${symbol}`, color, position: 'insideEndTop' },
    });
  };
  add(probe.upperLimit, labels.upperLimit, COLORS.upper);
  add(probe.lowerLimit, labels.lowerLimit, COLORS.lower);
  if (lines.length === 0) return undefined;
  return { silent: true, symbol: 'none', data: lines };
}

/** Decimals that write a tick step exactly (0.5 → 1, 0.25 → 2, 2 → 0). */
export function decimalsOf(interval: number | undefined): number {
  if (interval === undefined) return 1;
  const text = String(interval);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : Math.min(4, text.length - dot - 1);
}

/** The whole option for one range of readings. */
export function historyOption(input: ChartInput): ChartOption {
  const { points, unit, precision, labels } = input;
  const probes = input.probes.filter((p) => p.probe === 't' || p.probe === 'h');
  const shown = probes.length > 0 ? probes : [{ probe: 't', upperLimit: null, lowerLimit: null, ruleEnabled: false }];
  const hasHumidity = shown.some((p) => p.probe === 'h');
  const axisOf = (probe: string) => (probe === 'h' && shown.some((p) => p.probe === 't') ? 1 : 0);

  const series: LineSeriesOption[] = [];
  const yAxis: NonNullable<ChartOption['yAxis']> = [];
  for (const probe of shown) {
    const data = seriesData(points, probe.probe, unit);
    const symbol = unitSymbol(probe.probe, unit);
    const limits = [probe.upperLimit, probe.lowerLimit]
      .map((limit) => probeValue(probe.probe, limit, unit))
      .filter((value): value is number => value !== null);
    const values = data.map(([, value]) => value).filter((value): value is number => value !== null);
    const extent = axisExtent([...values, ...limits]);
    const color = COLORS[probe.probe as 't' | 'h'];
    const index = axisOf(probe.probe);
    yAxis[index] = {
      type: 'value',
      name: symbol,
      position: index === 0 ? 'left' : 'right',
      ...(extent ?? {}),
      axisLine: { show: true, lineStyle: { color } },
      axisLabel: { formatter: (value: number) => formatNumber(value, decimalsOf(extent?.interval)) },
      splitLine: { show: index === 0, lineStyle: { color: Colors.LIGHT_GRAY4 } },
      nameTextStyle: { color },
    };
    const markLine = limitLines(probe, unit, precision, labels);
    series.push({
      type: 'line',
      name: labels.probe(probe.probe),
      yAxisIndex: index,
      data,
      showSymbol: false,
      connectNulls: false,
      sampling: undefined,
      color,
      // Temperature leads; humidity is drawn lighter behind it.
      lineStyle: { width: probe.probe === 'h' ? 1.2 : 1.8, color, opacity: probe.probe === 'h' ? 0.75 : 1 },
      z: probe.probe === 'h' ? 1 : 2,
      emphasis: { disabled: true },
      tooltip: { valueFormatter: (value) => (typeof value === 'number' ? `${formatNumber(value, precision)} ${symbol}` : '—') },
      ...(markLine ? { markLine } : {}),
    });
  }

  return {
    animation: false,
    color: shown.map((p) => COLORS[p.probe as 't' | 'h']),
    grid: { left: 56, right: hasHumidity ? 64 : 32, top: 56, bottom: 72 },
    legend: { top: 8, left: 'center', icon: 'roundRect', itemWidth: 14, itemHeight: 4 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'line' }, confine: true },
    xAxis: {
      type: 'time',
      min: input.startMs,
      max: input.endMs,
      axisLine: { lineStyle: { color: Colors.GRAY3 } },
      // Numbers only, so the axis reads alike in every language.
      axisLabel: {
        hideOverlap: true,
        formatter: {
          year: '{yyyy}',
          month: '{MM}-{dd}',
          day: '{MM}-{dd}',
          hour: '{HH}:{mm}',
          minute: '{HH}:{mm}',
          second: '{HH}:{mm}:{ss}',
          millisecond: '{HH}:{mm}:{ss}',
        },
      },
      splitLine: { show: false },
    },
    yAxis,
    dataZoom: [
      { type: 'inside', filterMode: 'none' },
      { type: 'slider', filterMode: 'none', height: 22, bottom: 16, showDetail: false, brushSelect: false },
    ],
    series,
  };
}

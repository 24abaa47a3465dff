import { describe, expect, it } from 'vitest';
import type { LineSeriesOption } from 'echarts/charts';
import type { Probe, Reading } from '@/lib/api/devices';
import { axisExtent, decimalsOf, historyOption, medianStep, niceStep, seriesData, withGaps, type ChartInput } from './chartOption';

const T: Probe = { probe: 't', upperLimit: 8, lowerLimit: 2, ruleEnabled: true };
const H: Probe = { probe: 'h', upperLimit: null, lowerLimit: null, ruleEnabled: false };
const START = Date.parse('2026-11-22T00:00:00+08:00');

function readings(count: number, stepMinutes = 5): Reading[] {
  return Array.from({ length: count }, (_, i) => ({
    ts: new Date(START + i * stepMinutes * 60_000).toISOString(),
    temperature: 4 + (i % 3),
    humidity: 70 + i,
  }));
}

function input(overrides: Partial<ChartInput> = {}): ChartInput {
  return {
    points: readings(12),
    probes: [T, H],
    unit: 'C',
    precision: 1,
    startMs: START,
    endMs: START + 3_600_000,
    labels: { probe: (p) => (p === 't' ? 'Temperature' : 'Humidity'), upperLimit: 'Upper limit', lowerLimit: 'Lower limit' },
    ...overrides,
  };
}

const seriesOf = (option: ReturnType<typeof historyOption>) => option.series as LineSeriesOption[];

describe('gaps', () => {
  it('finds the typical step', () => {
    expect(medianStep([0, 5, 10, 15, 200])).toBe(5);
    expect(medianStep([7])).toBe(0);
  });

  it('breaks the line where the device was silent', () => {
    const minute = 60_000;
    const pairs: [number, number][] = [[0, 1], [5 * minute, 2], [10 * minute, 3], [15 * minute, 4], [300 * minute, 5]];
    const out = withGaps(pairs);
    expect(out).toHaveLength(6);
    expect(out[4]).toEqual([15 * minute + 1, null]);
    expect(withGaps(pairs.slice(0, 4))).toHaveLength(4);
  });
});

describe('series data', () => {
  it('converts temperatures to the device\'s unit and leaves humidity alone', () => {
    const points = [{ ts: '2026-11-22T00:00:00+08:00', temperature: 100, humidity: 50 }];
    expect(seriesData(points, 't', 'F')).toEqual([[START, 212]]);
    expect(seriesData(points, 'h', 'F')).toEqual([[START, 50]]);
  });

  it('leaves out readings without the probe', () => {
    const points = [{ ts: '2026-11-22T00:00:00+08:00', temperature: null, humidity: 50 }];
    expect(seriesData(points, 't', 'C')).toEqual([]);
  });
});

describe('axes', () => {
  it('picks round steps', () => {
    expect(niceStep(0.7)).toBe(1);
    expect(niceStep(1.7)).toBe(2);
    expect(niceStep(2.2)).toBe(2.5);
    expect(niceStep(31)).toBe(50);
    expect(niceStep(0)).toBe(1);
    expect(decimalsOf(2.5)).toBe(1);
    expect(decimalsOf(0.25)).toBe(2);
    expect(decimalsOf(5)).toBe(0);
  });

  it('holds the data and the limits, and ends on ticks', () => {
    const extent = axisExtent([3.2, 4.9, 8, 2]);
    expect(extent).toBeDefined();
    const { min, max, interval } = extent!;
    expect(min).toBeLessThan(2);
    expect(max).toBeGreaterThan(8);
    expect(Number.isInteger(Number((min / interval).toFixed(6)))).toBe(true);
    expect(Number.isInteger(Number((max / interval).toFixed(6)))).toBe(true);
    expect(axisExtent([])).toBeUndefined();
  });
});

describe('the option', () => {
  it('draws temperature on the left and humidity on the right, over the range asked for', () => {
    const option = historyOption(input());
    const series = seriesOf(option);
    expect(series.map((s) => [s.name, s.yAxisIndex])).toEqual([['Temperature', 0], ['Humidity', 1]]);
    expect(option.xAxis).toMatchObject({ type: 'time', min: START, max: START + 3_600_000 });
    expect((option.yAxis as { name: string }[]).map((axis) => axis.name)).toEqual(['°C', '%RH']);
  });

  it('marks the limits as dashed lines in the device\'s unit', () => {
    const option = historyOption(input({ unit: 'F' }));
    const [temperature, humidity] = seriesOf(option);
    const lines = temperature?.markLine?.data as { yAxis: number; name: string }[];
    expect(lines.map((line) => [line.name, line.yAxis])).toEqual([
      ['Upper limit', toF(8)],
      ['Lower limit', toF(2)],
    ]);
    expect(humidity?.markLine).toBeUndefined(); // no limits, no lines
    expect((option.yAxis as { name: string }[])[0]?.name).toBe('°F');
  });

  it('keeps the limits in view even when the readings stay far inside them', () => {
    const option = historyOption(input({ points: readings(6).map((r) => ({ ...r, temperature: 5 })) }));
    const axis = (option.yAxis as { min: number; max: number }[])[0];
    expect(axis?.min).toBeLessThanOrEqual(2);
    expect(axis?.max).toBeGreaterThanOrEqual(8);
  });

  it('draws a temperature-only device on one axis', () => {
    const option = historyOption(input({ probes: [T] }));
    expect(seriesOf(option)).toHaveLength(1);
    expect(option.yAxis).toHaveLength(1);
  });
});

function toF(celsius: number): number {
  return (celsius * 9) / 5 + 32;
}

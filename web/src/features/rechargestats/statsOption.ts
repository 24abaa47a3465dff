/**
 * The statistics chart's ECharts option, a pure function of the periods: paid and refunded as bars,
 * net as a line, money in the reader's format; zoom once the periods are too many to read at once.
 */
import { Colors } from '@blueprintjs/colors';
import type { ChartOption } from '@/components/chart/chartOption';
import { formatCents } from '@/lib/money';
import type { Granularity, PeriodFigures } from './api/statistics';
import { longLabel, shortLabel } from './format';

export interface SeriesNames {
  paid: string;
  refunded: string;
  net: string;
}

/** More bars than this and the chart zooms (by wheel and slider) instead of squeezing them. */
export const ZOOM_FROM = 62;

const SERIES = [
  { key: 'paid', type: 'bar', color: Colors.GREEN3 },
  { key: 'refunded', type: 'bar', color: Colors.RED3 },
  { key: 'net', type: 'line', color: Colors.BLUE3 },
] as const;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function statisticsOption(periods: readonly PeriodFigures[], granularity: Granularity, currency: string,
  language: string, names: SeriesNames): ChartOption {
  const money = (cents: number) => formatCents(cents, currency, language);
  const axisMoney = new Intl.NumberFormat(language, { style: 'currency', currency, currencyDisplay: 'narrowSymbol', notation: 'compact' });
  const zoom = periods.length > ZOOM_FROM;
  return {
    grid: { left: 8, right: 16, top: 40, bottom: zoom ? 48 : 8, outerBoundsMode: 'same' },
    legend: { top: 0 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      // The period in full and each figure as money: a tooltip is the one place the exact cents show.
      formatter: (params) => {
        const items = (Array.isArray(params) ? params : [params]) as { dataIndex: number; marker?: unknown; seriesIndex?: number }[];
        const period = periods[items[0]?.dataIndex ?? 0];
        if (!period) return '';
        const lines = items.map((item) => {
          const series = SERIES[item.seriesIndex ?? 0]!;
          return `${typeof item.marker === 'string' ? item.marker : ''}${escapeHtml(names[series.key])}: <b>${escapeHtml(money(period[series.key]))}</b>`;
        });
        return [`<b>${escapeHtml(longLabel(period, granularity, language))}</b>`, ...lines].join('<br/>');
      },
    },
    xAxis: { type: 'category', data: periods.map((p) => shortLabel(p, granularity, language)) },
    yAxis: { type: 'value', axisLabel: { formatter: (value: number) => axisMoney.format(value) } },
    ...(zoom ? { dataZoom: [{ type: 'inside' }, { type: 'slider', bottom: 8 }] } : {}),
    series: SERIES.map(({ key, type, color }) => ({
      type,
      name: names[key],
      data: periods.map((p) => p[key] / 100),
      itemStyle: { color },
      ...(type === 'line' ? { symbolSize: 5 } : { barMaxWidth: 24 }),
    })),
  };
}

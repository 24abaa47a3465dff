/**
 * Periods as the reader names them. A period's start and end are instants the server wrote in the
 * zone it was asked in; their date part is the period's first day and the day after its last, read
 * as such (at UTC) so the browser's own zone never moves them.
 */
import type { Granularity, PeriodFigures } from './api/statistics';
import { addDays, monthStart } from './range';

type Period = Pick<PeriodFigures, 'start' | 'end'>;

const utc = (day: string) => new Date(`${day}T00:00:00Z`);
export const firstDay = (period: Period) => period.start.slice(0, 10);
export const lastDay = (period: Period) => addDays(period.end.slice(0, 10), -1);

/** Under a chart's bar: the day (27 Nov), the week by its first day, the month (Nov 2026). */
export function shortLabel(period: Period, granularity: Granularity, language: string): string {
  const options: Intl.DateTimeFormatOptions = granularity === 'month'
    ? { month: 'short', year: 'numeric', timeZone: 'UTC' }
    : { day: 'numeric', month: 'short', timeZone: 'UTC' };
  return new Intl.DateTimeFormat(language, options).format(utc(firstDay(period)));
}

/** In a table or a tooltip: the day in full, a week's days, a whole month by name, a month cut by the range by its days. */
export function longLabel(period: Period, granularity: Granularity, language: string): string {
  const first = firstDay(period);
  const last = lastDay(period);
  if (granularity === 'month' && first === monthStart(first) && last === addDays(monthStart(first, 1), -1)) {
    return new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(utc(first));
  }
  const format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  return first === last ? format.format(utc(first)) : format.formatRange(utc(first), utc(last));
}

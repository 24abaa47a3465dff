/**
 * The range an operator reads: days as YYYY-MM-DD in the zone the server reads them in (the
 * X-Time-Zone the client sends), the quick choices counted back from today in that zone, and the
 * form's rules. Days are computed at UTC midnight, so no zone nor DST shifts them.
 */
import { z } from 'zod';
import { GRANULARITIES, type StatsRange } from './api/statistics';

export const QUICK_CHOICES = ['last7', 'last30', 'thisMonth', 'last12Months'] as const;
export type QuickChoice = (typeof QUICK_CHOICES)[number];
export const DEFAULT_CHOICE: QuickChoice = 'last30';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dateOf = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  const date = dateOf(day);
  date.setUTCDate(date.getUTCDate() + days);
  return dayOf(date);
}

/** The first day of the month `months` after `day`'s (before, when negative). */
export function monthStart(day: string, months = 0): string {
  const date = dateOf(day);
  return dayOf(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1)));
}

/** Today in `zone` (an IANA name); the browser's today should the zone be unknown to it. */
export function todayIn(zone: string, now: Date = new Date()): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  } catch {
    parts = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  }
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

export function quickRange(choice: QuickChoice, today: string): StatsRange {
  switch (choice) {
    case 'last7':
      return { startDate: addDays(today, -6), endDate: today, granularity: 'day' };
    case 'last30':
      return { startDate: addDays(today, -29), endDate: today, granularity: 'day' };
    case 'thisMonth':
      return { startDate: monthStart(today), endDate: today, granularity: 'day' };
    case 'last12Months':
      return { startDate: monthStart(today, -11), endDate: today, granularity: 'month' };
  }
}

/** The quick choice `range` is, if any (to show it pressed). */
export function choiceOf(range: StatsRange, today: string): QuickChoice | undefined {
  return QUICK_CHOICES.find((choice) => {
    const quick = quickRange(choice, today);
    return quick.startDate === range.startDate && quick.endDate === range.endDate && quick.granularity === range.granularity;
  });
}

/** The form's rules, worded in the reader's language: two days, the end not before the start. */
export function rangeFormSchema(t: (key: string) => string) {
  const day = z.string().regex(DAY, t('rule.date'));
  return z
    .object({ startDate: day, endDate: day, granularity: z.enum(GRANULARITIES) })
    .refine((range) => range.endDate >= range.startDate, { message: t('rule.endBeforeStart'), path: ['endDate'] });
}

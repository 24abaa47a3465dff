import { describe, expect, it } from 'vitest';
import { longLabel as longText, shortLabel } from './format';
import { choiceOf, quickRange, rangeFormSchema, todayIn } from './range';
import { period } from './test/statsFixtures';

describe('the ranges of the recharge statistics', () => {
  it("counts today in the zone the server reads days in, not the browser's", () => {
    const instant = new Date('2026-11-27T20:00:00Z');
    expect(todayIn('Asia/Shanghai', instant)).toBe('2026-11-28');
    expect(todayIn('America/New_York', instant)).toBe('2026-11-27');
  });

  it('counts the quick choices back from today, over month and year ends', () => {
    expect(quickRange('last7', '2026-03-02')).toEqual({ startDate: '2026-02-24', endDate: '2026-03-02', granularity: 'day' });
    expect(quickRange('last30', '2026-01-15')).toEqual({ startDate: '2025-12-17', endDate: '2026-01-15', granularity: 'day' });
    expect(quickRange('thisMonth', '2026-02-28')).toEqual({ startDate: '2026-02-01', endDate: '2026-02-28', granularity: 'day' });
    expect(quickRange('last12Months', '2026-01-31')).toEqual({ startDate: '2025-02-01', endDate: '2026-01-31', granularity: 'month' });
    expect(choiceOf(quickRange('last7', '2026-03-02'), '2026-03-02')).toBe('last7');
    expect(choiceOf({ startDate: '2026-02-24', endDate: '2026-03-02', granularity: 'week' }, '2026-03-02')).toBeUndefined();
  });

  it('refuses an end before the start and a day that is not one', () => {
    const schema = rangeFormSchema((key) => key);
    expect(schema.safeParse({ startDate: '2026-11-01', endDate: '2026-11-01', granularity: 'day' }).success).toBe(true);
    const reversed = schema.safeParse({ startDate: '2026-11-02', endDate: '2026-11-01', granularity: 'day' });
    expect(reversed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['endDate', 'rule.endBeforeStart']]);
    expect(schema.safeParse({ startDate: '', endDate: '2026-11-01', granularity: 'day' }).error?.issues[0]?.message).toBe('rule.date');
  });

  it('names a period by its days, whatever the offset the server wrote it with', () => {
    // Intl sets a range's dash between thin spaces
    const longLabel = (...args: Parameters<typeof longText>) => longText(...args).replace(/\s/g, ' ');
    const week = { start: '2026-11-23T00:00:00-05:00', end: '2026-11-30T00:00:00-05:00' };
    expect(shortLabel(week, 'week', 'en-US')).toBe('Nov 23');
    expect(longLabel(week, 'week', 'en-US')).toBe('Nov 23 – 29, 2026');
    expect(longLabel({ start: '2026-11-01T00:00:00+08:00', end: '2026-12-01T00:00:00+08:00' }, 'month', 'en-US')).toBe('November 2026');
    // a month cut by the range is said by its days
    expect(longLabel({ start: '2026-11-01T00:00:00+08:00', end: '2026-11-29T00:00:00+08:00' }, 'month', 'en-US'))
      .toBe('Nov 1 – 28, 2026');
    expect(longLabel(period('2026-11-28'), 'day', 'ru-RU')).toBe('28 нояб. 2026 г.');
    expect(shortLabel(period('2026-11-28'), 'month', 'de-DE')).toBe('Nov. 2026');
  });
});

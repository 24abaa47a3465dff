import { describe, expect, it } from 'vitest';
import { DEFER_CHOICES } from '@/lib/api/alarms';
import { backAt, DEAL_DEFAULTS, dealBody, dealSchema, RESULT_MAX, resultOf } from './dealSchema';

/** Messages come back as their keys, so a test can say which rule spoke. */
const t = (key: string) => key;
const schema = dealSchema(t);
const issues = (value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};
const form = (change: Record<string, unknown>) => ({ ...DEAL_DEFAULTS, ...change });

describe('the handling form', () => {
  it('needs a handling', () => {
    expect(issues(form({ handling: null }))).toEqual(['handling: deal.handlingRequired']);
    expect(issues(form({ handling: 4 }))).toEqual(['handling: deal.handlingRequired']);
    expect(issues(form({ handling: 3 }))).toEqual([]);
  });

  it('takes a result of up to 50 characters as the server counts them, around spaces', () => {
    expect(issues(form({ handling: 1, result: 'x'.repeat(RESULT_MAX) }))).toEqual([]);
    expect(issues(form({ handling: 1, result: `  ${'冷'.repeat(RESULT_MAX)}  ` }))).toEqual([]);
    expect(issues(form({ handling: 1, result: '😀'.repeat(RESULT_MAX) }))).toEqual([]);
    expect(issues(form({ handling: 1, result: 'x'.repeat(RESULT_MAX + 1) }))).toEqual(['result: deal.resultTooLong']);
  });

  it('sends the result trimmed, and none for an empty one', () => {
    expect(resultOf('  done  ')).toBe('done');
    expect(resultOf('   ')).toBeNull();
    expect(dealBody(4, form({ handling: 2, result: ' false alarm ' }))).toEqual({ id: 4, handling: 2, result: 'false alarm' });
    expect(() => dealBody(4, form({ handling: null }))).toThrow();
  });
});

describe('deferring', () => {
  it('offers 15 minutes, 1 hour, 4 hours and 1 day, an hour unless another is chosen', () => {
    expect(DEFER_CHOICES).toEqual([15, 60, 240, 1440]);
    expect(DEAL_DEFAULTS.deferMinutes).toBe(60);
    for (const minutes of DEFER_CHOICES) expect(issues(form({ handling: 3, deferMinutes: minutes }))).toEqual([]);
  });

  it('needs one of the delays offered', () => {
    for (const minutes of [null, 0, 30, -15, 1441, 1.5]) {
      expect(issues(form({ handling: 3, deferMinutes: minutes }))).toEqual(['deferMinutes: defer.delayRequired']);
    }
    // approving or refusing does not look at it
    expect(issues(form({ handling: 1, deferMinutes: null }))).toEqual([]);
  });

  it('sends the delay with a deferral only', () => {
    expect(dealBody(4, form({ handling: 3, deferMinutes: 240, result: ' Spare part ordered ' }))).toEqual({
      id: 4, handling: 3, result: 'Spare part ordered', deferMinutes: 240,
    });
    expect(dealBody(4, form({ handling: 3 }))).toEqual({ id: 4, handling: 3, result: null, deferMinutes: 60 });
    expect(dealBody(4, form({ handling: 1, deferMinutes: 240 }))).toEqual({ id: 4, handling: 1, result: null });
    expect(() => dealBody(4, form({ handling: 3, deferMinutes: 30 }))).toThrow();
  });

  it('says when the alarm comes back', () => {
    const ten = Date.parse('2026-05-01T10:00:00+08:00');
    expect(backAt(60, ten).toISOString()).toBe('2026-05-01T03:00:00.000Z');
    expect(backAt(1440, ten).toISOString()).toBe('2026-05-02T02:00:00.000Z');
  });
});

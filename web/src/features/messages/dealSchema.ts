/**
 * The handling form (spec seed 001 sections 4-5): approve, refuse or defer, and a result of at
 * most 50 characters, as the server counts them. Deferring also takes a delay, one of
 * DEFER_CHOICES: the alarm is untreated again after it. A pure function of `t`, so its messages
 * follow the chosen language and the rule can be tested without React.
 */
import { z } from 'zod';
import { DEFAULT_DEFER_MINUTES, DEFER, DEFER_CHOICES, isHandling, type DealBody } from '@/lib/api/alarms';
import { lengthOf } from '@/lib/alarmValues';

/** "Handling result up to 50" (core/alarms/validation.py RESULT_MAX). */
export const RESULT_MAX = 50;

export type T = (key: string, options?: Record<string, unknown>) => string;

export const DEAL_FIELDS = ['handling', 'result', 'deferMinutes'] as const;

/** The form as it opens: nothing chosen, and an hour if it is deferred. */
export const DEAL_DEFAULTS = { handling: null, result: '', deferMinutes: DEFAULT_DEFER_MINUTES } as const;

/** The result as it is sent: the server trims it and keeps an empty one as none. */
export function resultOf(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

export function isDeferChoice(value: unknown): value is (typeof DEFER_CHOICES)[number] {
  return typeof value === 'number' && (DEFER_CHOICES as readonly number[]).includes(value);
}

export const dealSchema = (t: T) =>
  z
    .object({
      handling: z
        .number()
        .nullable()
        .refine((value) => isHandling(value), { message: t('deal.handlingRequired') }),
      result: z.string().refine((value) => lengthOf(resultOf(value) ?? '') <= RESULT_MAX, {
        message: t('deal.resultTooLong', { max: RESULT_MAX }),
      }),
      deferMinutes: z.number().nullable(),
    })
    .refine((form) => form.handling !== DEFER || isDeferChoice(form.deferMinutes), {
      path: ['deferMinutes'],
      message: t('defer.delayRequired'),
    });
export type DealForm = z.input<ReturnType<typeof dealSchema>>;

/** The body of the deal call for a checked form: the delay goes only with deferring. */
export function dealBody(id: number, form: DealForm): DealBody {
  if (!isHandling(form.handling)) throw new Error('no handling chosen');
  const body: DealBody = { id, handling: form.handling, result: resultOf(form.result) };
  if (form.handling === DEFER) {
    if (!isDeferChoice(form.deferMinutes)) throw new Error('no delay chosen');
    body.deferMinutes = form.deferMinutes;
  }
  return body;
}

/** When an alarm deferred now for `minutes` is untreated again. */
export function backAt(minutes: number, now = Date.now()): Date {
  return new Date(now + minutes * 60_000);
}

/**
 * The handling form (spec seed 001 sections 4-5): approve, refuse or defer, and a result of at
 * most 50 characters, as the server counts them. A pure function of `t`, so its messages follow
 * the chosen language and the rule can be tested without React.
 */
import { z } from 'zod';
import { isHandling, type DealBody } from './api/alarms';
import { lengthOf } from './values';

/** "Handling result up to 50" (core/alarms/validation.py RESULT_MAX). */
export const RESULT_MAX = 50;

export type T = (key: string, options?: Record<string, unknown>) => string;

export const DEAL_FIELDS = ['handling', 'result'] as const;

/** The result as it is sent: the server trims it and keeps an empty one as none. */
export function resultOf(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

export const dealSchema = (t: T) =>
  z.object({
    handling: z
      .number()
      .nullable()
      .refine((value) => isHandling(value), { message: t('deal.handlingRequired') }),
    result: z.string().refine((value) => lengthOf(resultOf(value) ?? '') <= RESULT_MAX, {
      message: t('deal.resultTooLong', { max: RESULT_MAX }),
    }),
  });
export type DealForm = z.input<ReturnType<typeof dealSchema>>;

/** The body of the deal call for a checked form. */
export function dealBody(id: number, form: DealForm): DealBody {
  if (!isHandling(form.handling)) throw new Error('no handling chosen');
  return { id, handling: form.handling, result: resultOf(form.result) };
}

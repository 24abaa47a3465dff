import type { TFunction } from 'i18next';
import { z } from 'zod';
import { LANGUAGES } from '@/lib/i18n';
import { PROMOTION_LIMITS, type Activity, type ActivityFields, type TargetAccount } from './api/promotions';

// What the server refuses (src/core/promotions/model.py): its rules decide, these say so while typing.
const REFUSED = /[\p{So}\p{Cc}\p{Cf}\p{Co}\p{Cs}\uFE00-\uFE0F]/u;
const length = (v: string) => [...v].length;

/** The message key of what is wrong with a name (an empty optional one is fine), or null. */
export function nameProblem(name: string, required: boolean): string | null {
  const text = name.trim();
  if (text === '') return required ? 'rule.nameRequired' : null;
  if (length(text) > PROMOTION_LIMITS.name) return 'rule.nameLength';
  if (REFUSED.test(text)) return 'rule.characters';
  return null;
}

const namesSchema = (t: TFunction) => z.record(z.string(), z.string()).superRefine((names, ctx) => {
  for (const [language, text] of Object.entries(names)) {
    const problem = nameProblem(text, false);
    if (problem) ctx.addIssue({ code: 'custom', path: [language], message: t(problem, { max: PROMOTION_LIMITS.name }) });
  }
});

const discountField = (t: TFunction) =>
  z.number({ error: t('rule.discount') }).int(t('rule.discount')).min(1, t('rule.discount')).max(100, t('rule.discount'));
const bonusField = (t: TFunction) => z.number({ error: t('rule.bonus') }).int(t('rule.bonus')).min(0, t('rule.bonus'))
  .max(PROMOTION_LIMITS.bonusMonths, t('rule.bonus'));

/** The activity editor, checked as the server checks it, in the operator's language. `discount` and
 * `bonusMonths` are what a newly linked option starts with (and "apply to every option" sets); each
 * linked option carries its own, as the server keeps them. */
export function activityFormSchema(t: TFunction) {
  return z.object({
    name: z.string(),
    names: namesSchema(t),
    nature: z.number(),
    startTime: z.string().min(1, t('rule.dateRequired')),
    endTime: z.string().min(1, t('rule.dateRequired')),
    discount: discountField(t),
    bonusMonths: bonusField(t),
    options: z.array(z.object({ levelYearId: z.number(), discount: discountField(t), bonusMonths: bonusField(t) }))
      .min(1, t('rule.options')),
    accounts: z.array(z.object({ id: z.number(), userName: z.string(), phone: z.string().nullable(), email: z.string().nullable() })),
  }).superRefine((form, ctx) => {
    const problem = nameProblem(form.name, true);
    if (problem) ctx.addIssue({ code: 'custom', path: ['name'], message: t(problem, { max: PROMOTION_LIMITS.name }) });
    if (form.startTime && form.endTime && form.endTime <= form.startTime) {
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: t('rule.endAfterStart') });
    }
    form.options.forEach((option, index) => {
      if (option.discount === 100 && option.bonusMonths === 0) {
        ctx.addIssue({ code: 'custom', path: ['options', index, 'discount'], message: t('rule.offersNothing') });
      }
    });
    if (form.nature === 2 && form.accounts.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['accounts'], message: t('rule.targets') });
    }
  });
}
export type ActivityForm = z.infer<ReturnType<typeof activityFormSchema>>;

/** `2026-11-26T08:00:00+08:00` as the `datetime-local` input shows it, in the zone it was written in. */
export const toLocalInput = (iso: string) => iso.slice(0, 16);

export function emptyActivityForm(now: Date = new Date()): ActivityForm {
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const end = new Date(now.getTime() + 30 * 24 * 3600 * 1000);
  return { name: '', names: Object.fromEntries(LANGUAGES.map((l) => [l, ''])), nature: 1, startTime: local(now),
    endTime: local(end), discount: 80, bonusMonths: 0, options: [], accounts: [] };
}

export function activityToForm(activity: Activity): ActivityForm {
  const first = activity.options[0];
  return {
    name: activity.defaultName,
    names: Object.fromEntries(LANGUAGES.map((l) => [l, activity.names[l] ?? ''])),
    nature: activity.nature,
    startTime: toLocalInput(activity.startTime),
    endTime: toLocalInput(activity.endTime),
    discount: first?.activityDiscount ?? 80,
    bonusMonths: first?.presentationMonth ?? 0,
    options: activity.options.map((o) => ({ levelYearId: o.levelYearId, discount: o.activityDiscount, bonusMonths: o.presentationMonth })),
    accounts: activity.accounts as TargetAccount[],
  };
}

/** What the server takes: each linked option at its own discount and bonus months; targets only when directional. */
export function formToFields(form: ActivityForm): ActivityFields {
  return {
    name: form.name.trim(),
    names: Object.fromEntries(Object.entries(form.names).map(([l, v]) => [l, v.trim()]).filter(([, v]) => v !== '')),
    nature: form.nature,
    startTime: form.startTime,
    endTime: form.endTime,
    options: form.options.map((o) => ({ levelYearId: o.levelYearId, activityDiscount: o.discount, presentationMonth: o.bonusMonths })),
    accountIds: form.nature === 2 ? form.accounts.map((a) => a.id) : [],
  };
}

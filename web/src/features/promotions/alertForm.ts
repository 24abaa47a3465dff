import type { TFunction } from 'i18next';
import { z } from 'zod';
import { nameProblem } from './activityForm';
import { PROMOTION_LIMITS } from './api/promotions';

const COUNTRY_CODE = /^[1-9][0-9]{0,3}$/;

/** The SMS/voice package editor, checked as the server checks it (src/core/promotions/model.py alert_problems). */
export function alertFormSchema(t: TFunction) {
  return z.object({
    countryCode: z.string().trim().regex(COUNTRY_CODE, t('rule.countryCode')),
    packageName: z.string(),
    names: z.record(z.string(), z.string()).superRefine((names, ctx) => {
      for (const [language, text] of Object.entries(names)) {
        const problem = nameProblem(text, false);
        if (problem) ctx.addIssue({ code: 'custom', path: [language], message: t(problem, { max: PROMOTION_LIMITS.name }) });
      }
    }),
    /** In the currency's unit (yuan, dollars); sent in cents. */
    fee: z.number({ error: t('rule.fee') }).min(0, t('rule.fee')).max(10_000_000, t('rule.fee'))
      .refine((v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, t('rule.fee')),
    currency: z.string(),
    smsCount: z.number({ error: t('rule.count') }).int(t('rule.count')).min(1, t('rule.count')).max(1_000_000, t('rule.count')),
    discount: z.number({ error: t('rule.discount') }).int(t('rule.discount')).min(1, t('rule.discount')).max(100, t('rule.discount')),
    enabled: z.boolean(),
  }).superRefine((form, ctx) => {
    const problem = nameProblem(form.packageName, true);
    if (problem) ctx.addIssue({ code: 'custom', path: ['packageName'], message: t(problem, { max: PROMOTION_LIMITS.name }) });
  });
}
export type AlertForm = z.infer<ReturnType<typeof alertFormSchema>>;

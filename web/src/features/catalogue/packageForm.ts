import type { TFunction } from 'i18next';
import { z } from 'zod';
import { LANGUAGES } from '@/lib/i18n/index';
import { parseCents } from '@/lib/money';

/** The server's bounds (src/core/catalogue/model.py; spec 001 section 5). */
export const LIMITS = {
  packageName: 20, levelName: 20, levelDescription: 200, itemName: 100, itemSupplement: 200, itemLabel: 50,
  months: 1200, feeCents: 10 ** 10, giftMonths: 120, giftCount: 100_000, options: 24,
} as const;
export const CURRENCIES = ['CNY', 'USD'] as const;

// What the server refuses in a name: control, format, private-use characters and pictographs.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\uFE00-\uFE0F]/u;
function refused(text: string): boolean {
  if (INVISIBLE.test(text)) return true;
  for (const ch of text) {
    const point = ch.codePointAt(0) ?? 0;
    if (point >= 0x2190 && !(point >= 0x2100 && point < 0x2150) && /\p{So}/u.test(ch)) return true;
  }
  return false;
}
const length = (v: string) => [...v].length;

/** Cents from what an operator types ('99', '99.5', '99,50'); NaN when it is not an amount. */
export function toCents(text: string): number {
  return parseCents(text, 9) ?? Number.NaN;
}

export function fromCents(cents: number): string {
  return (cents / 100).toFixed(2);
}

function textsSchema(t: TFunction, defaultLanguage: string, nameMax: number, descriptionMax: number | null) {
  const text = (v: string, max: number) => length(v.trim()) <= max && !refused(v);
  return z.object(Object.fromEntries(LANGUAGES.map((lang) => [lang, z.object({
    name: z.string()
      .refine((v) => lang !== defaultLanguage || v.trim().length > 0, t('catalogue:form.defaultRequired'))
      .refine((v) => length(v.trim()) <= nameMax, t('catalogue:form.tooLong', { max: nameMax }))
      .refine((v) => !refused(v), t('catalogue:form.characters')),
    description: z.string().refine((v) => descriptionMax === null || text(v, descriptionMax),
      t('catalogue:form.tooLong', { max: descriptionMax ?? 0 })),
  })])));
}

export function packageFormSchema(t: TFunction, defaultLanguage: string) {
  return z.object({
    packageCode: z.string().trim().regex(/^\d{8}$/, t('catalogue:form.code')),
    names: textsSchema(t, defaultLanguage, LIMITS.packageName, null),
    deviceTypeIds: z.array(z.number()),
  });
}
export type PackageForm = z.infer<ReturnType<typeof packageFormSchema>>;

export function levelFormSchema(t: TFunction, defaultLanguage: string) {
  const amount = z.string().refine((v) => {
    const cents = toCents(v);
    return Number.isFinite(cents) && cents <= LIMITS.feeCents;
  }, t('catalogue:form.fee'));
  return z.object({
    names: textsSchema(t, defaultLanguage, LIMITS.levelName, LIMITS.levelDescription),
    itemCodes: z.array(z.string()),
    options: z.array(z.object({
      id: z.number().optional(),
      sold: z.boolean(),
      timeLength: z.string().refine((v) => /^\d{1,4}$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= LIMITS.months,
        t('catalogue:form.months')),
      serviceFee: amount,
      dataFee: amount,
      currency: z.enum(CURRENCIES),
      discount: z.string().refine((v) => /^\d{1,3}$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 100,
        t('catalogue:form.discount')),
      topStatus: z.boolean(),
    })).min(1, t('catalogue:form.optionsRequired')).max(LIMITS.options)
      .superRefine((rows, ctx) => {
        const seen = new Set<string>();
        rows.forEach((row, index) => {
          const key = `${Number(row.timeLength)}-${row.currency}`;
          if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [index, 'timeLength'], message: t('catalogue:form.twice') });
          seen.add(key);
        });
      }),
  });
}
export type LevelForm = z.infer<ReturnType<typeof levelFormSchema>>;

export function giftFormSchema(t: TFunction) {
  const count = z.string().refine((v) => /^\d{1,6}$/.test(v.trim()) && Number(v) <= LIMITS.giftCount, t('catalogue:form.count'));
  return z.object({
    levelId: z.string(),
    timeLength: z.string().refine((v) => /^\d{1,3}$/.test(v.trim()) && Number(v) <= LIMITS.giftMonths,
      t('catalogue:form.giftMonths')),
    smsCount: count,
    voiceCount: count,
  }).refine((v) => Number(v.timeLength) === 0 || v.levelId !== '', { path: ['levelId'], message: t('catalogue:form.giftLevel') });
}
export type GiftForm = z.infer<ReturnType<typeof giftFormSchema>>;

/** The names as the form edits them: every language, blanks for those without a text. */
export function namesForForm(names: Record<string, { name: string; description: string | null }>) {
  return Object.fromEntries(LANGUAGES.map((lang) => [lang, { name: names[lang]?.name ?? '',
    description: names[lang]?.description ?? '' }])) as Record<(typeof LANGUAGES)[number], { name: string; description: string }>;
}

/** The names as the server takes them: languages left blank are left out (they read the default's). */
export function namesForServer(names: Record<string, { name: string; description: string }>, withDescription: boolean) {
  return Object.fromEntries(Object.entries(names).filter(([, text]) => text.name.trim())
    .map(([lang, text]) => [lang, { name: text.name.trim(),
      description: withDescription && text.description.trim() ? text.description.trim() : null }]));
}

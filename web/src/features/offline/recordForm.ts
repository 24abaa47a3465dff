/**
 * The form of a new offline purchase, as typed (every field text), checked before anything is
 * sent, and turned into what the check (addDeviceList, getPackageByFile) and insert take.
 */
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { parseCents } from '@/lib/money';
import { OFFLINE_LIMITS, type Content } from './api/offline';
import { splitGuids } from './guids';

export const SOURCES = ['typed', 'sheet'] as const;
export type Source = (typeof SOURCES)[number];

export interface RecordForm {
  customer: string;
  /** Only to choose the level from: the purchase names the level and its service time. */
  packageId: string;
  levelId: string;
  levelYearId: string;
  smsCount: string;
  voiceCount: string;
  /** In units of the edition's currency ('1980.00'), sent in cents. */
  amount: string;
  /** 60 offline (contract), 61 bank transfer. */
  payType: '60' | '61';
  remark: string;
  source: Source;
  guidsText: string;
}

export const EMPTY_FORM: RecordForm = {
  customer: '', packageId: '', levelId: '', levelYearId: '', smsCount: '', voiceCount: '', amount: '', payType: '60',
  remark: '', source: 'typed', guidsText: '',
};

const count = (text: string) => (text.trim() === '' ? 0 : Number(text.trim()));
const isCount = (text: string) => text.trim() === '' || (/^\d{1,7}$/.test(text.trim()) && count(text) <= OFFLINE_LIMITS.count);

export function recordSchema(t: TFunction) {
  return z.object({
    customer: z.string().trim().min(1, t('offline:form.customerRequired'))
      .max(OFFLINE_LIMITS.customer, t('offline:form.tooLong', { max: OFFLINE_LIMITS.customer })),
    packageId: z.string(),
    levelId: z.string(),
    levelYearId: z.string(),
    smsCount: z.string().refine(isCount, t('offline:form.count', { max: OFFLINE_LIMITS.count })),
    voiceCount: z.string().refine(isCount, t('offline:form.count', { max: OFFLINE_LIMITS.count })),
    amount: z.string().refine((v) => {
      const cents = parseCents(v, OFFLINE_LIMITS.amountDigits);
      return cents !== null && cents <= OFFLINE_LIMITS.amountCents;
    }, t('offline:form.amountInvalid')),
    payType: z.enum(['60', '61']),
    remark: z.string().max(OFFLINE_LIMITS.remark, t('offline:form.tooLong', { max: OFFLINE_LIMITS.remark })),
    source: z.enum(SOURCES),
    guidsText: z.string(),
  }).superRefine((form, ctx) => {
    if (form.levelId !== '' && form.levelYearId === '') {
      ctx.addIssue({ code: 'custom', path: ['levelYearId'], message: t('offline:form.serviceTimeRequired') });
    }
    if (form.levelId === '' && isCount(form.smsCount) && isCount(form.voiceCount)
      && count(form.smsCount) === 0 && count(form.voiceCount) === 0) {
      ctx.addIssue({ code: 'custom', path: ['levelId'], message: t('offline:form.nothingBought') });
    }
    if (form.source === 'typed') {
      const guids = splitGuids(form.guidsText);
      const message = guids.length === 0 ? t('offline:form.guidsRequired')
        : guids.length > OFFLINE_LIMITS.devices ? t('offline:form.tooManyGuids', { max: OFFLINE_LIMITS.devices })
          : guids.some((guid) => guid.length > OFFLINE_LIMITS.guid) ? t('offline:form.guidTooLong', { max: OFFLINE_LIMITS.guid })
            : null;
      if (message) ctx.addIssue({ code: 'custom', path: ['guidsText'], message });
    }
  });
}

/** What each device gets, from a valid form. */
export function contentOf(form: RecordForm): Content {
  const level = form.levelId === '' ? null : Number(form.levelId);
  return {
    customer: form.customer.trim(),
    levelId: level,
    levelYearId: level === null ? null : Number(form.levelYearId),
    smsCount: count(form.smsCount),
    voiceCount: count(form.voiceCount),
  };
}

/** The amount in cents, exactly as typed (the schema has checked it). */
export function amountOf(form: RecordForm): number {
  return parseCents(form.amount, OFFLINE_LIMITS.amountDigits) ?? 0;
}

/**
 * What a check was made of: the customer, the content and the devices (typed, or the file chosen).
 * A report stands for the form only while this is unchanged.
 */
export function checkKey(form: RecordForm, file: File | null): string {
  const content = contentOf(form);
  const devices = form.source === 'typed' ? splitGuids(form.guidsText) : file ? [file.name, file.size, file.lastModified] : [];
  return JSON.stringify([content, form.source, devices]);
}

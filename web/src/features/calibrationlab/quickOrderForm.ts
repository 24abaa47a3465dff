import type { TFunction } from 'i18next';
import { z } from 'zod';
import { CALIBRATION_LIMITS as L, type LabApplication, type QuickOrderDetails } from '@/lib/api/calibrationLab';
import { hasRefusedCharacters } from '@/lib/refusedCharacters';

/** The details the lab completes on a quick order, checked as the server checks them (required in full now). */
export function quickOrderFormSchema(t: TFunction) {
  const text = (max: number, required: boolean) => z.string()
    .refine((v) => !required || v.trim().length > 0, t('error.required'))
    .refine((v) => [...v.trim()].length <= max, t('error.tooLong', { max }))
    .refine((v) => !hasRefusedCharacters(v), t('error.characters'));
  return z.object({
    customerName: text(L.name, true),
    contactName: text(L.contactName, true),
    contactPhone: text(L.phone, false).refine((v) => !v.trim() || /^[+\d][\d\s-]{3,19}$/.test(v.trim()), t('error.phone')),
    contactEmail: text(L.email, false).refine((v) => !v.trim() || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()), t('error.email')),
    returnAddress: text(L.address, true),
    customerAddress: text(L.address, false),
    remark: text(L.remark, false),
  }).refine((v) => v.contactPhone.trim() || v.contactEmail.trim(), { path: ['contactPhone'], message: t('error.contactWay') });
}
export type QuickOrderForm = z.infer<ReturnType<typeof quickOrderFormSchema>>;

export function quickOrderFormOf(application: LabApplication): QuickOrderForm {
  const d = application.details;
  return {
    customerName: d?.customerName ?? '', contactName: d?.contactName ?? '', contactPhone: d?.contactPhone ?? '',
    contactEmail: d?.contactEmail ?? '', returnAddress: d?.returnAddress ?? '', customerAddress: d?.customerAddress ?? '',
    remark: d?.remark ?? '',
  };
}

export function quickOrderDetails(form: QuickOrderForm): QuickOrderDetails {
  const optional = (v: string) => v.trim() || null;
  return {
    customerName: form.customerName.trim(), contactName: form.contactName.trim(),
    contactPhone: optional(form.contactPhone), contactEmail: optional(form.contactEmail),
    returnAddress: form.returnAddress.trim(), customerAddress: optional(form.customerAddress), remark: optional(form.remark),
  };
}

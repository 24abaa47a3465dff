import type { TFunction } from 'i18next';
import { z } from 'zod';
import { hasRefusedCharacters } from '@/lib/refusedCharacters';
import { WAYBILL_LIMITS, type WaybillFields, type WaybillTemplate } from './api/waybills';

const length = (v: string) => [...v.trim()].length;
// src/core/waybills/rules.py: an optional +, a digit, then digits, spaces and hyphens.
const PHONE = /^(\+?[0-9][0-9 -]*)?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `2026-11-26T08:00` (a datetime-local input) from an ISO instant, in the browser's zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The ISO instant (UTC) of a datetime-local value; null for none. */
export function fromLocalInput(local: string): string | null {
  if (!local) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The create and edit form, checked as the server checks it (src/core/waybills/rules), in the user's language. */
export function waybillFormSchema(t: TFunction) {
  const text = (max: number) => z.string()
    .refine((v) => length(v) <= max, t('error.length', { max }))
    .refine((v) => !hasRefusedCharacters(v), t('error.characters'));
  const phone = text(WAYBILL_LIMITS.phone).refine((v) => PHONE.test(v.trim()), t('error.phone'));
  const limit = z.string().refine((v) => {
    if (v.trim() === '') return true;
    const n = Number(v);
    return Number.isFinite(n) && Math.abs(n) <= WAYBILL_LIMITS.temperature;
  }, t('error.limit', { max: WAYBILL_LIMITS.temperature }));
  return z.object({
    orderNum: text(WAYBILL_LIMITS.short),
    goodsName: text(WAYBILL_LIMITS.short),
    expressNumber: text(WAYBILL_LIMITS.express),
    coolerCode: text(WAYBILL_LIMITS.short),
    upperLimit: limit,
    lowerLimit: limit,
    senderName: text(WAYBILL_LIMITS.short),
    senderPhone: phone,
    senderAddress: text(WAYBILL_LIMITS.address),
    receiverName: text(WAYBILL_LIMITS.short),
    receiverPhone: phone,
    receiverAddress: text(WAYBILL_LIMITS.address),
    alarmContacts: z.array(z.object({
      name: text(WAYBILL_LIMITS.short).refine((v) => length(v) >= 1, t('error.contactName')),
      phone,
      email: text(WAYBILL_LIMITS.email).refine((v) => v.trim() === '' || EMAIL.test(v.trim()), t('error.email')),
    }).refine((c) => c.phone.trim() !== '' || c.email.trim() !== '', { message: t('error.contactReach'), path: ['phone'] }))
      .max(WAYBILL_LIMITS.contacts, t('error.contacts', { max: WAYBILL_LIMITS.contacts })),
    startTime: z.string(),
    stopTime: z.string(),
    // a fence's id as the select holds it; '' for none
    originFenceId: z.string(),
    destinationFenceId: z.string(),
    deviceIds: z.array(z.number()).max(WAYBILL_LIMITS.bind, t('error.bind', { max: WAYBILL_LIMITS.bind })),
  }).superRefine((form, ctx) => {
    const upper = form.upperLimit.trim(), lower = form.lowerLimit.trim();
    if (upper !== '' && lower !== '' && Number(upper) <= Number(lower)) {
      ctx.addIssue({ code: 'custom', path: ['upperLimit'], message: t('error.limits') });
    }
    if (form.startTime && form.stopTime && new Date(form.startTime) > new Date(form.stopTime)) {
      ctx.addIssue({ code: 'custom', path: ['stopTime'], message: t('error.times') });
    }
  });
}
export type WaybillForm = z.infer<ReturnType<typeof waybillFormSchema>>;

/** The form filled from a waybill or a template (devices apart); empty for a new one. */
export function toForm(source: Partial<WaybillTemplate> | null, deviceIds: number[] = []): WaybillForm {
  const s = (v: string | null | undefined) => v ?? '';
  const n = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  return {
    orderNum: s(source?.orderNum), goodsName: s(source?.goodsName), expressNumber: s(source?.expressNumber),
    coolerCode: s(source?.coolerCode), upperLimit: n(source?.upperLimit), lowerLimit: n(source?.lowerLimit),
    senderName: s(source?.senderName), senderPhone: s(source?.senderPhone), senderAddress: s(source?.senderAddress),
    receiverName: s(source?.receiverName), receiverPhone: s(source?.receiverPhone),
    receiverAddress: s(source?.receiverAddress),
    alarmContacts: (source?.alarmContacts ?? []).map((c) => ({ name: c.name, phone: s(c.phone), email: s(c.email) })),
    startTime: toLocalInput(source?.startTime), stopTime: toLocalInput(source?.stopTime),
    originFenceId: n(source?.originFenceId), destinationFenceId: n(source?.destinationFenceId), deviceIds,
  };
}

/** What the server takes: trimmed text, empty as null, numbers for the limits, instants with an offset. */
export function toFields(form: WaybillForm): WaybillFields {
  const s = (v: string) => (v.trim() === '' ? null : v.trim());
  const n = (v: string) => (v.trim() === '' ? null : Number(v));
  return {
    orderNum: s(form.orderNum), goodsName: s(form.goodsName), expressNumber: s(form.expressNumber),
    coolerCode: s(form.coolerCode), upperLimit: n(form.upperLimit), lowerLimit: n(form.lowerLimit),
    senderName: s(form.senderName), senderPhone: s(form.senderPhone), senderAddress: s(form.senderAddress),
    receiverName: s(form.receiverName), receiverPhone: s(form.receiverPhone), receiverAddress: s(form.receiverAddress),
    alarmContacts: form.alarmContacts.map((c) => ({ name: c.name.trim(), phone: s(c.phone), email: s(c.email) })),
    startTime: fromLocalInput(form.startTime), stopTime: fromLocalInput(form.stopTime),
    originFenceId: n(form.originFenceId), destinationFenceId: n(form.destinationFenceId),
  };
}

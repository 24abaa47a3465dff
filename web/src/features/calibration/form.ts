/**
 * The application form (PC and phone): its values, its rules as the server checks them
 * (src/core/calibration/rules.py) in the user's language, the prices of its lines and the body
 * `apply` takes. The server decides; these rules only say so while the user types.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { TFunction } from 'i18next';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';
import {
  type Application,
  CALIBRATION_LIMITS as L,
  EXTRA_POINTS,
  INVOICE_ENTERPRISE,
  INVOICE_PERSONAL,
  type ApplyBody,
  type Price,
} from '@/lib/api/calibration';
import { hasRefusedCharacters } from '@/lib/refusedCharacters';

const PHONE = /^\+?[0-9][0-9 -]*$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const SERIAL = /^[A-Za-z0-9][A-Za-z0-9_./-]{0,49}$/;
const TAX_NUMBER = /^[A-Za-z0-9]{1,20}$/;

export interface DeviceValues {
  /** A console device of the caller's (by id and GUID), or one typed. */
  deviceId: number | null;
  guid: string;
  deviceTypeId: number | null;
  model: string;
  serialNumber: string;
  service: number;
  pointsNote: string;
}

export interface FormValues {
  customerName: string;
  customerAddress: string;
  contactName: string;
  contactPhone: string;
  contactEmail: string;
  returnAddress: string;
  remark: string;
  wantInvoice: boolean;
  invoiceType: number;
  invoiceTitle: string;
  taxNumber: string;
  devices: DeviceValues[];
}

export const emptyDevice = (deviceTypeId: number | null = null): DeviceValues => ({
  deviceId: null, guid: '', deviceTypeId, model: '', serialNumber: '', service: 1, pointsNote: '',
});

export const EMPTY_FORM: FormValues = {
  customerName: '', customerAddress: '', contactName: '', contactPhone: '', contactEmail: '', returnAddress: '',
  remark: '', wantInvoice: false, invoiceType: INVOICE_PERSONAL, invoiceTitle: '', taxNumber: '', devices: [],
};

/** Cents of one device's service, or null when the lab does not offer it for the type. */
export function priceOf(prices: readonly Price[], deviceTypeId: number | null, service: number): number | null {
  return prices.find((p) => p.deviceTypeId === deviceTypeId && p.service === service)?.price ?? null;
}

export function totalOf(prices: readonly Price[], devices: readonly DeviceValues[]): number {
  return devices.reduce((sum, d) => sum + (priceOf(prices, d.deviceTypeId, d.service) ?? 0), 0);
}

/** The edition's currency, as the price list says it. */
export const currencyOf = (prices: readonly Price[]): string => prices[0]?.currency ?? 'CNY';

const length = (v: string) => [...v.trim()].length;

function text(t: TFunction, max: number, required: boolean) {
  return z.string()
    .refine((v) => !required || length(v) > 0, t('error.required'))
    .refine((v) => length(v) <= max, t('error.tooLong', { max }))
    .refine((v) => !hasRefusedCharacters(v.replace(/\n/g, ' ')), t('error.characters'));
}

/**
 * The form's rules. `part` checks only what one phone step holds: its devices, their services
 * or the customer's details. A quick order (`quick`) leaves customer and return address to the lab.
 */
export function applicationSchema(t: TFunction, prices: readonly Price[], part: 'devices' | 'details' | 'all' = 'all',
  quick = false) {
  const device = z.object({
    deviceId: z.number().nullable(),
    guid: z.string(),
    deviceTypeId: z.number().nullable(),
    model: z.string(),
    serialNumber: z.string(),
    service: z.number(),
    pointsNote: z.string(),
  }).superRefine((d, ctx) => {
    const say = (path: keyof DeviceValues, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (d.deviceId === null) {
      if (d.deviceTypeId === null) say('deviceTypeId', t('error.required'));
      if (length(d.model) === 0) say('model', t('error.required'));
      else if (length(d.model) > L.model) say('model', t('error.tooLong', { max: L.model }));
      if (length(d.serialNumber) === 0) say('serialNumber', t('error.required'));
      else if (!SERIAL.test(d.serialNumber.trim())) say('serialNumber', t('error.serial'));
    }
    if (d.service === EXTRA_POINTS && length(d.pointsNote) === 0) say('pointsNote', t('error.pointsNote'));
    if (length(d.pointsNote) > L.pointsNote) say('pointsNote', t('error.tooLong', { max: L.pointsNote }));
    if (d.deviceTypeId !== null && prices.length > 0 && priceOf(prices, d.deviceTypeId, d.service) === null) {
      say('service', t('error.notPriced'));
    }
  });
  const devices = z.array(device)
    .refine((list) => list.length >= 1 && list.length <= L.items, t('error.devicesCount', { max: L.items }))
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((d, index) => {
        const key = d.deviceId !== null ? `id ${d.deviceId}` : `${d.deviceTypeId} ${d.serialNumber.trim().toUpperCase()}`;
        if (d.deviceId === null && length(d.serialNumber) === 0) return;
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [index, 'serialNumber'], message: t('error.twice') });
        seen.add(key);
      });
    });
  const details = z.object({
    customerName: text(t, L.name, !quick),
    customerAddress: text(t, L.address, false),
    contactName: text(t, L.contactName, true),
    contactPhone: z.string().refine((v) => v.trim() === '' || (v.trim().length <= L.phone && PHONE.test(v.trim())),
      t('error.phone')),
    contactEmail: z.string().refine((v) => v.trim() === '' || (v.trim().length <= L.email && EMAIL.test(v.trim())),
      t('error.email')),
    returnAddress: text(t, L.address, !quick),
    remark: text(t, L.remark, false),
    wantInvoice: z.boolean(),
    invoiceType: z.number(),
    invoiceTitle: z.string(),
    taxNumber: z.string(),
  }).superRefine((v, ctx) => {
    const say = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.contactPhone.trim() === '' && v.contactEmail.trim() === '') say('contactPhone', t('error.contactWay'));
    if (!v.wantInvoice) return;
    if (length(v.invoiceTitle) === 0) say('invoiceTitle', t('error.required'));
    else if (length(v.invoiceTitle) > L.name) say('invoiceTitle', t('error.tooLong', { max: L.name }));
    if (v.invoiceType === INVOICE_ENTERPRISE) {
      if (v.taxNumber.trim() === '') say('taxNumber', t('error.required'));
      else if (!TAX_NUMBER.test(v.taxNumber.trim())) say('taxNumber', t('error.taxNumber'));
    }
  });
  if (part === 'devices') return z.object({ devices }).loose();
  if (part === 'details') return details.loose();
  return z.intersection(details, z.object({ devices }));
}

const orNull = (v: string): string | null => (v.trim() === '' ? null : v.trim());

/** What `apply` takes, with the total the customer was shown. */
export function applyBody(v: FormValues, prices: readonly Price[]): ApplyBody {
  return {
    customerName: orNull(v.customerName), contactName: v.contactName.trim(), contactPhone: orNull(v.contactPhone),
    contactEmail: orNull(v.contactEmail), returnAddress: orNull(v.returnAddress),
    customerAddress: orNull(v.customerAddress), remark: orNull(v.remark),
    invoice: v.wantInvoice
      ? { invoiceType: v.invoiceType, invoiceTitle: v.invoiceTitle.trim(),
        taxNumber: v.invoiceType === INVOICE_ENTERPRISE ? orNull(v.taxNumber) : null }
      : null,
    devices: v.devices.map((d) => ({
      service: d.service,
      pointsNote: d.service === EXTRA_POINTS ? orNull(d.pointsNote) : null,
      ...(d.deviceId !== null
        ? { deviceId: d.deviceId, guid: d.guid }
        : { deviceTypeId: d.deviceTypeId ?? undefined, model: d.model.trim(), serialNumber: d.serialNumber.trim() }),
    })),
    totalFee: totalOf(prices, v.devices),
  };
}

/** The example the example pages show, filled as a customer would. */
export const EXAMPLE: FormValues = {
  customerName: 'Shanghai Fresh Logistics Co., Ltd.', customerAddress: '88 Huaihai Road, Shanghai',
  contactName: 'Li Wei', contactPhone: '+86 138 0000 1234', contactEmail: 'li.wei@fresh.example',
  returnAddress: 'Warehouse 3, 12 Gangcheng Road, Shanghai 200137', remark: 'Please call before delivery',
  wantInvoice: true, invoiceType: INVOICE_ENTERPRISE, invoiceTitle: 'Shanghai Fresh Logistics Co., Ltd.',
  taxNumber: '91310000MA1K000000',
  devices: [
    { ...emptyDevice(1), model: 'RC-5', serialNumber: 'EL2301-0042', service: 1 },
    { ...emptyDevice(1), model: 'RC-5', serialNumber: 'EL2301-0043', service: 2, pointsNote: '-20 °C and 8 °C' },
  ],
};

/** The form's resolver: the schema's parts meet in an intersection react-hook-form cannot type. */
export function formResolver(...args: Parameters<typeof applicationSchema>): Resolver<FormValues> {
  return zodResolver(applicationSchema(...args) as never) as unknown as Resolver<FormValues>;
}

/** A draft shown as the application it will be: its lines at today's prices, not applied yet (no number). */
export function draftAsApplication(v: FormValues, prices: readonly Price[]): Application {
  const body = applyBody(v, prices);
  return {
    applicationId: null, applicationNumber: '', status: 0, quickOrder: false, handled: true, currency: currencyOf(prices),
    totalFee: body.totalFee ?? 0, paidFee: 0, refundFee: 0, refundState: 0, inboundTracking: null, outboundTracking: null,
    createdAt: '', updatedAt: '', paidAt: null, cancelledAt: null,
    devices: v.devices.map((d, i) => ({
      index: i + 1, service: d.service, deviceTypeId: d.deviceTypeId ?? 0, model: d.model, serial: d.serialNumber,
      price: priceOf(prices, d.deviceTypeId, d.service) ?? 0, deviceId: d.deviceId, pointsNote: body.devices[i]?.pointsNote ?? null,
    })),
    details: { customerName: body.customerName, contactName: body.contactName, contactPhone: body.contactPhone,
      contactEmail: body.contactEmail, returnAddress: body.returnAddress, customerAddress: body.customerAddress,
      remark: body.remark, invoice: body.invoice },
  };
}

/**
 * The invoice form (spec seed 000 section 5), the same rules the server checks
 * (src/core/ordering/bills.py):
 * - enterprise (invoiceType 2): company name required, at most 50; tax number required, letters
 *   and digits, at most 20; bank and account required, at most 50;
 * - personal (invoiceType 1): the name on the invoice required, at most 30; company, tax number
 *   and bank are hidden and not sent;
 * - recipient required, at most 30; phone required: an 11-digit mainland mobile (^1[3-9]\d{9}$)
 *   domestically, digits only (4 to 20) internationally;
 * - e-mail mode (billMode 2): e-mail required, at most 200, valid; the postal modes (1, 3, 4):
 *   address required, at most 50.
 * Text is trimmed before it is checked and sent.
 */
import { z } from 'zod';
import type { Edition } from './values';
import { BILL_MODES, INVOICE_TYPES, isEmailMode, type Bill, type BillBody, type BillMode, type InvoiceType } from './api/bills';

/** The translator the messages are written with (keys under `rechargeAlerts.invoice`). */
export type T = (key: string, options?: Record<string, unknown>) => string;

export const MAINLAND_MOBILE = /^1[3-9]\d{9}$/;
export const PHONE_DIGITS = /^\d{4,20}$/;
export const TAX_NUMBER = /^[A-Za-z0-9]+$/;
export const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export const LIMITS = {
  companyName: 50,
  taxNumber: 20,
  personalName: 30,
  bankDeposit: 50,
  billUserName: 30,
  billMail: 200,
  billPhone: 20,
  billAddress: 50,
} as const;

export const TEXT_FIELDS = Object.keys(LIMITS) as (keyof typeof LIMITS)[];
export type TextField = (typeof TEXT_FIELDS)[number];

export interface InvoiceForm {
  invoiceType: InvoiceType;
  billMode: BillMode;
  companyName: string;
  taxNumber: string;
  personalName: string;
  bankDeposit: string;
  billUserName: string;
  billMail: string;
  billPhone: string;
  billAddress: string;
  /** Saved as the default invoice (billDefaultStatus 1); an edit keeps the bill's own. */
  isDefault: boolean;
}

/** Defaults of a new invoice: personal, by e-mail. */
export const EMPTY_INVOICE: InvoiceForm = {
  invoiceType: INVOICE_TYPES.personal,
  billMode: BILL_MODES.email,
  companyName: '',
  taxNumber: '',
  personalName: '',
  bankDeposit: '',
  billUserName: '',
  billMail: '',
  billPhone: '',
  billAddress: '',
  isDefault: false,
};

/** The form's values for editing `bill` (or a new invoice without one). */
export function invoiceValues(bill?: Bill | null): InvoiceForm {
  if (!bill) return { ...EMPTY_INVOICE };
  const type = bill.invoiceType === INVOICE_TYPES.enterprise ? INVOICE_TYPES.enterprise : INVOICE_TYPES.personal;
  const mode = (Object.values(BILL_MODES) as number[]).includes(bill.billMode) ? (bill.billMode as BillMode) : BILL_MODES.email;
  return {
    invoiceType: type,
    billMode: mode,
    companyName: bill.companyName ?? '',
    taxNumber: bill.taxNumber ?? '',
    personalName: bill.personalName ?? '',
    bankDeposit: bill.bankDeposit ?? '',
    billUserName: bill.billUserName ?? '',
    billMail: bill.billMail ?? '',
    billPhone: bill.billPhone ?? '',
    billAddress: bill.billAddress ?? '',
    isDefault: bill.billDefaultStatus === 1,
  };
}

/** Which text fields the form shows for an invoice type and a delivery mode. */
export function visibleFields(invoiceType: number, billMode: number): TextField[] {
  const enterprise = invoiceType === INVOICE_TYPES.enterprise;
  return [
    ...(enterprise ? (['companyName', 'taxNumber', 'bankDeposit'] as const) : (['personalName'] as const)),
    'billUserName',
    'billPhone',
    isEmailMode(billMode) ? 'billMail' : 'billAddress',
  ];
}

/** The invoice form's schema for an edition; messages are written with `t` (prefix `invoice.`). */
export function invoiceSchema(t: T, edition: Edition) {
  return z
    .object({
      invoiceType: z.union([z.literal(INVOICE_TYPES.personal), z.literal(INVOICE_TYPES.enterprise)]),
      billMode: z.union([
        z.literal(BILL_MODES.address),
        z.literal(BILL_MODES.email),
        z.literal(BILL_MODES.postal3),
        z.literal(BILL_MODES.postal4),
      ]),
      companyName: z.string(),
      taxNumber: z.string(),
      personalName: z.string(),
      bankDeposit: z.string(),
      billUserName: z.string(),
      billMail: z.string(),
      billPhone: z.string(),
      billAddress: z.string(),
      isDefault: z.boolean(),
    })
    .superRefine((form, ctx) => {
      const problem = (field: TextField, key: string, options?: Record<string, unknown>) =>
        ctx.addIssue({ code: 'custom', path: [field], message: t(`invoice.${key}`, options) });
      for (const field of visibleFields(form.invoiceType, form.billMode)) {
        const value = form[field].trim();
        if (!value) {
          problem(field, `required.${field}`);
        } else if (value.length > LIMITS[field]) {
          problem(field, 'tooLong', { max: LIMITS[field] });
        } else if (field === 'taxNumber' && !TAX_NUMBER.test(value)) {
          problem(field, 'taxNumberChars');
        } else if (field === 'billMail' && !EMAIL.test(value)) {
          problem(field, 'emailInvalid');
        } else if (field === 'billPhone' && edition === 'domestic' && !MAINLAND_MOBILE.test(value)) {
          problem(field, 'phoneMainland');
        } else if (field === 'billPhone' && edition === 'international' && !PHONE_DIGITS.test(value)) {
          problem(field, 'phoneDigits');
        }
      }
    });
}

/** What the server is sent: trimmed, and the fields the type and mode hide left out (null). */
export function toBillBody(form: InvoiceForm): BillBody {
  const shown = new Set(visibleFields(form.invoiceType, form.billMode));
  const body: BillBody = {
    invoiceType: form.invoiceType,
    billMode: form.billMode,
    billDefaultStatus: form.isDefault ? 1 : 0,
  };
  for (const field of TEXT_FIELDS) body[field] = shown.has(field) ? form[field].trim() : null;
  return body;
}

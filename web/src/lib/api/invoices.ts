/**
 * An invoice request as the server sends it (api/orders/invoice_schemas.py MyInvoiceSchema): the
 * customer's invoice list reads it, and the order desk's invoice queue reads it with more. Its PDF,
 * once issued with one, is GET /payment/PayInvoice/download?invoiceId= for its account and the back
 * office alike.
 */
import { z } from 'zod';
import { api } from '@/lib/http/index';

/** status: 1 requested (waiting), 2 issued, 3 rejected. */
export const INVOICE_STATUS = { requested: 1, issued: 2, rejected: 3 } as const;
export const INVOICE_STATUSES = Object.values(INVOICE_STATUS);
/** delivery of an issued one: 1 its PDF is here, 2 sent to the mailbox (or by post). */
export const DELIVERY = { pdf: 1, mailbox: 2 } as const;

/** The bill as it was when the invoice was asked for (PayUserBill's fields). */
export const invoiceBillSchema = z.object({
  billId: z.number().nullable(),
  invoiceType: z.number(),
  billMode: z.number(),
  companyName: z.string().nullable(),
  taxNumber: z.string().nullable(),
  personalName: z.string().nullable(),
  bankDeposit: z.string().nullable(),
  billUserName: z.string().nullable(),
  billMail: z.string().nullable(),
  billPhone: z.string().nullable(),
  billAddress: z.string().nullable(),
});
export type InvoiceBill = z.infer<typeof invoiceBillSchema>;

export const invoiceSchema = z.object({
  invoiceId: z.number(),
  status: z.number(),
  currency: z.string(),
  /** Cents: the sum of its orders'. */
  amount: z.number(),
  orders: z.array(z.object({ orderId: z.number(), orderCode: z.string(), amount: z.number() })),
  bill: invoiceBillSchema,
  requestTime: z.string(),
  /** Three working days after it was asked for. */
  dueTime: z.string(),
  overdue: z.boolean(),
  decidedTime: z.string().nullable(),
  delivery: z.number().nullable(),
  invoiceNumber: z.string().nullable(),
  fileName: z.string().nullable(),
  fileSize: z.number().nullable(),
  rejectReason: z.string().nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** Who the invoice is made out to: the company, or the person. */
export function invoiceHolder(bill: InvoiceBill): string {
  return (bill.invoiceType === 2 ? bill.companyName : bill.personalName) ?? bill.billUserName ?? '';
}

/** The issued invoice's PDF, saved by the caller. */
export async function downloadInvoice(invoiceId: number) {
  return api.download('/payment/PayInvoice/download', { params: { invoiceId } });
}

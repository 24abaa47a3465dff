/**
 * The order desk's invoices (issue 19): GET /payment/PayOrder/selectOrderInvoice (every account's
 * requests, the oldest first, overdue ones marked), POST /payment/PayInvoice/issue (multipart: the
 * PDF), POST /payment/PayOrder/updateInvoice (sent to the mailbox, no PDF here), POST
 * /payment/PayInvoice/reject (with a reason) and POST /payment/PayOrder/exportInvoice (XLSX).
 * Decisions are silent: the dialog shows a refusal itself.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { invoiceSchema } from '@/lib/api/invoices';
import { pageOf } from '@/lib/api/page';
import { api } from '@/lib/http/index';

/** The server's bounds (src/core/ordering/invoice_model.py). */
export const INVOICE_LIMITS = { account: 200, reason: 200, invoiceNumber: 40, pdfBytes: 5 * 1024 * 1024 } as const;

export const deskInvoiceSchema = invoiceSchema.extend({
  accountId: z.number(),
  userName: z.string(),
  /** Asked for by an order placed with an invoice, as it was paid. */
  automatic: z.boolean(),
  decidedBy: z.string().nullable(),
});
export type DeskInvoice = z.infer<typeof deskInvoiceSchema>;
export const deskInvoicePageSchema = pageOf(deskInvoiceSchema);

export interface InvoiceFilter {
  status?: number;
  account?: string;
  /** true: waiting past three working days; false: the others. */
  overdue?: boolean;
}

/** The filter as the server takes it: trimmed, empty fields left out. */
export function invoiceFilterBody(filter: InvoiceFilter): Record<string, string | number | boolean> {
  const body: Record<string, string | number | boolean> = {};
  const account = filter.account?.trim();
  if (account) body.account = account;
  if (filter.status !== undefined) body.status = filter.status;
  if (filter.overdue !== undefined) body.overdue = filter.overdue;
  return body;
}

export const invoiceKeys = {
  all: ['orderdesk', 'invoices'] as const,
  page: (filter: InvoiceFilter, start: number, pageSize: number) => ['orderdesk', 'invoices', filter, start, pageSize] as const,
};

export async function fetchInvoiceQueue(filter: InvoiceFilter, start: number, pageSize: number) {
  return deskInvoicePageSchema.parse(await api.get('/payment/PayOrder/selectOrderInvoice', {
    params: { start, pageSize, ...invoiceFilterBody(filter) },
  }));
}

export async function exportInvoices(filter: InvoiceFilter) {
  return api.download('/payment/PayOrder/exportInvoice', { method: 'POST', body: invoiceFilterBody(filter) });
}

/** Issues a waiting request with its PDF. */
export async function issueInvoice(invoiceId: number, file: File, invoiceNumber?: string) {
  const form = new FormData();
  form.append('invoiceId', String(invoiceId));
  if (invoiceNumber) form.append('invoiceNumber', invoiceNumber);
  form.append('file', file);
  return deskInvoiceSchema.parse(await api.post('/payment/PayInvoice/issue', form, { silent: true }));
}

/** Issues a waiting request sent outside the console: to the bill's mailbox, or by post. */
export async function markInvoiceSent(invoiceId: number, invoiceNumber?: string) {
  return deskInvoiceSchema.parse(await api.post('/payment/PayOrder/updateInvoice',
    { invoiceId, ...(invoiceNumber ? { invoiceNumber } : {}) }, { silent: true }));
}

export async function rejectInvoice(invoiceId: number, reason: string) {
  return deskInvoiceSchema.parse(await api.post('/payment/PayInvoice/reject', { invoiceId, reason }, { silent: true }));
}

export function useInvoiceQueue(filter: InvoiceFilter, start: number, pageSize: number) {
  return useQuery({
    queryKey: invoiceKeys.page(filter, start, pageSize),
    queryFn: () => fetchInvoiceQueue(filter, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

export type InvoiceDecision =
  | { kind: 'pdf'; invoiceId: number; file: File; invoiceNumber?: string }
  | { kind: 'mailbox'; invoiceId: number; invoiceNumber?: string }
  | { kind: 'reject'; invoiceId: number; reason: string };

/** Issue, mark sent or reject; the queue (and the orders, now invoiced) is read again either way. */
export function useDecideInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: InvoiceDecision) => {
      if (decision.kind === 'pdf') return issueInvoice(decision.invoiceId, decision.file, decision.invoiceNumber);
      if (decision.kind === 'mailbox') return markInvoiceSent(decision.invoiceId, decision.invoiceNumber);
      return rejectInvoice(decision.invoiceId, decision.reason);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['orderdesk'] }),
  });
}

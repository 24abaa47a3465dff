/**
 * The customer's invoices (issue 19): GET /payment/PayInvoice/invoiceableOrders (the paid orders an
 * invoice may be asked for now, with what is still paid of each), POST .../applyBatchInvoice (one
 * invoice on some of them, with a saved bill) and GET .../myInvoices (the requests, newest first:
 * waiting, issued with a PDF to download, or rejected with the reason).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { invoiceSchema, type Invoice } from '@/lib/api/invoices';
import { pageOf } from '@/lib/api/page';
import { api } from '@/lib/http';
import { rechargeKeys } from './levels';

/** At most this many orders in one invoice (src/core/ordering/invoice_model.py). */
export const MAX_ORDERS_PER_INVOICE = 100;

export const invoiceableOrderSchema = z.object({
  orderId: z.number(),
  orderCode: z.string(),
  orderDescription: z.string(),
  payStatus: z.number(),
  payTime: z.string().nullable(),
  currency: z.string(),
  /** Cents an invoice would cover: charged less refunded. */
  amount: z.number(),
});
export type InvoiceableOrder = z.infer<typeof invoiceableOrderSchema>;
export const myInvoicePageSchema = pageOf(invoiceSchema);

/** Under `rechargeKeys.all`: a payment (which may ask for an invoice by itself) reads them again. */
export const invoiceKeys = {
  all: [...rechargeKeys.all, 'invoices'] as const,
  invoiceable: [...rechargeKeys.all, 'invoices', 'invoiceable'] as const,
  page: (start: number, pageSize: number) => [...rechargeKeys.all, 'invoices', start, pageSize] as const,
};

export async function fetchInvoiceable(): Promise<InvoiceableOrder[]> {
  return z.array(invoiceableOrderSchema).parse(await api.get('/payment/PayInvoice/invoiceableOrders'));
}

export async function fetchMyInvoices(start: number, pageSize: number) {
  return myInvoicePageSchema.parse(await api.get('/payment/PayInvoice/myInvoices', { params: { start, pageSize } }));
}

/** Asks for one invoice; a refusal is left to the dialog (silent). */
export async function applyInvoice(orderIds: readonly number[], billId: number): Promise<Invoice> {
  return invoiceSchema.parse(await api.post('/payment/PayInvoice/applyBatchInvoice', { orderIds, billId }, { silent: true }));
}

export function useInvoiceable(enabled = true) {
  return useQuery({ queryKey: invoiceKeys.invoiceable, queryFn: fetchInvoiceable, enabled });
}

export function useMyInvoices(start: number, pageSize: number) {
  return useQuery({
    queryKey: invoiceKeys.page(start, pageSize),
    queryFn: () => fetchMyInvoices(start, pageSize),
    placeholderData: keepPreviousData,
  });
}

/** After a request the orders (now wanting an invoice) and the invoices are read again. */
export function useApplyInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderIds, billId }: { orderIds: readonly number[]; billId: number }) => applyInvoice(orderIds, billId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rechargeKeys.all }),
  });
}

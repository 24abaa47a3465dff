/**
 * Invoice details ("bills") the customer keeps for orders (api-contract section 5):
 * POST /payment/PayUserBill/selectListByDomain (the default first), POST .../insert,
 * PUT .../update, DELETE .../delete?billId=. Saves are silent: the invoice form shows its own
 * failures (field errors under their fields, anything else as one message).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http';

/** invoiceType: 1 personal, 2 enterprise. */
export const INVOICE_TYPES = { personal: 1, enterprise: 2 } as const;
export type InvoiceType = (typeof INVOICE_TYPES)[keyof typeof INVOICE_TYPES];

/** billMode: 2 e-mail, 1 postal address; 3 and 4 are older postal modes, treated like 1. */
export const BILL_MODES = { address: 1, email: 2, postal3: 3, postal4: 4 } as const;
export type BillMode = (typeof BILL_MODES)[keyof typeof BILL_MODES];

export function isEmailMode(mode: number): boolean {
  return mode === BILL_MODES.email;
}

export const billSchema = z.object({
  billId: z.number(),
  /** 1: the default bill (only one is). */
  billDefaultStatus: z.number(),
  invoiceType: z.number(),
  billMode: z.number(),
  companyName: z.string().nullable(),
  taxNumber: z.string().nullable(),
  personalName: z.string().nullable(),
  bankDeposit: z.string().nullable(),
  /** The recipient. */
  billUserName: z.string(),
  billMail: z.string().nullable(),
  billPhone: z.string(),
  billAddress: z.string().nullable(),
});
export type Bill = z.infer<typeof billSchema>;

/** What insert takes (update takes the same with billId). Fields the type and mode hide are dropped by the server. */
export interface BillBody {
  invoiceType: InvoiceType;
  billMode: BillMode;
  companyName?: string | null;
  taxNumber?: string | null;
  personalName?: string | null;
  bankDeposit?: string | null;
  billUserName?: string | null;
  billMail?: string | null;
  billPhone?: string | null;
  billAddress?: string | null;
  billDefaultStatus?: 0 | 1;
}

export interface BillUpdate extends BillBody {
  billId: number;
}

export async function fetchBills(): Promise<Bill[]> {
  return z.array(billSchema).parse(await api.post('/payment/PayUserBill/selectListByDomain', {}));
}

/** Adds invoice details; the first become the default. Failures are left to the form (silent). */
export async function insertBill(body: BillBody): Promise<Bill> {
  return billSchema.parse(await api.post('/payment/PayUserBill/insert', body, { silent: true }));
}

/** Changes one of the caller's bills. Failures are left to the form (silent). */
export async function updateBill(body: BillUpdate): Promise<Bill> {
  return billSchema.parse(await api.put('/payment/PayUserBill/update', body, { silent: true }));
}

export async function deleteBill(billId: number): Promise<void> {
  await api.delete('/payment/PayUserBill/delete', { params: { billId } });
}

export const billKeys = {
  all: ['payment', 'bills'] as const,
};

/** The caller's bills, asked only while `enabled` (an invoice option that is switched on). */
export function useBills(enabled = true) {
  return useQuery({ queryKey: billKeys.all, queryFn: fetchBills, enabled });
}

/** Insert (no billId) or update (with one); the bill list is asked again afterwards. */
export function useSaveBill() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BillBody | BillUpdate) => ('billId' in body ? updateBill(body) : insertBill(body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billKeys.all }),
  });
}

export function useDeleteBill() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBill,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billKeys.all }),
  });
}

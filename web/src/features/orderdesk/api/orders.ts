/**
 * The order back office (/operation/recharge): POST /payment/PayOrder/selectOrderList (every
 * account's orders), exportOrder (XLSX of the filtered list), GET selectBackOrderDetail (one order
 * whole, its refunds among it) and POST handlingOrder (manual handling: settled on the provider's
 * answer only). The refunds' calls are in ./refunds.ts; their shapes are here, as the dossier's.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { orderDetailSchema, orderLineSchema, PAY_STATUS } from '@/lib/api/orders';
import { pageOf } from '@/lib/api/page';
import { api } from '@/lib/http/index';

/** The server's bounds (src/entrypoints/api/orders/schemas.py). */
export const ORDER_LIMITS = { code: 20, account: 200, device: 50, reason: 200 } as const;
export const PAY_STATUSES = Object.values(PAY_STATUS);
export const INVOICE_STATUSES = [0, 1] as const;
/** WeChat, Alipay, PayPal, Google Pay, card, recharge card, offline contract, bank transfer (core/shared/edition.py PayType). */
export const PAY_TYPES = [1, 2, 20, 30, 40, 50, 60, 61] as const;
export const SORT_FIELDS = ['gmtCreate', 'payTime', 'orderFee'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** An order as its customer reads it, with the back office's part: payer, references, what may be done. */
export const deskOrderSchema = orderDetailSchema.extend({
  payer: z.object({ accountId: z.number(), userName: z.string(), phone: z.string().nullable(), email: z.string().nullable() }),
  paymentReference: z.string().nullable(),
  settlementReference: z.string().nullable(),
  handleable: z.boolean(),
  refundable: z.boolean(),
});
export type DeskOrder = z.infer<typeof deskOrderSchema>;
export const deskPageSchema = pageOf(deskOrderSchema);

/** 1 awaiting a second operator's approval, 2 processing, 3 succeeded, 4 failed (refused by the provider: all
 * given back), 5 rejected by the second operator. */
export const REFUND_STATUS = { awaitingApproval: 1, processing: 2, succeeded: 3, failed: 4, rejected: 5 } as const;

/** What a refund takes (or would take) from one device, and what the device keeps. */
export const takeBackSchema = z.object({
  deviceId: z.number(),
  /** As ordered. */
  deviceName: z.string().nullable(),
  /** Level names; they differ when a full refund puts the device back as it was before the order. */
  levelBefore: z.string().nullable(),
  levelAfter: z.string().nullable(),
  expireTimeBefore: z.string().nullable(),
  expireTimeAfter: z.string().nullable(),
  /** Months of service taken back (a fraction of one possible). */
  monthsTaken: z.number(),
  smsTaken: z.number(),
  voiceTaken: z.number(),
  /** What the refund's share would have taken but the device has used: not taken back. */
  smsUsed: z.number(),
  voiceUsed: z.number(),
  /** Put back as it was before the order. */
  restored: z.boolean(),
});
export type TakeBack = z.infer<typeof takeBackSchema>;

/** What refunding `amount` cents would do now. */
export const refundQuoteSchema = z.object({
  orderId: z.number(),
  amount: z.number(),
  /** Cents that may still be refunded: paid, less refunded and awaiting approval. */
  refundable: z.number(),
  currency: z.string(),
  /** Above the approval amount: a second operator must approve it. */
  needsApproval: z.boolean(),
  takeBacks: z.array(takeBackSchema),
});
export type RefundQuote = z.infer<typeof refundQuoteSchema>;

export const refundSchema = z.object({
  refundId: z.number(),
  orderId: z.number(),
  orderCode: z.string(),
  /** Ours, as the provider knows it. */
  refundCode: z.string(),
  /** Cents of `currency`. */
  amount: z.number(),
  currency: z.string(),
  reason: z.string(),
  /** One of REFUND_STATUS. */
  status: z.number(),
  /** User names (null: the account is gone). */
  requestedBy: z.string().nullable(),
  requestedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
  providerReference: z.string().nullable(),
  error: z.string().nullable(),
  finishedAt: z.string().nullable(),
  takeBacks: z.array(takeBackSchema),
  /** The order as it is now: its state and the cents paid back so far. */
  payStatus: z.number(),
  refundedFee: z.number(),
});
export type Refund = z.infer<typeof refundSchema>;

export const dossierSchema = deskOrderSchema.extend({
  lines: z.array(orderLineSchema.extend({
    guid: z.string().nullable(),
    beforeLevelName: z.string().nullable(),
    beforeExpireTime: z.string().nullable(),
    afterExpireTime: z.string().nullable(),
    recomputed: z.boolean(),
  })),
  history: z.array(z.object({
    at: z.string(),
    kind: z.string(),
    payStatus: z.number(),
    accountId: z.number().nullable(),
    userName: z.string().nullable(),
    reason: z.string().nullable(),
    detail: z.record(z.string(), z.unknown()).nullable(),
  })),
  notifications: z.array(z.object({
    provider: z.string(),
    receivedAt: z.string(),
    verdict: z.string(),
    amount: z.number().nullable(),
    body: z.string(),
  })),
  /** Every refund asked for, oldest first. */
  refunds: z.array(refundSchema),
});
export type OrderDossier = z.infer<typeof dossierSchema>;

export interface OrderFilter {
  orderCode?: string;
  account?: string;
  device?: string;
  payType?: number;
  payStatus?: number;
  invoiceStatus?: number;
  /** Dates (YYYY-MM-DD), inclusive, in the browser's time zone. */
  createdFrom?: string;
  createdTo?: string;
  paidFrom?: string;
  paidTo?: string;
}
export interface OrderSort {
  sortField: SortField;
  sortOrder: 'asc' | 'desc';
}

const startOf = (day: string) => new Date(`${day}T00:00:00`).toISOString();
const endOf = (day: string) => {
  const next = new Date(`${day}T00:00:00`);
  next.setDate(next.getDate() + 1);
  return next.toISOString();
};

/** The filter as the server takes it: trimmed, empty fields left out, days as [start, next midnight). */
export function filterBody(filter: OrderFilter): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of ['orderCode', 'account', 'device'] as const) {
    const text = filter[key]?.trim();
    if (text) body[key] = text;
  }
  for (const key of ['payType', 'payStatus', 'invoiceStatus'] as const) {
    if (filter[key] !== undefined) body[key] = filter[key];
  }
  if (filter.createdFrom) body.createdFrom = startOf(filter.createdFrom);
  if (filter.createdTo) body.createdUntil = endOf(filter.createdTo);
  if (filter.paidFrom) body.paidFrom = startOf(filter.paidFrom);
  if (filter.paidTo) body.paidUntil = endOf(filter.paidTo);
  return body;
}

export const orderKeys = {
  all: ['orderdesk'] as const,
  page: (filter: OrderFilter, sort: OrderSort, start: number, pageSize: number) =>
    ['orderdesk', 'page', filter, sort, start, pageSize] as const,
  dossier: (orderId: number) => ['orderdesk', 'dossier', orderId] as const,
  awaitingRefunds: ['orderdesk', 'awaitingRefunds'] as const,
  refundPreview: (orderId: number, amount: number | null) => ['orderdesk', 'refundPreview', orderId, amount] as const,
};

export async function fetchOrders(filter: OrderFilter, sort: OrderSort, start: number, pageSize: number) {
  return deskPageSchema.parse(await api.post('/payment/PayOrder/selectOrderList', {
    start, pageSize, ...sort, ...filterBody(filter),
  }));
}

export async function exportOrders(filter: OrderFilter) {
  return api.download('/payment/PayOrder/exportOrder', { method: 'POST', body: filterBody(filter) });
}

export async function fetchDossier(orderId: number) {
  return dossierSchema.parse(await api.get('/payment/PayOrder/selectBackOrderDetail', { params: { orderId } }));
}

/** Manual handling; a refusal (the provider's answer) is shown by the dialog, not as a toast. */
export async function handleOrder(orderId: number, reason: string) {
  return deskOrderSchema.parse(await api.post('/payment/PayOrder/handlingOrder', { orderId, reason }, { silent: true }));
}

export function useOrders(filter: OrderFilter, sort: OrderSort, start: number, pageSize: number) {
  return useQuery({
    queryKey: orderKeys.page(filter, sort, start, pageSize),
    queryFn: () => fetchOrders(filter, sort, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useDossier(orderId: number | null) {
  return useQuery({
    queryKey: orderKeys.dossier(orderId ?? 0),
    queryFn: () => fetchDossier(orderId!),
    enabled: orderId !== null,
  });
}

/** After a handling, settled or refused, the list and the order are read again. */
export function useHandleOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, reason }: { orderId: number; reason: string }) => handleOrder(orderId, reason),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  });
}

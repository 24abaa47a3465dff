/**
 * The caller's orders, newest first (api-contract section 5): POST
 * /payment/PayOrder/selectMyOrderList with paging and an optional payStatus. Amounts are cents.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http';
import { rechargeKeys } from './levels';
import { PAY_STATUS } from './orders';

export const myOrderSchema = z.object({
  orderId: z.number(),
  orderCode: z.string(),
  /** Cents the order charges. */
  orderFee: z.number(),
  /** Cents paid; null until paid. */
  payFee: z.number().nullable(),
  /** 1 unpaid, 2 paid, 3 refunded, 4 closed. */
  payStatus: z.number(),
  /** 1: an invoice was asked for. */
  applyFlag: z.number(),
  /** 1: the invoice was issued. */
  invoiceStatus: z.number(),
  /** ISO 8601 with the caller's offset. */
  gmtCreate: z.string(),
  payTime: z.string().nullable(),
  payType: z.number(),
  /** The level bought, or the SMS and voice packages. */
  orderDescription: z.string(),
  /** Devices the order is for. */
  deviceCount: z.number(),
});
export type MyOrder = z.infer<typeof myOrderSchema>;

export const myOrderPageSchema = z.object({
  start: z.number(),
  pageSize: z.number(),
  totalCount: z.number(),
  data: z.array(myOrderSchema),
});
export type MyOrderPage = z.infer<typeof myOrderPageSchema>;

export type PayStatus = (typeof PAY_STATUS)[keyof typeof PAY_STATUS];
export const PAY_STATUSES: readonly PayStatus[] = Object.values(PAY_STATUS);

export interface MyOrderQuery {
  /** 1-based. */
  start: number;
  pageSize: number;
  /** Absent: every state. */
  payStatus?: PayStatus;
}

export async function fetchMyOrders(query: MyOrderQuery): Promise<MyOrderPage> {
  return myOrderPageSchema.parse(await api.post('/payment/PayOrder/selectMyOrderList', query));
}

/**
 * Under `rechargeKeys.all`: what a payment invalidates (the paying drawer once paid, the recharge
 * flow's refresh after an SMS/voice order), so the list shows a new order as paid.
 */
export const myOrderKeys = {
  all: [...rechargeKeys.all, 'myOrders'] as const,
  page: (query: MyOrderQuery) => [...rechargeKeys.all, 'myOrders', query] as const,
};

/** One page of the caller's orders; the previous page stays on screen while the next loads. */
export function useMyOrders(query: MyOrderQuery) {
  return useQuery({
    queryKey: myOrderKeys.page(query),
    queryFn: () => fetchMyOrders(query),
    placeholderData: keepPreviousData,
  });
}

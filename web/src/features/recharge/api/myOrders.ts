/**
 * The caller's orders, newest first (api-contract section 5): POST
 * /payment/PayOrder/selectMyOrderList with paging and an optional payStatus. Amounts are cents, in
 * the order's own currency. An unpaid order's details (.../selectOrderDetail), its cancellation
 * (.../cancelOrder) and its payment again (.../continuePay: the same QR code, client secret or
 * approve page while it lasts) are each one call on its orderId.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { myOrderSchema, orderDetailSchema, type OrderDetail } from '@/lib/api/orders';
import { pageOf } from '@/lib/api/page';
import { api } from '@/lib/http';
import { rechargeKeys } from './levels';
import { orderPlacedSchema, orderStatusSchema, PAY_STATUS, type OrderStatus } from './orders';

export {
  CLOSE_REASONS, myOrderSchema, orderDetailSchema, orderDeviceSchema, orderLineSchema,
  type MyOrder, type OrderDetail, type OrderDevice, type OrderLine,
} from '@/lib/api/orders';

export const resumedPaymentSchema = orderPlacedSchema.extend({
  payType: z.number(),
  orderDescription: z.string(),
  currency: z.string(),
  expireTime: z.string().nullable(),
});
export type ResumedPayment = z.infer<typeof resumedPaymentSchema>;

export async function fetchOrderDetail(orderId: number): Promise<OrderDetail> {
  return orderDetailSchema.parse(await api.post('/payment/PayOrder/selectOrderDetail', { orderId }));
}

/** Withdraws the payment at the provider and closes the order; the server's refusal is shown by the HTTP client. */
export async function cancelOrder(orderId: number): Promise<OrderStatus> {
  return orderStatusSchema.parse(await api.post('/payment/PayOrder/cancelOrder', { orderId }));
}

/** What the payer needs to pay an unpaid order again; refused (and closed) once it has expired. */
export async function continuePay(orderId: number): Promise<ResumedPayment> {
  return resumedPaymentSchema.parse(await api.post('/payment/PayOrder/continuePay', { orderId }));
}

export const myOrderPageSchema = pageOf(myOrderSchema);
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
  detail: (orderId: number) => [...rechargeKeys.all, 'myOrders', 'detail', orderId] as const,
};

/** One order's details with a line per device; nothing is asked while `orderId` is null. */
export function useOrderDetail(orderId: number | null) {
  return useQuery({
    queryKey: myOrderKeys.detail(orderId ?? 0),
    queryFn: () => fetchOrderDetail(orderId!),
    enabled: orderId !== null,
  });
}

/** One page of the caller's orders; the previous page stays on screen while the next loads. */
export function useMyOrders(query: MyOrderQuery) {
  return useQuery({
    queryKey: myOrderKeys.page(query),
    queryFn: () => fetchMyOrders(query),
    placeholderData: keepPreviousData,
  });
}

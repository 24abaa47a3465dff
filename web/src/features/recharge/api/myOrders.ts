/**
 * The caller's orders, newest first (api-contract section 5): POST
 * /payment/PayOrder/selectMyOrderList with paging and an optional payStatus. Amounts are cents, in
 * the order's own currency. An unpaid order's details (.../selectOrderDetail), its cancellation
 * (.../cancelOrder) and its payment again (.../continuePay: the same QR code, client secret or
 * approve page while it lasts) are each one call on its orderId.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { pageOf } from '@/lib/api/page';
import { api } from '@/lib/http';
import { rechargeKeys } from './levels';
import { orderPlacedSchema, orderStatusSchema, PAY_STATUS, type OrderStatus } from './orders';

/** A device of an order, named as it was when the order was placed (null: unknown then). */
export const orderDeviceSchema = z.object({ deviceId: z.number(), deviceName: z.string().nullable() });
export type OrderDevice = z.infer<typeof orderDeviceSchema>;

/** Why a closed order closed. */
export const CLOSE_REASONS = ['superseded', 'cancelled', 'expired', 'paymentMismatch'] as const;

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
  /** ISO 4217 of orderFee and payFee. */
  currency: z.string(),
  /** The first few devices of the order, by name. */
  devices: z.array(orderDeviceSchema),
  /** While unpaid: when its QR code or payment page stops working. */
  expireTime: z.string().nullable(),
  /** A closed order's reason: one of CLOSE_REASONS. */
  closeReason: z.string().nullable(),
});
export type MyOrder = z.infer<typeof myOrderSchema>;

export const orderLineSchema = orderDeviceSchema.extend({
  /** Cents this device pays. */
  fee: z.number(),
  /** Service orders: the level bought. */
  levelName: z.string().nullable(),
  /** Months bought (1200 or more: lifelong); 0 for SMS and voice. */
  timeLength: z.number(),
  presentationMonth: z.number(),
  smsCount: z.number(),
  voiceCount: z.number(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const orderDetailSchema = myOrderSchema.extend({
  closeTime: z.string().nullable(),
  refundTime: z.string().nullable(),
  countryCode: z.string().nullable(),
  lines: z.array(orderLineSchema),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

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

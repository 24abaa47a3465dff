/**
 * An order as the server sends it (api/payment/schemas.py MyOrderSchema, OrderDetailSchema): the
 * customer's order list and detail read it, and the back office's order desk reads it with more.
 */
import { z } from 'zod';

/**
 * payStatus: 1 unpaid, 2 paid, 5 partially refunded (some of it paid back), 3 refunded (all of
 * it), 4 closed (unpaid past its expiry). Listed in that order, which filters follow.
 */
export const PAY_STATUS = { unpaid: 1, paid: 2, partiallyRefunded: 5, refunded: 3, closed: 4 } as const;

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
  /** One of PAY_STATUS. */
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
  /** The coupon it carries, and the cents it took off (orderFee is what is charged). */
  couponCode: z.string().nullable(),
  couponFee: z.number(),
  /** Cents paid back so far (partially refunded or refunded). */
  refundFee: z.number(),
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

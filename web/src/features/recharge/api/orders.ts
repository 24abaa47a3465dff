/**
 * Orders of the recharge drawers (api-contract section 5): a service level for one device (POST
 * /payment/PayOrder/createServiceOrder) or a batch of one type (.../createBatchServiceOrder), SMS and
 * voice packages for one device (.../createSmsOrder) or several of one country code
 * (.../createBatchSmsOrder); the order's state (GET /payment/PayOrder/get?pk=), polled every 3 s
 * until it is paid; a wallet payment (POST /payment/PayOrder/confirmPay).
 *
 * The client's figures (totalFee, serviceFee, smsFee, voiceFee) are only checked by the server,
 * which refuses (409, code 1101) any that is not its own. Failures of the order calls show the
 * server's message, else "Your request is in error. Please try again later" (the HTTP client's
 * default); failures of the polling are silent (spec seed 000 section 8).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { PAY_STATUS } from '@/lib/api/orders';
import { api } from '@/lib/http';
import { PAY_TYPES, type PayType } from '../values';
import { deviceQuoteSchema } from './levels';

export { PAY_STATUS } from '@/lib/api/orders';

/** An order is asked for once the buyer's choices have stood still this long (spec seed 000 section 9). */
export const ORDER_DEBOUNCE_MS = 500;

/** How often an unpaid order's state is asked (spec seed 000 section 9). */
export const ORDER_POLL_MS = 3_000;

export const orderPlacedSchema = z.object({
  orderId: z.number(),
  orderCode: z.string(),
  /** Cents the order charges. */
  totalFee: z.number(),
  /** ISO 4217 of totalFee. */
  currency: z.string(),
  /** WeChat Pay and Alipay: the content of the QR code. */
  payQrCode: z.string().optional(),
  /** Stripe wallets (Google Pay, the payment-request button): the PaymentIntent's client secret. */
  clientSecret: z.string().optional(),
  /**
   * PayPal: the page the payer approves on. Offline, in the providers' local sandbox, Stripe
   * wallets carry one too: the sandbox's payer page standing in for the wallet sheet.
   */
  approveUrl: z.string().optional(),
  /** A service order's promise: what each device will have once paid (as the quote says it). */
  levelChanges: z.array(deviceQuoteSchema).optional(),
});
export type OrderPlaced = z.infer<typeof orderPlacedSchema>;

/** Why a payer's attempt did not pay an order; a reason this client does not know reads as failed. */
export const PAYMENT_FAILURES = ['declined', 'cancelled', 'failed'] as const;
export type PaymentFailureReason = (typeof PAYMENT_FAILURES)[number];

/** An unpaid order's latest failed attempt (issue 14: a failed or cancelled payment is said). */
export const paymentFailureSchema = z.object({
  reason: z.string().transform((reason): PaymentFailureReason =>
    (PAYMENT_FAILURES as readonly string[]).includes(reason) ? (reason as PaymentFailureReason) : 'failed',
  ),
  /** Failed attempts so far: a failure with a higher number than one shown is a new one. */
  number: z.number(),
  /** A retry needs a new order (PayPal's is void); otherwise the same payment is tried again. */
  newOrder: z.boolean(),
});
export type PaymentFailure = z.infer<typeof paymentFailureSchema>;

export const orderStatusSchema = z.object({
  orderId: z.number(),
  orderCode: z.string(),
  /** 1 unpaid, 2 paid, 3 refunded, 4 closed. */
  payStatus: z.number(),
  /** 1: an invoice was asked for. */
  applyFlag: z.number(),
  totalFee: z.number(),
  lastFailure: paymentFailureSchema.optional(),
});
export type OrderStatus = z.infer<typeof orderStatusSchema>;

export const payStatusSchema = z.object({ payStatus: z.number() });

/** What every order takes. */
export interface OrderBase {
  /** An invoice is wanted: billId names one of the caller's bills. */
  applyFlag: boolean;
  billId?: number | null;
  payType: PayType;
  /** Cents the whole order charges before a coupon (the sum of what each device pays). */
  totalFee: number;
  /** One coupon (issue 18): the order charges totalFee - couponFee and holds it while unpaid. */
  couponCode?: string | null;
  /** Cents the coupon takes off, as activity/PayCoupon/checkCoupon said. */
  couponFee?: number | null;
}

/** A service level: the year option as listed, with its activity. */
export interface ServiceOrderFields extends OrderBase {
  levelId: number;
  levelYearId: number;
  /** The year option's listed serviceFee (cents). */
  serviceFee: number;
  servicePackageId: number;
  activityId?: number | null;
  presentationMonth?: number | null;
}

export interface ServiceOrderBody extends ServiceOrderFields {
  deviceId: number;
  simIccid?: string | null;
  /**
   * Renew automatically (issue 19): the payment also authorises the provider's recurring charges
   * and the level is charged again a day before the service runs out. One device and a time-limited
   * option only (409, code 1152 otherwise); the batch call takes none.
   */
  autoRenew?: boolean;
}

export interface BatchServiceOrderBody extends ServiceOrderFields {
  deviceIdList: number[];
}

/** SMS and/or voice packages (at least one) of one country code. */
export interface SmsOrderFields extends OrderBase {
  countryCode: string;
  smsPackageId?: number | null;
  smsCount: number;
  /** The SMS package's listed fee (0 without one). */
  smsFee: number;
  voicePackageId?: number | null;
  voiceCount: number;
  /** The voice package's listed fee (0 without one). */
  voiceFee: number;
}

export interface SmsOrderBody extends SmsOrderFields {
  deviceId: number;
  simIccid?: string | null;
}

export interface BatchSmsOrderBody extends SmsOrderFields {
  deviceIdList: number[];
}

/** Leaves out the bill of an order without an invoice (the server takes none then). */
function withoutEmptyBill<T extends OrderBase>(body: T): T {
  if (body.applyFlag && body.billId != null) return body;
  const { billId: _billId, ...rest } = body;
  return rest as T;
}

async function place(path: string, body: OrderBase): Promise<OrderPlaced> {
  return orderPlacedSchema.parse(await api.post(`/payment/PayOrder/${path}`, withoutEmptyBill(body)));
}

export const createServiceOrder = (body: ServiceOrderBody) => place('createServiceOrder', body);
export const createBatchServiceOrder = (body: BatchServiceOrderBody) => place('createBatchServiceOrder', body);
export const createSmsOrder = (body: SmsOrderBody) => place('createSmsOrder', body);
export const createBatchSmsOrder = (body: BatchSmsOrderBody) => place('createBatchSmsOrder', body);

/** The order's state; failures are silent (the next poll asks again). */
export async function fetchOrder(orderId: number): Promise<OrderStatus> {
  return orderStatusSchema.parse(await api.get('/payment/PayOrder/get', { params: { pk: orderId }, silent: true }));
}

export interface ConfirmPayBody {
  orderId: number;
  payType: typeof PAY_TYPES.googlePay | typeof PAY_TYPES.paymentRequest;
  /** The payment method id the wallet returned. */
  paymentPlatformId: string;
  /** Cents: the order's fee. */
  payFee: number;
}

/** Charges the wallet's payment method; the order is settled at once when it succeeds. */
export async function confirmPay(body: ConfirmPayBody): Promise<{ payStatus: number }> {
  return payStatusSchema.parse(await api.post('/payment/PayOrder/confirmPay', body));
}

/**
 * Whether the answer holds what the payer needs for `payType`: a QR code for WeChat Pay and
 * Alipay, an approve page for PayPal, a client secret (or the sandbox's payer page) for wallets.
 */
export function isPayable(order: OrderPlaced, payType: PayType): boolean {
  switch (payType) {
    case PAY_TYPES.wechat:
    case PAY_TYPES.alipay:
      return Boolean(order.payQrCode);
    case PAY_TYPES.paypal:
      return Boolean(order.approveUrl);
    default:
      return Boolean(order.clientSecret || order.approveUrl);
  }
}

/** The states a payment ends in: paid, refunded (in part or all) since, closed. */
const TERMINAL: readonly number[] = [PAY_STATUS.paid, PAY_STATUS.partiallyRefunded, PAY_STATUS.refunded, PAY_STATUS.closed];

export function isTerminal(payStatus: number | undefined): boolean {
  return payStatus !== undefined && TERMINAL.includes(payStatus);
}

export const orderKeys = {
  all: ['payment', 'order'] as const,
  status: (orderId: number) => ['payment', 'order', orderId] as const,
};

/**
 * The order's state, asked every 3 s from the moment it exists until it is paid (or refunded,
 * or closed), `enabled` turns false, or the component goes. Failures are ignored: the next poll
 * asks again.
 */
export function useOrderPolling(orderId: number | null | undefined, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: orderKeys.status(orderId ?? 0),
    queryFn: () => fetchOrder(orderId!),
    enabled: enabled && orderId != null,
    refetchInterval: (query) => (isTerminal(query.state.data?.payStatus) ? false : ORDER_POLL_MS),
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    retry: false,
    gcTime: 0,
    staleTime: 0,
  });
}

export function useConfirmPay() {
  return useMutation({ mutationFn: confirmPay });
}

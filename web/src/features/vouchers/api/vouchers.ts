/**
 * Coupons and prepaid recharge cards (issue 18; spec seed 001 activity/PayCoupon and
 * activity/PayCardSecret). Operators (order.servicePackage): selectCouponList, createCoupon, PUT
 * updateCoupon, selectCouponCodeList, exportCoupon (XLSX); selectCardSecretList, createCardSecretFile
 * (the new cards with their secrets, once, as XLSX), PUT updateCardSecret, selectCardList,
 * exportCardSecret; GET selectReferences (levels and activities). Customers: checkCoupon (what a
 * coupon takes off an order), selectMyCoupons, redeemCard, selectMyCards.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { devicePageSchema, deviceSchema, NAME_MAX as DEVICE_NAME_MAX } from '@/lib/api/devices';
import { pageOf } from '@/lib/api/page';
import { api } from '@/lib/http/index';


/** The server's bounds (src/core/vouchers/model.py). */
export const VOUCHER_LIMITS = { prefix: 2, remark: 200, count: 10_000, months: 1200, percent: 99 } as const;
/** useStatus: 1 unused, 2 reserved by an unpaid order (coupons), 3 used. */
export const USE_STATUS = { unused: 1, reserved: 2, used: 3 } as const;
/** couponType: 1 an amount off (cents), 2 a percentage off. */
export const COUPON_TYPE = { amount: 1, percent: 2 } as const;
/** Business codes of the vouchers (src/core/vouchers/errors.py). */
export const VOUCHER_CODES = {
  couponNotFound: 2041, couponNotValid: 2042, couponUsed: 2043, couponReserved: 2044, couponCurrency: 2045,
  couponTooLarge: 2046, cardRefused: 2051, cardLocked: 2052, cardUsed: 2053, cardNotValid: 2054,
  cardNotForDevice: 2055,
} as const;

const batchFields = {
  id: z.number(),
  prefix: z.string(),
  count: z.number(),
  startTime: z.string(),
  endTime: z.string(),
  activityId: z.number().nullable(),
  activityName: z.string().nullable(),
  remark: z.string(),
  /** 1 enabled, 0 disabled. */
  status: z.number(),
  createTime: z.string().nullable(),
  unusedCount: z.number(),
  usedCount: z.number(),
};

export const couponBatchSchema = z.object({
  ...batchFields,
  couponType: z.number(),
  /** Cents off, or percent off. */
  amount: z.number(),
  currency: z.string(),
  reservedCount: z.number(),
});
export type CouponBatch = z.infer<typeof couponBatchSchema>;
export const couponBatchPageSchema = pageOf(couponBatchSchema);

export const cardBatchSchema = z.object({
  ...batchFields,
  levelId: z.number(),
  levelName: z.string().nullable(),
  timeLength: z.number(),
});
export type CardBatch = z.infer<typeof cardBatchSchema>;
export const cardBatchPageSchema = pageOf(cardBatchSchema);

export const couponSchema = z.object({
  couponCode: z.string(),
  batchId: z.number(),
  couponType: z.number(),
  amount: z.number(),
  currency: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  useStatus: z.number(),
  userName: z.string().nullable(),
  orderCode: z.string().nullable(),
  reserveTime: z.string().nullable(),
  useTime: z.string().nullable(),
});
export type Coupon = z.infer<typeof couponSchema>;
export const couponPageSchema = pageOf(couponSchema);

export const cardSchema = z.object({
  cardNumber: z.string(),
  batchId: z.number(),
  levelId: z.number(),
  levelName: z.string().nullable(),
  timeLength: z.number(),
  startTime: z.string(),
  endTime: z.string(),
  useStatus: z.number(),
  userName: z.string().nullable(),
  deviceId: z.number().nullable(),
  deviceName: z.string().nullable(),
  orderCode: z.string().nullable(),
  useTime: z.string().nullable(),
});
export type Card = z.infer<typeof cardSchema>;
export const cardPageSchema = pageOf(cardSchema);

export const couponQuoteSchema = z.object({
  couponCode: z.string(),
  couponType: z.number(),
  amount: z.number(),
  /** Cents before the coupon. */
  totalFee: z.number(),
  /** Cents the coupon takes off. */
  couponFee: z.number(),
  /** Cents charged. */
  payFee: z.number(),
  currency: z.string(),
});
export type CouponQuote = z.infer<typeof couponQuoteSchema>;

export const redeemedSchema = z.object({
  orderId: z.number(),
  orderCode: z.string(),
  levelName: z.string(),
  timeLength: z.number(),
  serviceExpiredDate: z.string().nullable(),
});
export type Redeemed = z.infer<typeof redeemedSchema>;

const namedSchema = z.object({ id: z.number(), name: z.string() });
export const referencesSchema = z.object({ levels: z.array(namedSchema), activities: z.array(namedSchema) });
export type References = z.infer<typeof referencesSchema>;

export const voucherKeys = {
  all: ['vouchers'] as const,
  couponBatches: (start: number, pageSize: number) => ['vouchers', 'couponBatches', start, pageSize] as const,
  coupons: (batchId: number, start: number) => ['vouchers', 'coupons', batchId, start] as const,
  cardBatches: (start: number, pageSize: number) => ['vouchers', 'cardBatches', start, pageSize] as const,
  cards: (batchId: number, start: number) => ['vouchers', 'cards', batchId, start] as const,
  references: ['vouchers', 'references'] as const,
  mine: (kind: 'coupons' | 'cards', start: number) => ['vouchers', 'mine', kind, start] as const,
};

// --- the customer ---------------------------------------------------------------------------------

/** What a coupon takes off an order of `totalFee` cents; refusals (2041-2046) are the caller's to show. */
export async function checkCoupon(couponCode: string, totalFee: number): Promise<CouponQuote> {
  return couponQuoteSchema.parse(await api.post('/payment/activity/PayCoupon/checkCoupon', { couponCode, totalFee }, { silent: true }));
}

const myDevicePageSchema = devicePageSchema.extend({
  data: z.array(deviceSchema.pick({ deviceId: true, deviceName: true, deviceGuid: true })),
});

/** A device of the caller's to redeem a card for (POST /device/Device/page). */
export type MyDevice = z.infer<typeof myDevicePageSchema>['data'][number];

/** Matches shown at once in the device picker; typing part of a name asks the server for the rest. */
export const DEVICE_MATCHES = 20;
export { DEVICE_NAME_MAX };

/** The caller's devices whose name holds `name` (all of them when empty), the first DEVICE_MATCHES. */
export async function fetchMyDevices(name = '') {
  return myDevicePageSchema.parse(await api.post('/device/Device/page', {
    start: 1, pageSize: DEVICE_MATCHES, ...(name ? { deviceName: name } : {}) })).data;
}

export interface RedeemBody {
  deviceId: number;
  cardNumber: string;
  secret: string;
}

/** Redeems a card for a device; refusals are the caller's to show (on the form). */
export async function redeemCard(body: RedeemBody): Promise<Redeemed> {
  return redeemedSchema.parse(await api.post('/payment/activity/PayCardSecret/redeemCard', body, { silent: true }));
}

export function useMyCoupons(start: number, pageSize: number) {
  return useQuery({
    queryKey: voucherKeys.mine('coupons', start),
    queryFn: async () => couponPageSchema.parse(await api.post('/payment/activity/PayCoupon/selectMyCoupons', { start, pageSize })),
    placeholderData: keepPreviousData,
  });
}

export function useMyCards(start: number, pageSize: number) {
  return useQuery({
    queryKey: voucherKeys.mine('cards', start),
    queryFn: async () => cardPageSchema.parse(await api.post('/payment/activity/PayCardSecret/selectMyCards', { start, pageSize })),
    placeholderData: keepPreviousData,
  });
}

// --- operators -------------------------------------------------------------------------------------

export function useCouponBatches(start: number, pageSize: number) {
  return useQuery({
    queryKey: voucherKeys.couponBatches(start, pageSize),
    queryFn: async () => couponBatchPageSchema.parse(await api.post('/payment/activity/PayCoupon/selectCouponList', { start, pageSize })),
    placeholderData: keepPreviousData,
  });
}

export function useCoupons(batchId: number | null, start: number) {
  return useQuery({
    queryKey: voucherKeys.coupons(batchId ?? 0, start),
    queryFn: async () =>
      couponPageSchema.parse(await api.post('/payment/activity/PayCoupon/selectCouponCodeList', { batchId, start, pageSize: 10 })),
    enabled: batchId !== null,
    placeholderData: keepPreviousData,
  });
}

export function useCardBatches(start: number, pageSize: number) {
  return useQuery({
    queryKey: voucherKeys.cardBatches(start, pageSize),
    queryFn: async () => cardBatchPageSchema.parse(await api.post('/payment/activity/PayCardSecret/selectCardSecretList', { start, pageSize })),
    placeholderData: keepPreviousData,
  });
}

export function useCards(batchId: number | null, start: number) {
  return useQuery({
    queryKey: voucherKeys.cards(batchId ?? 0, start),
    queryFn: async () => cardPageSchema.parse(await api.post('/payment/activity/PayCardSecret/selectCardList', { batchId, start, pageSize: 10 })),
    enabled: batchId !== null,
    placeholderData: keepPreviousData,
  });
}

export function useReferences() {
  return useQuery({
    queryKey: voucherKeys.references,
    queryFn: async () => referencesSchema.parse(await api.get('/payment/activity/PayCoupon/selectReferences')),
  });
}

export interface CouponBatchBody {
  prefix: string;
  count: number;
  couponType: number;
  amount: number;
  startTime: string;
  endTime: string;
  activityId: number | null;
  remark: string;
}

export async function createCoupons(body: CouponBatchBody): Promise<CouponBatch> {
  return couponBatchSchema.parse(await api.post('/payment/activity/PayCoupon/createCoupon', body, { silent: true }));
}

export interface CardBatchBody {
  prefix: string;
  count: number;
  levelId: number;
  timeLength: number;
  startTime: string;
  endTime: string;
  activityId: number | null;
  remark: string;
}

/** Issues the cards; the answer is the XLSX of their numbers and secrets (this once). */
export function createCardsFile(body: CardBatchBody) {
  return api.download('/payment/activity/PayCardSecret/createCardSecretFile', { method: 'POST', body, silent: true });
}

export async function setCouponBatch(id: number, status: number): Promise<CouponBatch> {
  return couponBatchSchema.parse(await api.put('/payment/activity/PayCoupon/updateCoupon', { id, status }));
}

export async function setCardBatch(id: number, status: number): Promise<CardBatch> {
  return cardBatchSchema.parse(await api.put('/payment/activity/PayCardSecret/updateCardSecret', { id, status }));
}

export function exportCoupons(id: number) {
  return api.download('/payment/activity/PayCoupon/exportCoupon', { method: 'POST', body: { id } });
}

export function exportCards(id: number) {
  return api.download('/payment/activity/PayCardSecret/exportCardSecret', { method: 'POST', body: { id } });
}

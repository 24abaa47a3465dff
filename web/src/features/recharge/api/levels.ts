/**
 * What the recharge drawers show before an order (api-contract section 5): the device's service
 * (GET /payment/PayServicePackages/selectDeviceDepositInfo), every service item (GET
 * /payment/PayServiceItem/selectAllServiceItemByDevice), the levels of its type priced for it (GET
 * /payment/PayServicePackages/selectLevelList, empty unless nodeType is 1), a level's year options
 * (GET /payment/PayServiceLevelYear/selectListByDomain) and what each device of a batch pays (POST
 * /payment/PayOrder/selectBatchQuote). Money is integer cents; the server prices everything.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { deviceSchema } from '@/lib/api/devices';
import { api } from '@/lib/http';

/** Only devices of this node type have service levels to buy. */
export const LEVEL_NODE_TYPE = 1;

/**
 * A device as the recharge drawers read it: the device row's fields that say what may be bought
 * (jcIccidStatus 1: it also pays the data fee; agreementStatus 1: a level change needs the
 * auto-renewal cancelled first; access 1: nothing may be ordered for it).
 */
export const depositInfoSchema = deviceSchema.pick({
  deviceId: true,
  deviceName: true,
  deviceGuid: true,
  typeId: true,
  deviceTypeName: true,
  levelId: true,
  levelName: true,
  serviceExpiredDate: true,
  smsCount: true,
  voiceCount: true,
  countryCode: true,
  simIccid: true,
  jcIccidStatus: true,
  agreementStatus: true,
  nodeType: true,
  access: true,
});
export type DepositInfo = z.infer<typeof depositInfoSchema>;

export const serviceItemSchema = z.object({
  itemCode: z.string(),
  itemName: z.string(),
  itemSupplement: z.string().nullable(),
  itemLabel: z.string().nullable(),
  /** The name without its parenthesised part. */
  itemTitle: z.string(),
  /** The parenthesised part of the name, for the four items that have one; null otherwise. */
  itemDetail: z.string().nullable(),
});
export type ServiceItem = z.infer<typeof serviceItemSchema>;

export const BUTTON_KINDS = ['onOrder', 'buyTraffic', 'renew', 'buy'] as const;
export type ButtonKind = (typeof BUTTON_KINDS)[number];

export const levelSchema = z.object({
  levelId: z.number(),
  levelName: z.string(),
  levelDescribe: z.string().nullable(),
  /** URL of the level's icon (PNG) an operator uploaded, if any. */
  levelIcon: z.string().nullish(),
  packageId: z.number(),
  /** The headline year option (the level's first). */
  levelYearId: z.number().nullable(),
  /** Months of the headline option. */
  timeLength: z.number().nullable(),
  /** Cents, listed, of the headline option. */
  serviceFee: z.number(),
  /** Cents; charged to devices with an active SIM data plan only. */
  dataFee: z.number(),
  /** Percent, 100 none. */
  discount: z.number(),
  /** The activity in force for this caller, if any. */
  activityId: z.number().nullable(),
  activityStartTime: z.string().nullable(),
  activityEndTime: z.string().nullable(),
  activityDiscount: z.number().nullable(),
  /** Bonus months of the activity. */
  presentationMonth: z.number(),
  /** Cents one device pays for the headline option, after the effective discount. */
  price: z.number(),
  /** onOrder (free, cannot be ordered), buyTraffic (only a data fee), renew (the current level) or buy. */
  buttonKind: z.enum(BUTTON_KINDS),
  current: z.boolean(),
  /** Shows "free service". */
  free: z.boolean(),
  /** ISO 4217 of the fees and the price. */
  currency: z.string(),
  /** The discount charged, as shown ('8折', '20% OFF'); null without one. */
  discountBadge: z.string().nullable(),
  itemLevelRelList: z.array(z.object({ itemCode: z.string(), itemName: z.string() })),
});
export type Level = z.infer<typeof levelSchema>;

export const yearOptionSchema = z.object({
  id: z.number(),
  /** Cents, listed: what an order's serviceFee must say. */
  serviceFee: z.number(),
  dataFee: z.number(),
  activityId: z.number().nullable(),
  presentationMonth: z.number(),
  /** Months; 1200 or more is lifelong. */
  timeLength: z.number(),
  discount: z.number(),
  activityDiscount: z.number().nullable(),
  /** Cents one device pays. */
  price: z.number(),
  lifelong: z.boolean(),
  recommended: z.boolean(),
  /** ISO 4217 of the fees and the price. */
  currency: z.string(),
  /** The discount charged, as shown ('8折', '20% OFF'); null without one. */
  discountBadge: z.string().nullable(),
});
export type YearOption = z.infer<typeof yearOptionSchema>;

export const yearOptionListSchema = z.object({ levelYearList: z.array(yearOptionSchema) });

/** How a device's result comes about (core/pricing/level_change.py on the server). */
export const CHANGE_KINDS = ['extended', 'converted', 'startsNow', 'fromFree', 'lifelong'] as const;

export const deviceQuoteSchema = z.object({
  deviceId: z.number(),
  /** Cents this device pays. */
  totalFee: z.number(),
  /** ISO 4217 of totalFee. */
  currency: z.string(),
  /** Its service now; the date is `YYYY-MM-DD` in the caller's time zone, 2099-12-31 lifelong. */
  currentLevelId: z.number().nullable(),
  currentLevelName: z.string().nullable(),
  currentExpiredDate: z.string().nullable(),
  /**
   * extended (the same level), converted (another level: remainingDays of the current level become
   * convertedDays of the new one), startsNow (nothing left), fromFree (the remainingDays of a free
   * level are worth nothing), lifelong.
   */
  changeKind: z.enum(CHANGE_KINDS),
  remainingDays: z.number(),
  convertedDays: z.number(),
  /** Months bought, and the activity's bonus months. */
  timeLength: z.number(),
  presentationMonth: z.number(),
  /** What it will have once paid. */
  levelId: z.number(),
  levelName: z.string(),
  serviceExpiredDate: z.string(),
  lifelong: z.boolean(),
});
export type DeviceQuote = z.infer<typeof deviceQuoteSchema>;

export async function fetchDepositInfo(deviceId: number): Promise<DepositInfo> {
  const data = await api.get('/payment/PayServicePackages/selectDeviceDepositInfo', { params: { deviceId } });
  return depositInfoSchema.parse(data);
}

export async function fetchServiceItems(deviceId: number): Promise<ServiceItem[]> {
  const data = await api.get('/payment/PayServiceItem/selectAllServiceItemByDevice', { params: { deviceId } });
  return z.array(serviceItemSchema).parse(data);
}

export async function fetchLevels(deviceId: number): Promise<Level[]> {
  const data = await api.get('/payment/PayServicePackages/selectLevelList', { params: { deviceId } });
  return z.array(levelSchema).parse(data);
}

export interface YearOptionQuery {
  deviceId: number;
  levelId: number;
  packageId: number;
}

export async function fetchYearOptions(query: YearOptionQuery): Promise<YearOption[]> {
  const data = await api.get('/payment/PayServiceLevelYear/selectListByDomain', { params: { ...query } });
  return yearOptionListSchema.parse(data).levelYearList;
}

export interface BatchQuoteQuery {
  deviceIdList: number[];
  levelId: number;
  levelYearId: number;
  servicePackageId: number;
}

/** Failures are silent: the paying drawer says them where the result goes (LevelChangeResult). */
export async function fetchBatchQuote(query: BatchQuoteQuery): Promise<DeviceQuote[]> {
  return z.array(deviceQuoteSchema).parse(await api.post('/payment/PayOrder/selectBatchQuote', query, { silent: true }));
}

export const rechargeKeys = {
  all: ['recharge'] as const,
  deposit: (deviceId: number) => ['recharge', 'deposit', deviceId] as const,
  items: (deviceId: number) => ['recharge', 'items', deviceId] as const,
  levels: (deviceId: number) => ['recharge', 'levels', deviceId] as const,
  years: (query: YearOptionQuery) => ['recharge', 'years', query] as const,
  quote: (query: BatchQuoteQuery) => ['recharge', 'quote', query] as const,
};

/** The service of each chosen device, in the order given (the drawer's header or batch table). */
export function useDepositInfos(deviceIds: readonly number[], enabled = true) {
  return useQueries({
    queries: deviceIds.map((deviceId) => ({
      queryKey: rechargeKeys.deposit(deviceId),
      queryFn: () => fetchDepositInfo(deviceId),
      enabled,
      staleTime: 0,
    })),
  });
}

/** The feature rows under the level cards; asked only for a device with levels. */
export function useServiceItems(deviceId: number | undefined, enabled = true) {
  return useQuery({
    queryKey: rechargeKeys.items(deviceId ?? 0),
    queryFn: () => fetchServiceItems(deviceId!),
    enabled: enabled && deviceId !== undefined,
  });
}

/** The levels of the device's type, priced for it; asked only when its nodeType is 1. */
export function useLevels(deviceId: number | undefined, enabled = true) {
  return useQuery({
    queryKey: rechargeKeys.levels(deviceId ?? 0),
    queryFn: () => fetchLevels(deviceId!),
    enabled: enabled && deviceId !== undefined,
    staleTime: 0,
  });
}

export function useYearOptions(query: YearOptionQuery | null) {
  return useQuery({
    queryKey: rechargeKeys.years(query ?? { deviceId: 0, levelId: 0, packageId: 0 }),
    queryFn: () => fetchYearOptions(query!),
    enabled: query !== null,
    staleTime: 0,
  });
}

/**
 * What each device pays for one year option and what it will have once paid (one device or a
 * batch; never an earlier option's answer: it is money).
 */
export function useBatchQuote(query: BatchQuoteQuery | null) {
  return useQuery({
    queryKey: rechargeKeys.quote(query ?? { deviceIdList: [], levelId: 0, levelYearId: 0, servicePackageId: 0 }),
    queryFn: () => fetchBatchQuote(query!),
    enabled: query !== null,
    staleTime: 0,
  });
}

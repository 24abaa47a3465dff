/** Service expiry: the after-login reminder and the devices of the expired-service dialog. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { accessSchema } from '@/lib/access';
import { api } from '@/lib/http/index';

/** 1 expired, 2 expires within 30 days, 3 within 90 days, 4 every device with an expiry date. */
export const EXPIRED_FLAGS = [1, 2, 3, 4] as const;
export type ExpiredFlag = (typeof EXPIRED_FLAGS)[number];
export const DEFAULT_EXPIRED_FLAG: ExpiredFlag = 2;
export const EXPIRED_PAGE_SIZE = 5;

export function isExpiredFlag(value: unknown): value is ExpiredFlag {
  return typeof value === 'number' && (EXPIRED_FLAGS as readonly number[]).includes(value);
}

export const expiredInfoSchema = z.object({
  id: z.number(),
  pushMessages: z.string().nullable(),
  /** 1 some device has expired, 2 some expire within 30 days, 0 nothing to say. */
  expiredFlag: z.number(),
});
export type ExpiredInfo = z.infer<typeof expiredInfoSchema>;

export const expiredDeviceSchema = z.object({
  id: z.number(),
  typeId: z.number(),
  deviceTypeName: z.string(),
  deviceName: z.string(),
  deviceGuid: z.string(),
  serviceExpiredDate: z.string(),
  /** The caller's access: 1 read only (not for a batch recharge), 2 read and change. */
  access: accessSchema,
});
export type ExpiredDevice = z.infer<typeof expiredDeviceSchema>;

export const expiredPageSchema = z.object({ list: z.array(expiredDeviceSchema), total: z.number() });
export type ExpiredPage = z.infer<typeof expiredPageSchema>;

export interface ExpiredQuery {
  accountId: number;
  expiredFlag: ExpiredFlag;
  /** 1-based page number. */
  start: number;
  pageSize: number;
}

export async function fetchExpiredInfo(): Promise<ExpiredInfo> {
  const data = await api.get('/device/DeviceExpireInfo/getExpiredInfoByType', { params: { type: 1 }, silent: true });
  return expiredInfoSchema.parse(data);
}

export async function fetchExpiredDevices(query: ExpiredQuery, silent = false): Promise<ExpiredPage> {
  const data = await api.get('/device/Device/getExpiredServiceDevice', { params: { ...query }, silent });
  return expiredPageSchema.parse(data);
}

export const expiredKeys = {
  info: (accountId: number) => ['expiry', 'info', accountId] as const,
  devices: (query: ExpiredQuery) =>
    ['expiry', 'devices', query.accountId, query.expiredFlag, query.start, query.pageSize] as const,
};

/** The after-login reminder; fetched once per session view. */
export function useExpiredInfo(accountId: number) {
  return useQuery({ queryKey: expiredKeys.info(accountId), queryFn: fetchExpiredInfo, staleTime: Infinity });
}

/** One page of the caller's devices with the given expiry state; the previous page stays while the next loads. */
export function useExpiredDevices(query: ExpiredQuery, enabled = true) {
  return useQuery({
    queryKey: expiredKeys.devices(query),
    queryFn: () => fetchExpiredDevices(query),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** How many devices are in an expiry state (the `total` of a one-row page). */
export function useExpiredCount(accountId: number, expiredFlag: ExpiredFlag) {
  return useQuery({
    queryKey: expiredKeys.devices({ accountId, expiredFlag, start: 1, pageSize: 1 }),
    queryFn: () => fetchExpiredDevices({ accountId, expiredFlag, start: 1, pageSize: 1 }, true),
    select: (page) => page.total,
  });
}

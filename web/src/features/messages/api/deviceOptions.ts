/**
 * The devices the message centre can be narrowed to: POST /device/Device/page searched by name
 * (part of it, any case). Only what the filter needs is read; the server wants `device.list`.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { devicePageSchema, deviceSchema } from '@/lib/api/devices';
import { api } from '@/lib/http';

export const DEVICE_ROUTE = 'device.list';
/** Devices offered at a time; typing narrows them. */
export const DEVICE_OPTIONS = 20;
/** The server's longest device name filter. */
export const DEVICE_SEARCH_MAX = 50;

export const deviceOptionSchema = deviceSchema.pick({ deviceId: true, deviceName: true, deviceGuid: true });
export type DeviceOption = z.infer<typeof deviceOptionSchema>;

export const optionPageSchema = devicePageSchema.extend({ data: z.array(deviceOptionSchema) });

export async function fetchDeviceOptions(search: string): Promise<DeviceOption[]> {
  const name = [...search.trim()].slice(0, DEVICE_SEARCH_MAX).join('');
  const body = { start: 1, pageSize: DEVICE_OPTIONS, ...(name ? { deviceName: name } : {}) };
  return optionPageSchema.parse(await api.post('/device/Device/page', body, { silent: true })).data;
}

/** The caller's devices whose name holds `search`. */
export function useDeviceOptions(accountId: number, search: string, enabled: boolean) {
  return useQuery({
    queryKey: ['messages', 'devices', accountId, search.trim()] as const,
    queryFn: () => fetchDeviceOptions(search),
    placeholderData: keepPreviousData,
    enabled,
  });
}

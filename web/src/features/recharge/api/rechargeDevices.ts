/**
 * The devices the recharge page offers: POST /device/Device/page like the device list
 * (devices/api/devices.ts), but of every scene. That module's DeviceQuery names a scene (the list's
 * tabs) while the server's is optional, so the page sends the same body without one, checked by the
 * same schema and cached under the device lists' key (a payment's ['devices'] refresh reaches it).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/http';
import { deviceKeys, devicePageSchema, type DevicePage, type DeviceQuery } from '@/features/devices/api/devices';

/** The device list's filters without a scene. */
export type RechargeDeviceQuery = Omit<DeviceQuery, 'scene'>;

export async function fetchRechargeDevices(query: RechargeDeviceQuery): Promise<DevicePage> {
  return devicePageSchema.parse(await api.post('/device/Device/page', query));
}

export const rechargeDeviceKeys = {
  page: (query: RechargeDeviceQuery) => [...deviceKeys.lists(), 'allScenes', query] as const,
};

/** One page of the caller's devices of every scene, asked while `enabled` (the caller may list devices). */
export function useRechargeDevices(query: RechargeDeviceQuery, enabled = true) {
  return useQuery({
    queryKey: rechargeDeviceKeys.page(query),
    queryFn: () => fetchRechargeDevices(query),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * POST /device/DeviceAlarm/page filtered by one device: the alarm records of the detail page.
 * The server needs message.list:query for it (the message centre's permission).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http';

export const ALARM_PERMISSION = { route: 'message.list', action: 'query' } as const;

export const alarmSchema = z.object({
  id: z.number(),
  deviceId: z.number(),
  deviceName: z.string(),
  deviceGuid: z.string(),
  ruleId: z.number().nullable(),
  /** t temperature (Celsius), h humidity (% RH). */
  probe: z.string(),
  /** 1 above the upper limit, 2 below the lower. */
  kind: z.number(),
  limitValue: z.number(),
  /** The reading that raised the alarm. */
  value: z.number(),
  /** The furthest from the limit. */
  extremeValue: z.number(),
  /** Highest graded level alerted, 0 none yet. */
  level: z.number(),
  startedAt: z.string(),
  raisedAt: z.string(),
  /** Null while the value is still outside. */
  endedAt: z.string().nullable(),
  /** 0 untreated, 1 treated. */
  state: z.number(),
  /** 1 approve, 2 refuse, 3 defer. */
  handling: z.number().nullable(),
  result: z.string().nullable(),
  handledAt: z.string().nullable(),
  /** User name of who handled it. */
  handledBy: z.string().nullable().optional(),
});
export type Alarm = z.infer<typeof alarmSchema>;

export const alarmPageSchema = z.object({
  start: z.number(),
  pageSize: z.number(),
  totalCount: z.number(),
  data: z.array(alarmSchema),
});
export type AlarmPage = z.infer<typeof alarmPageSchema>;

export interface DeviceAlarmQuery {
  deviceId: number;
  start: number;
  pageSize: number;
  /** 0 untreated, 1 treated; absent: both. */
  state?: 0 | 1;
}

export async function fetchDeviceAlarms(query: DeviceAlarmQuery): Promise<AlarmPage> {
  return alarmPageSchema.parse(await api.post('/device/DeviceAlarm/page', query));
}

export const alarmKeys = {
  page: (query: DeviceAlarmQuery) => ['devices', 'alarms', query] as const,
};

/** One page of a device's alarms, newest first. */
export function useDeviceAlarms(query: DeviceAlarmQuery, enabled = true) {
  return useQuery({
    queryKey: alarmKeys.page(query),
    queryFn: () => fetchDeviceAlarms(query),
    placeholderData: keepPreviousData,
    enabled,
  });
}

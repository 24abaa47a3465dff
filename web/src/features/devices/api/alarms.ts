/**
 * POST /device/DeviceAlarm/page filtered by one device: the alarm records of the detail page.
 * The server needs message.list:query for it (the message centre's permission); the alarm itself
 * (schema and type) is the message centre's.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchAlarmPage, MESSAGE_ROUTE, type AlarmPage, type AlarmState } from '@/lib/api/alarms';

export const ALARM_PERMISSION = { route: MESSAGE_ROUTE, action: 'query' } as const;

export interface DeviceAlarmQuery {
  deviceId: number;
  start: number;
  pageSize: number;
  /** 0 untreated, 1 treated, 2 deferred; absent: all. */
  state?: AlarmState;
}

export function fetchDeviceAlarms(query: DeviceAlarmQuery): Promise<AlarmPage> {
  return fetchAlarmPage(query);
}

/** Handling an alarm in the message centre refreshes these too (see useDealAlarm). */
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

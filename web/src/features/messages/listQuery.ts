/**
 * The message centre's filters live in its address, so a link (a device's alarm records, the
 * header badge) opens it filtered and the tab bar reopens it as it was:
 * `?state=0|1|2&deviceId=&device=&from=YYYY-MM-DD&to=YYYY-MM-DD&start=&pageSize=`.
 * `device` is only the chosen device's name, kept so the filter can show it.
 */
import type { AlarmQuery, AlarmState } from '@/lib/api/alarms';
import { DEFAULT_PAGE_SIZE, pageSizeOf } from '@/lib/paging';

export const STATE_FILTERS = ['all', 'untreated', 'deferred', 'treated'] as const;
export type StateFilter = (typeof STATE_FILTERS)[number];

const MAX_ID = 2_147_483_647;
const DEVICE_LABEL_MAX = 50;

export interface MessageFilters {
  state: StateFilter;
  deviceId: number | null;
  /** The chosen device's name, for the filter's label. */
  deviceName: string;
  /** First day raised, `YYYY-MM-DD` (inclusive), or empty. */
  from: string;
  /** Last day raised, `YYYY-MM-DD` (inclusive), or empty. */
  to: string;
  start: number;
  pageSize: number;
}

export const NO_FILTERS: MessageFilters = {
  state: 'all',
  deviceId: null,
  deviceName: '',
  from: '',
  to: '',
  start: 1,
  pageSize: DEFAULT_PAGE_SIZE,
};

const STATE_OF: Readonly<Record<StateFilter, AlarmState | undefined>> = { all: undefined, untreated: 0, deferred: 2, treated: 1 };
const STATE_PARAM: Readonly<Record<StateFilter, string | null>> = { all: null, untreated: '0', deferred: '2', treated: '1' };

/** A real calendar day written `YYYY-MM-DD`. */
export function isDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1970 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The day after a `YYYY-MM-DD` day. */
export function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

function positive(value: string | null, max: number): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= max ? n : null;
}

/** The filters an address holds; anything unknown or out of range reads as no filter. */
export function readFilters(params: URLSearchParams): MessageFilters {
  const state = params.get('state');
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const pageSize = Number(params.get('pageSize'));
  const deviceId = positive(params.get('deviceId'), MAX_ID);
  return {
    state: STATE_FILTERS.find((filter) => STATE_PARAM[filter] === state) ?? 'all',
    deviceId,
    deviceName: deviceId === null ? '' : [...(params.get('device') ?? '').trim()].slice(0, DEVICE_LABEL_MAX).join(''),
    from: isDay(from) ? from : '',
    to: isDay(to) ? to : '',
    start: positive(params.get('start'), 1_000_000) ?? 1,
    pageSize: pageSizeOf(pageSize),
  };
}

/** The address of some filters: only what differs from no filter, so the plain list has a plain path. */
export function writeFilters(filters: MessageFilters): URLSearchParams {
  const params = new URLSearchParams();
  const state = STATE_PARAM[filters.state];
  if (state !== null) params.set('state', state);
  if (filters.deviceId !== null) {
    params.set('deviceId', String(filters.deviceId));
    if (filters.deviceName) params.set('device', filters.deviceName);
  }
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.start > 1) params.set('start', String(filters.start));
  if (filters.pageSize !== DEFAULT_PAGE_SIZE) params.set('pageSize', String(filters.pageSize));
  return params;
}

/** The message centre's address with these filters. */
export function messagesHref(filters: Partial<MessageFilters> = {}): string {
  const query = writeFilters({ ...NO_FILTERS, ...filters }).toString();
  return query ? `/message/list?${query}` : '/message/list';
}

/** A range whose first day comes after its last matches nothing: the page says so instead of asking. */
export function rangeIsValid(filters: Pick<MessageFilters, 'from' | 'to'>): boolean {
  return !filters.from || !filters.to || filters.from <= filters.to;
}

/**
 * The body of POST /device/DeviceAlarm/page. Days are whole days of the caller's time zone: the
 * times go without an offset, and the server reads them in the X-Time-Zone the client sends.
 */
export function alarmQuery(filters: MessageFilters): AlarmQuery {
  const state = STATE_OF[filters.state];
  return {
    start: filters.start,
    pageSize: filters.pageSize,
    ...(state !== undefined ? { state } : {}),
    ...(filters.deviceId !== null ? { deviceId: filters.deviceId } : {}),
    ...(filters.from ? { startTime: `${filters.from}T00:00:00` } : {}),
    ...(filters.to ? { endTime: `${nextDay(filters.to)}T00:00:00` } : {}),
  };
}

/** Whether anything narrows the list (the empty state words itself accordingly). */
export function isFiltered(filters: MessageFilters): boolean {
  return filters.state !== 'all' || filters.deviceId !== null || filters.from !== '' || filters.to !== '';
}

/**
 * The device list's state lives in its address, so a link (the expired dialog's, a home tile's)
 * opens it filtered and the tab bar reopens it as it was:
 * `?deviceName=&status=&service=&calibration=&project=&start=&pageSize=`.
 */
import type { DeviceFilters, DeviceQuery, Scene } from './api/devices';
import { NAME_MAX } from '@/lib/api/devices';
import { DEFAULT_PAGE_SIZE, pageSizeOf } from './paging';

/** The tabs of the list and their routes (app/routes.ts). */
export const SCENE_TABS: readonly { scene: Scene; route: string; path: string }[] = [
  { scene: 1, route: 'deviceList', path: '/device/list' },
  { scene: 2, route: 'storageList', path: '/device/list/storage' },
  { scene: 3, route: 'freezerList', path: '/device/list/freezer' },
];

export function sceneOfRoute(routeName: string | undefined): Scene {
  return SCENE_TABS.find((tab) => tab.route === routeName)?.scene ?? 1;
}

export function pathOfScene(scene: Scene): string {
  return SCENE_TABS.find((tab) => tab.scene === scene)?.path ?? '/device/list';
}

export const STATUS_FILTERS = ['all', 'online', 'offline', 'alarm', 'enabled', 'disabled', 'scrapped'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export const SERVICE_FILTERS = ['all', 'expiring', 'expired'] as const;
export type ServiceFilter = (typeof SERVICE_FILTERS)[number];
/** Devices whose calibration falls due within 30 days or is overdue (the due date a calibration certificate set). */
export const CALIBRATION_FILTERS = ['all', 'due'] as const;
export type CalibrationFilter = (typeof CALIBRATION_FILTERS)[number];


/** How the list shows its devices: a table, markers on a map, or a card each. */
export const LIST_MODES = ['list', 'map', 'board'] as const;
export type ListMode = (typeof LIST_MODES)[number];

export interface ListFilters {
  mode: ListMode;
  deviceName: string;
  status: StatusFilter;
  service: ServiceFilter;
  calibration: CalibrationFilter;
  /** One project's devices (its id), those in none (0), or any (null). */
  project: number | null;
  start: number;
  pageSize: number;
}

export const NO_FILTERS: ListFilters = {
  mode: 'list', deviceName: '', status: 'all', service: 'all', calibration: 'all', project: null, start: 1, pageSize: DEFAULT_PAGE_SIZE,
};

/** The largest id the server takes (a 32-bit integer). */
const MAX_ID = 2 ** 31 - 1;

function oneOf<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** The filters an address holds; anything unknown or out of range reads as no filter. */
export function readFilters(params: URLSearchParams): ListFilters {
  const start = Number(params.get('start'));
  const pageSize = Number(params.get('pageSize'));
  const project = /^\d{1,10}$/.test(params.get('project') ?? '') ? Number(params.get('project')) : NaN;
  return {
    mode: oneOf(LIST_MODES, params.get('mode'), 'list'),
    deviceName: [...(params.get('deviceName') ?? '').trim()].slice(0, NAME_MAX).join(''),
    status: oneOf(STATUS_FILTERS, params.get('status'), 'all'),
    service: oneOf(SERVICE_FILTERS, params.get('service'), 'all'),
    calibration: oneOf(CALIBRATION_FILTERS, params.get('calibration'), 'all'),
    project: Number.isInteger(project) && project >= 0 && project <= MAX_ID ? project : null,
    start: Number.isInteger(start) && start >= 1 ? start : 1,
    pageSize: pageSizeOf(pageSize),
  };
}

/** The address of some filters: only what differs from no filter, so a plain list has a plain path. */
export function writeFilters(filters: ListFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.mode !== 'list') params.set('mode', filters.mode);
  if (filters.deviceName) params.set('deviceName', filters.deviceName);
  if (filters.status !== 'all') params.set('status', filters.status);
  if (filters.service !== 'all') params.set('service', filters.service);
  if (filters.calibration !== 'all') params.set('calibration', filters.calibration);
  if (filters.project !== null) params.set('project', String(filters.project));
  if (filters.start > 1) params.set('start', String(filters.start));
  if (filters.pageSize !== DEFAULT_PAGE_SIZE) params.set('pageSize', String(filters.pageSize));
  return params;
}

/** `path` with the filters' query, if any. */
export function listHref(path: string, filters: Partial<ListFilters> = {}): string {
  const query = writeFilters({ ...NO_FILTERS, ...filters }).toString();
  return query ? `${path}?${query}` : path;
}

const STATUS_QUERY: Readonly<Record<StatusFilter, Partial<DeviceQuery>>> = {
  all: {},
  online: { online: 1 },
  offline: { online: 0 },
  alarm: { alarm: 1 },
  enabled: { status: 1 },
  disabled: { status: 0 },
  scrapped: { scrapped: 1 },
};

const SERVICE_QUERY: Readonly<Record<ServiceFilter, Partial<DeviceQuery>>> = {
  all: {},
  expiring: { vipState: 1 },
  expired: { vipState: 2 },
};

/** The body of POST /device/Device/page for one tab and its filters. */
export function deviceQuery(scene: Scene, filters: ListFilters): DeviceQuery {
  // The map draws its markers from a call of its own; its page only counts the devices.
  const map = filters.mode === 'map';
  return {
    scene,
    start: map ? 1 : filters.start,
    pageSize: map ? 1 : filters.pageSize,
    ...(filters.deviceName ? { deviceName: filters.deviceName } : {}),
    ...STATUS_QUERY[filters.status],
    ...SERVICE_QUERY[filters.service],
    ...(filters.calibration === 'due' ? { calibrationDue: 1 as const } : {}),
    ...(filters.project !== null ? { projectId: filters.project } : {}),
  };
}

/** The list's filters for exporting it whole: the query without its page. */
export function listExportFilters(scene: Scene, filters: ListFilters): DeviceFilters {
  const query: Partial<DeviceQuery> = { ...deviceQuery(scene, filters) };
  delete query.start;
  delete query.pageSize;
  return query;
}

/** Where the recharge screen opens for these devices (the same address the expired dialog uses). */
export function rechargeHref(deviceIds: readonly number[]): string {
  return `/consumer/recharge?deviceIds=${deviceIds.join(',')}`;
}

export function detailHref(deviceId: number, tab?: string): string {
  return tab ? `/device/detail/${deviceId}?tab=${tab}` : `/device/detail/${deviceId}`;
}

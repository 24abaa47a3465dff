/**
 * The device registry (api-contract section 4): POST /device/Device/page for the lists, GET
 * /device/Device/get for one device with its last reading and probe limits, PUT
 * /device/Device/update for its name, remark, display precision, unit and country code.
 * Temperatures always come in Celsius; the client converts them to the device's unit.
 */
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { pageOf } from './page';
import { api } from '@/lib/http/index';
import { TEMPERATURE_UNITS, type TemperatureUnit } from '@/lib/units';
import { accessSchema, elementPermissionSchema } from '@/lib/access';

/** The longest device name the server keeps, in characters (code points). */
export const NAME_MAX = 50;

/** The list's tabs: 1 cold-chain monitoring, 2 smart cold storage, 3 smart freezer. */
export const SCENES = [1, 2, 3] as const;
export type Scene = (typeof SCENES)[number];

/** vipInfo.state: 1 service expires within 30 days, 2 expired, 0 neither (lifelong or later). */
export const VIP_STATES = [0, 1, 2] as const;
export type VipState = (typeof VIP_STATES)[number];

export { TEMPERATURE_UNITS, type TemperatureUnit };

/** Where a device reported being (WGS 84), with its accuracy radius in metres when it said. */
export const positionSchema = z.object({
  lat: z.number(),
  lon: z.number(),
  acc: z.number().nullable(),
  ts: z.string(),
});
export type Position = z.infer<typeof positionSchema>;

export const deviceSchema = z.object({
  deviceId: z.number(),
  deviceName: z.string(),
  deviceGuid: z.string(),
  typeId: z.number(),
  deviceTypeName: z.string(),
  typeScenes: z.array(z.number()),
  levelId: z.number().nullable(),
  levelName: z.string().nullable(),
  /** `YYYY-MM-DD` in the caller's time zone; year 2099 or later is lifelong. */
  serviceExpiredDate: z.string().nullable(),
  vipInfo: z.object({ state: z.number() }),
  smsCount: z.number(),
  voiceCount: z.number(),
  countryCode: z.string().nullable(),
  simIccid: z.string().nullable(),
  /** 1: the SIM has an active data plan. */
  jcIccidStatus: z.number(),
  agreementStatus: z.number(),
  nodeType: z.number(),
  /** 1 enabled, 0 disabled. */
  status: z.number(),
  remark: z.string().nullable(),
  ownerId: z.number(),
  ownerName: z.string(),
  /** Only the owner deletes the device or rotates its broker password. */
  isOwner: z.boolean(),
  /** The caller's access: 2 the owner's rights, 1 anything less (see ../access.ts). */
  access: accessSchema,
  /** Per element of the device (its detail's tabs), what the caller may see and operate (../access.ts). */
  permissions: z.array(elementPermissionSchema),
  /** Someone shared it with the caller (its owner is `ownerName`). */
  sharedWithMe: z.boolean(),
  organizationId: z.number().nullable(),
  organizationName: z.string().nullable(),
  online: z.number(),
  /** 0 normal, otherwise alarming. */
  alarmState: z.number(),
  lastReadingAt: z.string().nullable(),
  /** Celsius. */
  temperature: z.number().nullable(),
  /** % RH. */
  humidity: z.number().nullable(),
  displayPrecision: z.number(),
  temperatureUnit: z.enum(TEMPERATURE_UNITS),
  /** The first reading; null: never reported (not enabled). */
  activatedAt: z.string().nullable(),
  createdAt: z.string(),
  /** Its last position; null: it never sent one. */
  position: positionSchema.nullable(),
  /** Its type has an energy meter: the detail shows the energy tab. */
  energy: z.boolean(),
  /** When its owner scrapped it (kept for its history only); null: in service. */
  scrappedAt: z.string().nullable(),
  /** The project it is grouped in (lib/api/projects.ts); null: none. */
  projectId: z.number().nullable(),
  projectName: z.string().nullable(),
});
export type Device = z.infer<typeof deviceSchema>;

export const probeSchema = z.object({
  /** t temperature (Celsius), h humidity (% RH). */
  probe: z.string(),
  upperLimit: z.number().nullable(),
  lowerLimit: z.number().nullable(),
  ruleEnabled: z.boolean(),
});
export type Probe = z.infer<typeof probeSchema>;

export const readingSchema = z.object({
  ts: z.string(),
  temperature: z.number().nullable(),
  humidity: z.number().nullable(),
});
export type Reading = z.infer<typeof readingSchema>;

export const deviceDetailSchema = deviceSchema.extend({
  lastSeenAt: z.string().nullable(),
  lastReading: readingSchema.nullable(),
  probes: z.array(probeSchema),
});
export type DeviceDetail = z.infer<typeof deviceDetailSchema>;

export const devicePageSchema = pageOf(deviceSchema);
export type DevicePage = z.infer<typeof devicePageSchema>;

/** The filters of the device list, as the server takes them (absent: no filter). */
export interface DeviceQuery {
  /** The list's tab; absent: every scene (the recharge page). */
  scene?: Scene;
  /** 1-based page number. */
  start: number;
  pageSize: number;
  /** Part of the name, any case. */
  deviceName?: string;
  online?: 0 | 1;
  alarm?: 0 | 1;
  status?: 0 | 1;
  vipState?: VipState;
  /** 1 scrapped devices only, 0 those in service. */
  scrapped?: 0 | 1;
  /** One project's devices; 0 those in no project. */
  projectId?: number;
  /** 1 devices whose calibration falls due within 30 days or is overdue, 0 the others. */
  calibrationDue?: 0 | 1;
}

/** The list's filters without its page: calls that take every matching device. */
export type DeviceFilters = Omit<DeviceQuery, 'start' | 'pageSize'>;

/** A device on a map (POST /device/Device/markers): where it last was and what colours it. */
export const deviceMarkerSchema = z.object({
  deviceId: z.number(),
  deviceName: z.string(),
  lat: z.number(),
  lon: z.number(),
  status: z.number(),
  online: z.number(),
  alarmState: z.number(),
  activatedAt: z.string().nullable(),
  scrappedAt: z.string().nullable(),
});
export type DeviceMarker = z.infer<typeof deviceMarkerSchema>;
export const deviceMarkersSchema = z.object({
  markers: z.array(deviceMarkerSchema),
  /** Devices of the filters that reported a position, shown or not. */
  total: z.number(),
  /** More matched than the server gives (its first 10,000 by id). */
  truncated: z.boolean(),
});
export type DeviceMarkers = z.infer<typeof deviceMarkersSchema>;

export async function fetchDeviceMarkers(filters: DeviceFilters): Promise<DeviceMarkers> {
  return deviceMarkersSchema.parse(await api.post('/device/Device/markers', filters));
}

/** Every positioned device of the filters, for a map (not a page of the list). */
export function useDeviceMarkers(filters: DeviceFilters) {
  return useQuery({
    queryKey: deviceKeys.markers(filters),
    queryFn: () => fetchDeviceMarkers(filters),
    placeholderData: keepPreviousData,
  });
}

export async function fetchDevicePage(query: DeviceQuery): Promise<DevicePage> {
  return devicePageSchema.parse(await api.post('/device/Device/page', query));
}

export async function fetchDevice(deviceId: number): Promise<DeviceDetail> {
  // A device that is not there (or not the caller's) is drawn by the page: silent.
  const data = await api.get('/device/Device/get', { params: { deviceId }, silent: true });
  return deviceDetailSchema.parse(data);
}

/** What PUT /device/Device/update may change; fields left out keep their value. */
export interface DeviceChange {
  deviceId: number;
  deviceName?: string;
  /** Empty clears it. */
  remark?: string;
  displayPrecision?: number;
  temperatureUnit?: TemperatureUnit;
  countryCode?: string;
}

/** Saves the change; refusals are left to the form (silent). */
export async function fetchUpdateDevice(change: DeviceChange): Promise<DeviceDetail> {
  return deviceDetailSchema.parse(await api.put('/device/Device/update', change, { silent: true }));
}

export const deviceKeys = {
  all: ['devices'] as const,
  lists: () => ['devices', 'list'] as const,
  list: (query: DeviceQuery) => ['devices', 'list', query] as const,
  markers: (filters: DeviceFilters) => ['devices', 'markers', filters] as const,
  detail: (deviceId: number) => ['devices', 'detail', deviceId] as const,
};

/** How often the detail page asks for the latest reading. */
export const REALTIME_REFRESH_MS = 10_000;

/** One page of the list, asked while `enabled`; the previous page stays on screen while the next loads. */
export function useDevicePage(query: DeviceQuery, enabled = true) {
  return useQuery({
    queryKey: deviceKeys.list(query),
    queryFn: () => fetchDevicePage(query),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * How many devices match the same filters in each of `scenes` (one-row pages): the counts on the
 * list's tabs, so a search that matches nothing here still says where its devices are.
 */
export function useSceneTotals(query: DeviceQuery, scenes: readonly Scene[]) {
  return useQueries({
    queries: scenes.map((scene) => {
      const one = { ...query, scene, start: 1, pageSize: 1 };
      return {
        queryKey: deviceKeys.list(one),
        queryFn: () => fetchDevicePage(one),
        select: (page: DevicePage) => page.totalCount,
      };
    }),
  });
}

/** One device, asked again every 10 s while the page is open (real-time values). */
export function useDevice(deviceId: number, enabled = true) {
  return useQuery({
    queryKey: deviceKeys.detail(deviceId),
    queryFn: () => fetchDevice(deviceId),
    enabled,
    staleTime: 0,
    refetchInterval: REALTIME_REFRESH_MS,
  });
}

/** The update as a mutation: the answer replaces the cached device, and lists are asked again. */
export function useUpdateDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fetchUpdateDevice,
    onSuccess: (device) => {
      queryClient.setQueryData(deviceKeys.detail(device.deviceId), device);
      void queryClient.invalidateQueries({ queryKey: deviceKeys.lists() });
    },
  });
}

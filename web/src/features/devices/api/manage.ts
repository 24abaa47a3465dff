/**
 * Adding, deleting and connecting devices: the add form's device types, Device/insert with the
 * broker login it returns once, adding many from an XLSX (Device/batchInsert and its template),
 * rotating that password, deleting one or many devices, scrapping them and restoring one, moving
 * them into one of the caller's organizations and out (Device/changeOrganization),
 * clearing a device's data and the broker settings a technician needs (GET /device/Device/connection).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http';
import { saveFile } from '@/lib/saveFile';
import { deviceDetailSchema, deviceKeys, type TemperatureUnit } from '@/lib/api/devices';
import { ORGANIZATIONS_KEY } from '@/lib/api/organizationsKey';
import { projectKeys } from '@/lib/api/projects';

export const deviceTypeSchema = z.object({
  typeId: z.number(),
  typeName: z.string(),
  typeCode: z.string(),
  seriesName: z.string().nullable(),
  /** 1: app only, not addable here. */
  addType: z.number(),
  scenes: z.array(z.number()),
  probes: z.array(z.string()),
});
export type DeviceType = z.infer<typeof deviceTypeSchema>;

export const brokerLoginSchema = z.object({ username: z.string(), password: z.string() });
export type BrokerLogin = z.infer<typeof brokerLoginSchema>;

export const deviceAddedSchema = z.object({ device: deviceDetailSchema, credentials: brokerLoginSchema });
export type DeviceAdded = z.infer<typeof deviceAddedSchema>;

export const connectionSchema = z.object({
  host: z.string(),
  port: z.number(),
  tls: z.boolean(),
  /** With `{guid}` standing for the device's GUID. */
  topics: z.object({ telemetry: z.string(), status: z.string(), commands: z.string(), acks: z.string() }),
  examplePayload: z.string(),
});
export type Connection = z.infer<typeof connectionSchema>;

/** A sheet row's fate: added; alreadyAdded (by anyone, or higher in the same sheet); unknownType; invalid. */
export const SHEET_OUTCOMES = ['added', 'alreadyAdded', 'unknownType', 'invalid'] as const;
export type SheetOutcome = (typeof SHEET_OUTCOMES)[number];

export const sheetRowSchema = z.object({
  row: z.number(),
  deviceGuid: z.string(),
  outcome: z.enum(SHEET_OUTCOMES),
  /** Why not added, in the user's language. */
  message: z.string().nullable(),
  deviceId: z.number().nullable(),
  /** An added device's login, sent this once. */
  credentials: brokerLoginSchema.nullable(),
});
export type SheetRow = z.infer<typeof sheetRowSchema>;
export const sheetReportSchema = z.object({ rows: z.array(sheetRowSchema), added: z.number() });
export type SheetReport = z.infer<typeof sheetReportSchema>;

export const batchDeletedSchema = z.object({ deleted: z.number() });
export const dataClearedSchema = z.object({ readings: z.number(), alarms: z.number() });
export const scrappedSchema = z.object({ scrapped: z.number() });
export const restoredSchema = z.object({ restored: z.boolean() });
/** What the operation log keeps of a scrapping's reason (src/core/devices/scrapping.py). */
export const SCRAP_REASON_MAX = 200;

export const APP_ONLY = 1;
export const BATCH_DELETE_MAX = 200;
/**
 * What Device/batchInsert takes (MAX_SHEET_BYTES and MAX_SHEET_ROWS of src/core/devices/sheets.py,
 * which sheetUpload.test.ts compares): checked here only to answer at once, the server decides.
 */
export const SHEET_MAX_BYTES = 512 * 1024;
export const SHEET_MAX_ROWS = 500;
export const SHEET_EXTENSION = '.xlsx';

export interface NewDevice {
  deviceGuid: string;
  deviceName: string;
  typeId: number;
  remark?: string;
  displayPrecision?: number;
  temperatureUnit?: TemperatureUnit;
}

export async function fetchDeviceTypes(): Promise<DeviceType[]> {
  return z.array(deviceTypeSchema).parse(await api.get('/device/DeviceType/selectTypeList'));
}

/** Refusals are left to the form (silent). */
export async function fetchInsertDevice(device: NewDevice): Promise<DeviceAdded> {
  return deviceAddedSchema.parse(await api.post('/device/Device/insert', device, { silent: true }));
}

/** Refusals of the whole file (422 on `file`) are left to the dialog (silent). */
export async function fetchBatchInsert(file: File): Promise<SheetReport> {
  const form = new FormData();
  form.append('file', file, file.name);
  return sheetReportSchema.parse(await api.post('/device/Device/batchInsert', form, { silent: true }));
}

/** The empty sheet, its header in the user's language, saved by the browser. */
export async function downloadSheetTemplate(): Promise<void> {
  const file = await api.download('/device/Device/batchInsert/template');
  saveFile(file.blob, file.fileName ?? `devices${SHEET_EXTENSION}`);
}

export async function fetchRotatePassword(deviceId: number): Promise<BrokerLogin> {
  return brokerLoginSchema.parse(await api.post('/device/Device/credentials/rotate', undefined, { params: { deviceId } }));
}

export async function fetchConnection(): Promise<Connection> {
  return connectionSchema.parse(await api.get('/device/Device/connection'));
}

export async function fetchDeleteDevices(deviceIds: readonly number[]): Promise<number> {
  return batchDeletedSchema.parse(await api.post('/device/Device/batchDelete', { deviceIds })).deleted;
}

export async function fetchScrapDevices({ deviceIds, reason }: { deviceIds: readonly number[]; reason: string }): Promise<number> {
  const body = { deviceIds, reason: reason.trim() || null };
  return scrappedSchema.parse(await api.post('/device/Device/scrap', body)).scrapped;
}

export const organizationChangedSchema = z.object({ moved: z.number() });
/** Devices one move takes (src/core/devices/ownership.py). */
export const ORGANIZATION_MOVE_MAX = 200;

/** Into one of the caller's organizations, or out of any (null): all or none (src/core/devices/ownership.py). */
export async function fetchChangeOrganization({ deviceIds, organizationId }: {
  deviceIds: readonly number[]; organizationId: number | null;
}): Promise<number> {
  return organizationChangedSchema.parse(await api.post('/device/Device/changeOrganization', { deviceIds, organizationId })).moved;
}

export async function fetchRestoreDevice(deviceId: number): Promise<boolean> {
  return restoredSchema.parse(await api.post('/device/Device/restore', undefined, { params: { deviceId } })).restored;
}

export async function fetchClearData(deviceId: number) {
  return dataClearedSchema.parse(await api.post('/device/Device/clearData', undefined, { params: { deviceId } }));
}

/** The addable types (not app only), for the add form. */
export function useAddableTypes(enabled = true) {
  return useQuery({
    queryKey: ['devices', 'types'],
    queryFn: fetchDeviceTypes,
    select: (types: DeviceType[]) => types.filter((type) => type.addType !== APP_ONLY),
    staleTime: 5 * 60_000,
    enabled,
  });
}

export function useConnection(enabled = true) {
  return useQuery({ queryKey: ['devices', 'connection'], queryFn: fetchConnection, staleTime: Infinity, enabled });
}

/** Any change to the set of devices: every list and count is asked again. */
function useDevicesChanged() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: deviceKeys.all });
}

export function useInsertDevice() {
  const changed = useDevicesChanged();
  return useMutation({ mutationFn: fetchInsertDevice, onSuccess: changed });
}

export function useBatchInsert() {
  const changed = useDevicesChanged();
  return useMutation({ mutationFn: fetchBatchInsert, onSuccess: changed });
}

export function useDeleteDevices() {
  const changed = useDevicesChanged();
  return useMutation({ mutationFn: fetchDeleteDevices, onSuccess: changed });
}

export function useScrapDevices() {
  const changed = useDevicesChanged();
  return useMutation({ mutationFn: fetchScrapDevices, onSuccess: changed });
}

export function useChangeOrganization() {
  const changed = useDevicesChanged();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fetchChangeOrganization,
    // the organizations' device counts and the projects the devices left are stale too
    onSuccess: () => {
      changed();
      void queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_KEY });
      void queryClient.invalidateQueries({ queryKey: projectKeys.all });
    },
  });
}

export function useRestoreDevice() {
  const changed = useDevicesChanged();
  return useMutation({ mutationFn: fetchRestoreDevice, onSuccess: changed });
}

export function useClearData() {
  const changed = useDevicesChanged();
  return useMutation({ mutationFn: fetchClearData, onSuccess: changed });
}

export function useRotatePassword() {
  return useMutation({ mutationFn: fetchRotatePassword });
}

/** A topic of the device: the template with its GUID. */
export const topicOf = (template: string, guid: string): string => template.replace('{guid}', guid);

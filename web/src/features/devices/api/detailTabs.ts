/**
 * The device detail's parameter settings, operation log and maintenance tabs:
 * GET /device/DeviceParam/get and POST .../save (a `params` command the device answers over MQTT),
 * POST /device/DeviceOperationLog/page, and POST /device/DeviceMaintenance/page|insert,
 * PUT .../update, DELETE .../delete. Reading needs device.detail; writing device.list:edit and
 * write access to the device (the tabs never send a write otherwise).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { pageOf } from '@/lib/api/page';
import { deviceKeys } from '@/lib/api/devices';
import type { Signature } from '@/lib/api/fda';
import { api } from '@/lib/http/index';
import { TEMPERATURE_UNITS } from '@/lib/units';

/** Seconds, as the server bounds them (src/core/devices/device_commands.py). */
export const UPLOAD_INTERVAL = { min: 60, max: 86_400 } as const;
export const RECORD_INTERVAL = { min: 10, max: 86_400 } as const;
/** Spec seed 001 section 5. */
export const MAINTENANCE_LIMITS = { person: 50, approver: 20, reason: 200, content: 1000, standard: 200, result: 1000 } as const;
export type MaintenanceText = keyof typeof MAINTENANCE_LIMITS;

export const paramsSchema = z.object({
  displayPrecision: z.number(),
  temperatureUnit: z.enum(TEMPERATURE_UNITS),
  uploadInterval: z.number(),
  recordInterval: z.number(),
});
export type DeviceParams = z.infer<typeof paramsSchema>;

export const COMMAND_STATES = ['pending', 'acknowledged', 'failed', 'unsent', 'notAnswered'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];

export const paramsStateSchema = z.object({
  /** The latest asked for (the device's defaults when none was sent). */
  desired: paramsSchema,
  /** The latest the device confirmed; null: none yet. */
  acknowledged: paramsSchema.nullable(),
  /** Of the latest command; null: never sent. `pending` turns `notAnswered` after 60 s. */
  state: z.enum(COMMAND_STATES).nullable(),
  commandId: z.string().nullable(),
  sentAt: z.string().nullable(),
  answeredAt: z.string().nullable(),
  /** The device's own words when it refused. */
  error: z.string().nullable(),
  access: z.number(),
});
export type ParamsState = z.infer<typeof paramsStateSchema>;

export const deviceEventSchema = z.object({
  id: z.number(),
  kind: z.string(),
  at: z.string(),
  detail: z.string().nullable(),
  /** null: the account is gone. */
  actorName: z.string().nullable(),
});
export type DeviceEvent = z.infer<typeof deviceEventSchema>;
export const deviceEventPageSchema = pageOf(deviceEventSchema);

export const maintenanceSchema = z.object({
  id: z.number(),
  deviceId: z.number(),
  /** YYYY-MM-DD. */
  maintainDate: z.string(),
  person: z.string(),
  approver: z.string().nullable(),
  reason: z.string(),
  content: z.string(),
  standard: z.string().nullable(),
  result: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MaintenanceRecord = z.infer<typeof maintenanceSchema>;
export const maintenancePageSchema = pageOf(maintenanceSchema).extend({ access: z.number() });

export interface MaintenanceFields {
  maintainDate: string;
  person: string;
  approver: string | null;
  reason: string;
  content: string;
  standard: string | null;
  result: string | null;
}

export async function fetchParams(deviceId: number): Promise<ParamsState> {
  return paramsStateSchema.parse(await api.get('/device/DeviceParam/get', { params: { deviceId } }));
}

/**
 * Refusals are left to the form (silent). Where FDA is on for the device the change is signed
 * (else 428); a signed save's 403 is the signature's refusal, which the signature dialog shows.
 */
export async function saveParams(body: DeviceParams & { deviceId: number; signature?: Signature }): Promise<ParamsState> {
  return paramsStateSchema.parse(await api.post('/device/DeviceParam/save', body,
    { silent: true, denialIsAnswer: body.signature !== undefined }));
}

export async function fetchOperationLog(deviceId: number, start: number, pageSize: number) {
  return deviceEventPageSchema.parse(await api.post('/device/DeviceOperationLog/page', { deviceId, start, pageSize }));
}

export async function fetchMaintenance(deviceId: number, start: number, pageSize: number) {
  return maintenancePageSchema.parse(await api.post('/device/DeviceMaintenance/page', { deviceId, start, pageSize }));
}

export async function insertMaintenance(body: MaintenanceFields & { deviceId: number }): Promise<MaintenanceRecord> {
  return maintenanceSchema.parse(await api.post('/device/DeviceMaintenance/insert', body, { silent: true }));
}

export async function updateMaintenance(body: MaintenanceFields & { id: number }): Promise<MaintenanceRecord> {
  return maintenanceSchema.parse(await api.put('/device/DeviceMaintenance/update', body, { silent: true }));
}

export async function deleteMaintenance(id: number): Promise<void> {
  await api.delete('/device/DeviceMaintenance/delete', { params: { id } });
}

export const tabKeys = {
  params: (deviceId: number) => ['devices', 'params', deviceId] as const,
  log: (deviceId: number) => ['devices', 'operationLog', deviceId] as const,
  maintenance: (deviceId: number) => ['devices', 'maintenance', deviceId] as const,
};

/** While the device has not answered, asked again every 3 s; the server turns it to notAnswered after 60 s. */
export function useDeviceParams(deviceId: number) {
  return useQuery({
    queryKey: tabKeys.params(deviceId),
    queryFn: () => fetchParams(deviceId),
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? 3_000 : false),
  });
}

export function useSaveParams(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ signature, ...params }: DeviceParams & { signature?: Signature }) =>
      saveParams({ ...params, deviceId, ...(signature ? { signature } : {}) }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(tabKeys.params(deviceId), saved);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: deviceKeys.detail(deviceId) }),
        queryClient.invalidateQueries({ queryKey: tabKeys.log(deviceId) }),
      ]);
    },
  });
}

export function useOperationLog(deviceId: number, start: number, pageSize: number) {
  return useQuery({
    queryKey: [...tabKeys.log(deviceId), start, pageSize],
    queryFn: () => fetchOperationLog(deviceId, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useMaintenance(deviceId: number, start: number, pageSize: number) {
  return useQuery({
    queryKey: [...tabKeys.maintenance(deviceId), start, pageSize],
    queryFn: () => fetchMaintenance(deviceId, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

/** Insert (no id) or update; the list and the operation log are asked again. */
export function useSaveMaintenance(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MaintenanceFields & { id?: number }) =>
      body.id === undefined ? insertMaintenance({ ...body, deviceId }) : updateMaintenance({ ...body, id: body.id }),
    onSuccess: () => refreshRecords(queryClient, deviceId),
  });
}

export function useDeleteMaintenance(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteMaintenance, onSuccess: () => refreshRecords(queryClient, deviceId) });
}

function refreshRecords(queryClient: ReturnType<typeof useQueryClient>, deviceId: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: tabKeys.maintenance(deviceId) }),
    queryClient.invalidateQueries({ queryKey: tabKeys.log(deviceId) }),
  ]);
}

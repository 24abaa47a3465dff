/**
 * Exports to the download centre (/consumer/download): POST /device/DeviceDataExport/create for a
 * device's readings (CSV, XLSX or a PDF report; signed by its author where FDA mode is on), POST .../createDeviceList for the device list
 * (XLSX), POST .../page to list them, GET .../readyCount for the header's badge, DELETE .../delete,
 * POST .../retry?id= to ask again for a failed one (signed as a new one where FDA mode is on), and GET .../download?id= for the file. A job writes each file; the list polls while one is
 * pending or running. Files are kept 7 days; an account has at most 3 exports in progress (1201).
 * Shared: the device screens ask for exports, the download centre and the header show them.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { DeviceQuery } from './devices';
import type { Signature } from './fda';
import { pageOf } from './page';
import { api } from '@/lib/http/index';
import { saveFile } from '@/lib/saveFile';

export const EXPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_STATUSES = ['pending', 'running', 'ready', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
/** The server refuses a period longer than this (366 days). */
export const EXPORT_MAX_SPAN_MS = 366 * 24 * 3600 * 1000;
/** The list asks again this often while an export is being written. */
export const EXPORT_POLL_MS = 1500;
export const READY_COUNT_REFRESH_MS = 30_000;

export const exportSchema = z.object({
  id: z.string(),
  kind: z.enum(['readings', 'deviceList']),
  format: z.enum(EXPORT_FORMATS),
  /** The device's name; empty for the device list. */
  title: z.string(),
  status: z.enum(EXPORT_STATUSES),
  /** Percent written. */
  progress: z.number(),
  /** Bytes, once ready. */
  size: z.number().nullable(),
  fileName: z.string().nullable(),
  deviceId: z.number().nullable(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** When the file and the record are deleted. */
  expiresAt: z.string(),
  /** Why it failed, in the request's language. */
  error: z.string().nullable(),
});
export type ExportRecord = z.infer<typeof exportSchema>;
export const exportPageSchema = pageOf(exportSchema);
export const readyCountSchema = z.object({ count: z.number() });

export interface ReadingsExportRequest {
  deviceId: number;
  /** ISO 8601 with its UTC offset. */
  startTime: string;
  endTime: string;
  format: ExportFormat;
  /** Where FDA mode is on for the device, its author's electronic signature (meaning authored); without one the server answers 428. */
  signature?: Signature;
}

/** The device list's filters, as Device/page takes them (without paging). */
export type DeviceListExportRequest = Omit<DeviceQuery, 'start' | 'pageSize'>;

export const exportKeys = {
  all: ['exports'] as const,
  page: (start: number, pageSize: number) => ['exports', 'page', start, pageSize] as const,
  ready: ['exports', 'ready'] as const,
};

/**
 * Refusals are the caller's to show (silent): unsigned, a 428 is the cue to ask for the signature;
 * signed, a 403 is the signature's refusal (a wrong password), which the signature dialog shows.
 */
export async function createReadingsExport(body: ReadingsExportRequest): Promise<ExportRecord> {
  return exportSchema.parse(await api.post('/device/DeviceDataExport/create', body,
    { silent: true, denialIsAnswer: body.signature !== undefined }));
}

export async function createDeviceListExport(filters: DeviceListExportRequest): Promise<ExportRecord> {
  return exportSchema.parse(await api.post('/device/DeviceDataExport/createDeviceList', filters));
}

export async function fetchExportPage(start: number, pageSize: number) {
  return exportPageSchema.parse(await api.post('/device/DeviceDataExport/page', { start, pageSize }));
}

export async function fetchReadyCount() {
  return readyCountSchema.parse(await api.get('/device/DeviceDataExport/readyCount', { silent: true }));
}

export async function deleteExport(id: string): Promise<void> {
  await api.delete('/device/DeviceDataExport/delete', { params: { id } });
}

/** A failed export asked for again; a readings export where FDA mode is on for its device is signed as a new one (else 428). */
export interface RetryRequest {
  id: string;
  signature?: Signature;
}

/**
 * Asks again for what a failed export asked: a new export, the failed one deleted. Refusals are the
 * caller's to show, as createReadingsExport's: a 428 asks for the signature, a signed call's 403 is its refusal.
 */
export async function retryExport({ id, signature }: RetryRequest): Promise<ExportRecord> {
  return exportSchema.parse(await api.post('/device/DeviceDataExport/retry', signature ? { signature } : undefined,
    { params: { id }, silent: true, denialIsAnswer: signature !== undefined }));
}

/** The file, saved by the browser under the server's name. */
export async function downloadExport(record: ExportRecord): Promise<void> {
  const file = await api.download('/device/DeviceDataExport/download', { params: { id: record.id } });
  saveFile(file.blob, file.fileName ?? record.fileName ?? `${record.id}.${record.format}`);
}

export const isWorking = (record: ExportRecord) => record.status === 'pending' || record.status === 'running';

/** A page of the caller's exports, asked again every moment while one of them is being written. */
export function useExportPage(start: number, pageSize: number) {
  return useQuery({
    queryKey: exportKeys.page(start, pageSize),
    queryFn: () => fetchExportPage(start, pageSize),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some(isWorking) ? EXPORT_POLL_MS : false),
  });
}

/** How many exports are ready: the header's badge. */
export function useReadyCount(enabled: boolean) {
  return useQuery({
    queryKey: exportKeys.ready,
    queryFn: fetchReadyCount,
    enabled,
    refetchInterval: READY_COUNT_REFRESH_MS,
    retry: false,
  });
}

/** Asking for an export: the download centre's list and the badge are asked again. */
export function useCreateExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: { device: ReadingsExportRequest } | { list: DeviceListExportRequest }) =>
      'device' in request ? createReadingsExport(request.device) : createDeviceListExport(request.list),
    onSettled: () => queryClient.invalidateQueries({ queryKey: exportKeys.all }),
  });
}

export function useDeleteExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteExport,
    onSettled: () => queryClient.invalidateQueries({ queryKey: exportKeys.all }),
  });
}

export function useRetryExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryExport,
    onSettled: () => queryClient.invalidateQueries({ queryKey: exportKeys.all }),
  });
}

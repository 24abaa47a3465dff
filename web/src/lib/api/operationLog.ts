/**
 * The operation log (/operation/log): every change made through the API, who made it, when, from
 * which address, the old and new values of each field, and refused or failed attempts. POST
 * /base/OperationLog/page lists the entries the caller may read (a customer: their own, what they
 * owned, their managed organizations'; an operator: all), /export gives the same as an XLSX, and
 * POST /device/DeviceOperationLog/changes a device's entries for its detail's log tab. GET
 * /base/OperationLog/labels names calls, object types and columns in the request's language: the
 * server keeps those words, the same its XLSX export writes.
 * Shared: the log page and the device detail show entries.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { pageOf } from './page';
import { api } from '@/lib/http/index';

export const OUTCOMES = ['succeeded', 'refused', 'failed'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const changeSchema = z.object({
  objectType: z.string(),
  objectId: z.string().nullable(),
  /** The object's name when it changed. */
  objectLabel: z.string().nullable(),
  kind: z.enum(['insert', 'update', 'delete']),
  /** {field: [old, new]}; secrets are "***". */
  fields: z.record(z.string(), z.array(z.unknown())),
  deviceId: z.number().nullable(),
});
export type Change = z.infer<typeof changeSchema>;

export const operationSchema = z.object({
  id: z.number(),
  at: z.string(),
  accountId: z.number().nullable(),
  userName: z.string().nullable(),
  clientAddress: z.string().nullable(),
  action: z.string(),
  method: z.string(),
  outcome: z.enum(OUTCOMES),
  status: z.number(),
  changes: z.array(changeSchema),
});
export type Operation = z.infer<typeof operationSchema>;
export const operationPageSchema = pageOf(operationSchema);

export interface OperationFilter {
  since?: string;
  until?: string;
  userName?: string;
  objectType?: string;
  action?: string;
  outcome?: Outcome;
}

/** {code: label} of each group: a call's name (Device.update), an object type (alarmRule), a column (upper_limit). */
export const operationLabelsSchema = z.object({
  action: z.record(z.string(), z.string()),
  object: z.record(z.string(), z.string()),
  field: z.record(z.string(), z.string()),
});
export type OperationLabels = z.infer<typeof operationLabelsSchema>;
export type LabelGroup = keyof OperationLabels;
export type LabelOf = (group: LabelGroup, code: string) => string;

export const operationKeys = {
  all: ['operationLog'] as const,
  page: (filter: OperationFilter, start: number, pageSize: number) => ['operationLog', 'page', filter, start, pageSize] as const,
  device: (deviceId: number, start: number, pageSize: number) => ['operationLog', 'device', deviceId, start, pageSize] as const,
  // apart from `all`: refreshing the entries leaves the words alone
  labels: (language: string) => ['operationLabels', language] as const,
};

/** The filter without its empty fields: the server refuses an empty text. */
function present(filter: OperationFilter): OperationFilter {
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined && value !== '')) as OperationFilter;
}

export async function fetchOperations(filter: OperationFilter, start: number, pageSize: number) {
  return operationPageSchema.parse(await api.post('/base/OperationLog/page', { ...present(filter), start, pageSize }));
}

export async function exportOperations(filter: OperationFilter) {
  return api.download('/base/OperationLog/export', { method: 'POST', body: present(filter) });
}

export async function fetchOperationLabels() {
  // silent: without them the log shows codes, and its own call says what failed
  return operationLabelsSchema.parse(await api.get('/base/OperationLog/labels', { silent: true }));
}

export async function fetchDeviceOperations(deviceId: number, start: number, pageSize: number) {
  return operationPageSchema.parse(await api.post('/device/DeviceOperationLog/changes', { deviceId, start, pageSize }));
}

export function useOperations(filter: OperationFilter, start: number, pageSize: number) {
  return useQuery({
    queryKey: operationKeys.page(filter, start, pageSize),
    queryFn: () => fetchOperations(filter, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useDeviceOperations(deviceId: number, start: number, pageSize: number) {
  return useQuery({
    queryKey: operationKeys.device(deviceId, start, pageSize),
    queryFn: () => fetchDeviceOperations(deviceId, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

/**
 * The label of a code in the reader's language (the server's words, fetched once per language);
 * the code itself while they load, or when it has none.
 */
export function useOperationLabels(): LabelOf {
  const { i18n } = useTranslation();
  const { data } = useQuery({
    queryKey: operationKeys.labels(i18n.language),
    queryFn: fetchOperationLabels,
    staleTime: Infinity,
  });
  return (group, code) => {
    const labels = data?.[group];
    return labels && Object.hasOwn(labels, code) ? labels[code]! : code;
  };
}

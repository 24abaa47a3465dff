/**
 * Offline purchases and their review (/operation/offlinebuy, /operation/offlineExamine;
 * src/entrypoints/api/offline): PayOfflineDeviceService (selectOfflineList, selectOfflineServiceList,
 * addDeviceList and getPackageByFile check the devices, exportOfflineTemplate, insert, delete/list,
 * exportOfflineExcel) and PayOfflineExamine (selectExamineList, updateExamine, exportOffline).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { pageOf } from '@/lib/api/page';
import { api } from '@/lib/http/index';

/** The server's bounds (src/core/ordering/offline_model.py, src/entrypoints/api/offline/schemas.py). */
export const OFFLINE_LIMITS = {
  customer: 200, guid: 32, devices: 2000, remark: 200, count: 1_000_000, amountCents: 10 ** 12, amountDigits: 10,
  /** The uploaded sheet (MAX_SHEET_BYTES and MAX_SHEET_ROWS of src/core/devices/sheets.py). */
  sheetBytes: 512 * 1024, sheetRows: 500,
} as const;
export const SHEET_EXTENSION = '.xlsx';
/** 1 awaiting review, 2 approved, 3 rejected. */
export const STATUSES = [1, 2, 3] as const;
export const AWAITING_REVIEW = 1;
/** 60 offline (contract), 61 bank transfer. */
export const OFFLINE_PAY_TYPES = [60, 61] as const;
/** The business codes the review answers with: the recorder reviewing (1134), reviewed already (1151). */
export const SAME_OPERATOR = 1134;
export const ALREADY_REVIEWED = 1151;

export const purchaseSchema = z.object({
  offlineId: z.number(),
  customerId: z.number(),
  customerName: z.string(),
  levelId: z.number().nullable(),
  levelName: z.string().nullable(),
  levelYearId: z.number().nullable(),
  timeLength: z.number(),
  smsCount: z.number(),
  voiceCount: z.number(),
  /** Cents of `currency`. */
  amount: z.number(),
  currency: z.string(),
  payType: z.number(),
  remark: z.string(),
  status: z.number(),
  createdBy: z.string().nullable(),
  gmtCreate: z.string(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  reviewNote: z.string().nullable(),
  orderId: z.number().nullable(),
  deviceCount: z.number(),
  rechargedCount: z.number(),
  failedCount: z.number(),
});
export type Purchase = z.infer<typeof purchaseSchema>;
export const purchasePageSchema = pageOf(purchaseSchema);

export const purchaseDetailSchema = purchaseSchema.extend({
  devices: z.array(z.object({
    guid: z.string(),
    deviceId: z.number().nullable(),
    deviceName: z.string().nullable(),
    /** 0 not recharged, 1 recharged, 2 recharge failed (`reason` says why). */
    state: z.number(),
    reason: z.string().nullable(),
    expireTimeBefore: z.string().nullable(),
    expireTimeAfter: z.string().nullable(),
  })),
});
export type PurchaseDetail = z.infer<typeof purchaseDetailSchema>;

export const rowCheckSchema = z.object({
  row: z.number(),
  guid: z.string(),
  deviceId: z.number().nullable(),
  deviceName: z.string().nullable(),
  /** null: can be recharged; else why not, in words in `message`. */
  problem: z.number().nullable(),
  message: z.string().nullable(),
});
export type RowCheck = z.infer<typeof rowCheckSchema>;
export const deviceCheckSchema = z.object({
  customerId: z.number(),
  customerName: z.string(),
  rows: z.array(rowCheckSchema),
  valid: z.number(),
});
export type DeviceCheck = z.infer<typeof deviceCheckSchema>;

/** The rows of insert's 422 (`data.rows`): only the refused ones, without the device. */
export const refusedRowsSchema = z.object({
  rows: z.array(z.object({ row: z.number(), guid: z.string(), problem: z.number(), message: z.string().nullable().optional() })),
});

// The catalogue the level is chosen from (src/entrypoints/api/catalogue, permission order.servicePackage:query):
// the enabled packages, then a package's levels with their live service times. Only what the picker shows is read.
export const packageChoiceSchema = pageOf(z.object({ id: z.number(), packageName: z.string() }));
export const levelChoiceSchema = z.array(z.object({
  levelId: z.number(),
  levelName: z.string(),
  options: z.array(z.object({ id: z.number(), timeLength: z.number(), currency: z.string() })),
}));
export type LevelChoice = z.infer<typeof levelChoiceSchema>[number];
export const CATALOGUE_PERMISSION = 'order.servicePackage';

export interface PurchaseFilter {
  status?: number;
  customer?: string;
  guid?: string;
}

/** What each device gets, as the check and the record take it. */
export interface Content {
  customer: string;
  levelId: number | null;
  levelYearId: number | null;
  smsCount: number;
  voiceCount: number;
}

export interface NewPurchase extends Content {
  guids: string[];
  amount: number;
  payType: number;
  remark: string;
}

/** The filter as the server takes it: trimmed, empty fields left out. */
export function filterBody(filter: PurchaseFilter): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (filter.status !== undefined) body.status = filter.status;
  const customer = filter.customer?.trim();
  if (customer) body.customer = customer;
  const guid = filter.guid?.trim();
  if (guid) body.guid = guid;
  return body;
}

function contentBody({ customer, levelId, levelYearId, smsCount, voiceCount }: Content): Record<string, unknown> {
  return { customer: customer.trim(), ...(levelId !== null ? { levelId, levelYearId } : {}), smsCount, voiceCount };
}

/** The two lists: every purchase (the recorders'), or those to review (awaiting review unless a status is asked for). */
export type ListKind = 'buy' | 'examine';

export const offlineKeys = {
  all: ['offline'] as const,
  page: (kind: ListKind, filter: PurchaseFilter, start: number, pageSize: number) =>
    ['offline', 'page', kind, filter, start, pageSize] as const,
  detail: (offlineId: number) => ['offline', 'detail', offlineId] as const,
  // not under `all`: a purchase recorded or reviewed changes no catalogue
  packages: ['offlineCatalogue', 'packages'] as const,
  levels: (packageId: number) => ['offlineCatalogue', 'levels', packageId] as const,
};

export async function fetchPurchases(kind: ListKind, filter: PurchaseFilter, start: number, pageSize: number) {
  const body = { start, pageSize, ...filterBody(filter) };
  return purchasePageSchema.parse(await (kind === 'buy'
    ? api.post('/payment/PayOfflineDeviceService/selectOfflineList', body)
    : api.post('/payment/PayOfflineExamine/selectExamineList', body)));
}

export async function exportPurchases(kind: ListKind, filter: PurchaseFilter) {
  const options = { method: 'POST', body: filterBody(filter) };
  return kind === 'buy'
    ? api.download('/payment/PayOfflineDeviceService/exportOfflineExcel', options)
    : api.download('/payment/PayOfflineExamine/exportOffline', options);
}

export async function fetchPurchase(offlineId: number) {
  return purchaseDetailSchema.parse(await api.get('/payment/PayOfflineDeviceService/selectOfflineServiceList',
    { params: { offlineId } }));
}

/** Refusals (an unknown customer, 422 on `customer`) are shown by the form: silent. */
export async function checkTyped(content: Content, guids: string[]) {
  return deviceCheckSchema.parse(await api.post('/payment/PayOfflineDeviceService/addDeviceList',
    { ...contentBody(content), guids }, { silent: true }));
}

/** The sheet with the same fields as form fields (numbers as text); a refused file is 422 on `file`. */
export async function checkSheet(content: Content, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  for (const [name, value] of Object.entries(contentBody(content))) form.append(name, String(value));
  return deviceCheckSchema.parse(await api.post('/payment/PayOfflineDeviceService/getPackageByFile', form, { silent: true }));
}

export async function downloadTemplate() {
  return api.download('/payment/PayOfflineDeviceService/exportOfflineTemplate');
}

/** A device that cannot take it refuses the whole purchase (422, data.rows): the form shows the rows. */
export async function recordPurchase(purchase: NewPurchase) {
  const { guids, amount, payType, remark, ...content } = purchase;
  return purchaseDetailSchema.parse(await api.post('/payment/PayOfflineDeviceService/insert',
    { ...contentBody(content), guids, amount, payType, remark: remark.trim() }, { silent: true }));
}

export async function deletePurchase(offlineId: number) {
  await api.delete('/payment/PayOfflineDeviceService/delete/list', { params: { offlineId } });
}

/** The refusals (1134 the recorder, 1151 reviewed already) are shown by the dialog: silent. */
export async function reviewPurchase(offlineId: number, approve: boolean, note: string) {
  const text = note.trim();
  return purchaseDetailSchema.parse(await api.put('/payment/PayOfflineExamine/updateExamine',
    { offlineId, approve, ...(text ? { note: text } : {}) }, { silent: true }));
}

export async function fetchPackageChoices() {
  return packageChoiceSchema.parse(await api.post('/payment/PayServicePackages/selectPackagesList',
    { start: 1, pageSize: 200, status: 1 })).data;
}

export async function fetchLevelChoices(packageId: number) {
  return levelChoiceSchema.parse(await api.get('/payment/PayServiceLevel/selectServiceLevels', { params: { packageId } }));
}

export function usePurchases(kind: ListKind, filter: PurchaseFilter, start: number, pageSize: number, enabled: boolean) {
  return useQuery({
    queryKey: offlineKeys.page(kind, filter, start, pageSize),
    queryFn: () => fetchPurchases(kind, filter, start, pageSize),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function usePurchase(offlineId: number | null, enabled = true) {
  return useQuery({
    queryKey: offlineKeys.detail(offlineId ?? 0),
    queryFn: () => fetchPurchase(offlineId!),
    enabled: offlineId !== null && enabled,
  });
}

export function usePackageChoices(enabled: boolean) {
  return useQuery({ queryKey: offlineKeys.packages, queryFn: fetchPackageChoices, enabled, staleTime: 60_000 });
}

export function useLevelChoices(packageId: number | null) {
  return useQuery({
    queryKey: offlineKeys.levels(packageId ?? 0),
    queryFn: () => fetchLevelChoices(packageId!),
    enabled: packageId !== null,
    staleTime: 60_000,
  });
}

/** Whatever a change did, the lists and the purchase are read again. */
function useOfflineMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: offlineKeys.all }) });
}

export const useRecordPurchase = () => useOfflineMutation(recordPurchase);
export const useDeletePurchase = () => useOfflineMutation(deletePurchase);

/** The answer is the purchase as reviewed: kept as its detail, which a reviewer without order.offlinebuy:detail cannot read. */
export function useReviewPurchase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ offlineId, approve, note }: { offlineId: number; approve: boolean; note: string }) =>
      reviewPurchase(offlineId, approve, note),
    onSuccess: (detail) => queryClient.setQueryData(offlineKeys.detail(detail.offlineId), detail),
    onSettled: () => queryClient.invalidateQueries({ queryKey: offlineKeys.all }),
  });
}

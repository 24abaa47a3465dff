/**
 * Promotions of the back office (order.servicePackage), under /payment beside the customer's calls:
 * activities (PayActivity/selectPackageActivity, get/model, selectServicePackageActivity,
 * insertActivity, PUT update, DELETE delete, enableActivity, stopActivity, copyActivity,
 * selectRechargeListByActivity, exportRechargeList), their target accounts
 * (PayActivityAccountRel/selectListByDomain), what was paid at their price
 * (activity/PayActivityDeposit/selectDepositList), and SMS/voice packages (PaySmsPackages/
 * selectSmsPackageList, insert, PUT update, DELETE delete, sortPackage, importSmsPackages and its template),
 * and what was sold over a period (PayServicePackages/selectDepositView, PaySmsPackages/selectDepositView).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { pageOf } from '@/lib/api/page';
import { api } from '@/lib/http/index';
import { saveFile } from '@/lib/saveFile';

/** The server's bounds (src/core/promotions/model.py). */
export const PROMOTION_LIMITS = { name: 20, bonusMonths: 120, perKind: 5, sheetBytes: 256 * 1024, search: 50 } as const;
/** 1 public (every customer), 2 directional (its target accounts only). */
export const NATURES = [1, 2] as const;
/** 1 SMS, 2 voice. */
export type AlertKind = 1 | 2;
export const CURRENCIES = ['CNY', 'USD'] as const;

const namesSchema = z.record(z.string(), z.string());

export const targetAccountSchema = z.object({
  id: z.number(),
  userName: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
});
export type TargetAccount = z.infer<typeof targetAccountSchema>;

export const activitySchema = z.object({
  id: z.number(),
  name: z.string(),
  defaultName: z.string(),
  names: namesSchema,
  nature: z.number(),
  /** 1 enabled, 0 stopped. */
  status: z.number(),
  startTime: z.string(),
  endTime: z.string(),
  createdAt: z.string(),
  options: z.array(z.object({ levelYearId: z.number(), activityDiscount: z.number(), presentationMonth: z.number() })),
  accounts: z.array(targetAccountSchema),
});
export type Activity = z.infer<typeof activitySchema>;
export const activityPageSchema = pageOf(activitySchema);

export const optionLabelSchema = z.object({
  levelYearId: z.number(),
  packageId: z.number(),
  packageName: z.string(),
  levelId: z.number(),
  levelName: z.string(),
  timeLength: z.number(),
  currency: z.string(),
  serviceFee: z.number(),
  discount: z.number(),
});
export type OptionLabel = z.infer<typeof optionLabelSchema>;

export const activityOrderSchema = z.object({
  orderId: z.number(),
  orderCode: z.string(),
  userName: z.string(),
  orderDescription: z.string(),
  currency: z.string(),
  orderFee: z.number(),
  payFee: z.number().nullable(),
  payStatus: z.number(),
  payType: z.number(),
  deviceCount: z.number(),
  gmtCreate: z.string(),
  payTime: z.string().nullable(),
});
export const activityOrderPageSchema = pageOf(activityOrderSchema);

export const depositSchema = z.object({
  activityId: z.number(),
  name: z.string(),
  nature: z.number(),
  status: z.number(),
  startTime: z.string(),
  endTime: z.string(),
  paidOrders: z.number(),
  paidFees: z.record(z.string(), z.number()),
});
export const depositPageSchema = pageOf(depositSchema);

const paidFeesSchema = z.record(z.string(), z.number());
const periodSchema = z.object({ startTime: z.string(), endTime: z.string() });
export const serviceDepositViewSchema = z.object({
  period: periodSchema,
  rows: z.array(z.object({
    levelYearId: z.number(),
    packageId: z.number().nullable(),
    packageName: z.string().nullable(),
    levelId: z.number().nullable(),
    levelName: z.string().nullable(),
    timeLength: z.number().nullable(),
    orders: z.number(),
    devices: z.number(),
    paidFees: paidFeesSchema,
  })),
  orders: z.number(),
  paidFees: paidFeesSchema,
});
export type ServiceDepositView = z.infer<typeof serviceDepositViewSchema>;
export const alertDepositViewSchema = z.object({
  period: periodSchema,
  rows: z.array(z.object({
    countryCode: z.string(),
    orders: z.number(),
    devices: z.number(),
    smsCount: z.number(),
    voiceCount: z.number(),
    paidFees: paidFeesSchema,
  })),
  orders: z.number(),
  paidFees: paidFeesSchema,
});
export type AlertDepositView = z.infer<typeof alertDepositViewSchema>;
/** Orders paid from `startTime` until `endTime` (excluded), local times read in the caller's zone. */
export interface SalesPeriod { startTime: string; endTime: string }

export const alertPackageAdminSchema = z.object({
  packageId: z.number(),
  kind: z.number(),
  countryCode: z.string(),
  packageName: z.string(),
  defaultName: z.string(),
  names: namesSchema,
  packageFee: z.number(),
  currency: z.string(),
  smsCount: z.number(),
  discount: z.number(),
  status: z.number(),
  sort: z.number(),
});
export type AlertPackageAdmin = z.infer<typeof alertPackageAdminSchema>;

export const importReportSchema = z.object({
  rows: z.array(z.object({
    row: z.number(),
    packageName: z.string(),
    added: z.boolean(),
    packageId: z.number().nullable(),
    field: z.string().nullable(),
    message: z.string().nullable(),
  })),
  added: z.number(),
  refused: z.number(),
});
export type ImportReport = z.infer<typeof importReportSchema>;

export interface ActivityFields {
  name: string;
  names: Record<string, string>;
  nature: number;
  startTime: string;
  endTime: string;
  options: { levelYearId: number; activityDiscount: number; presentationMonth: number }[];
  accountIds: number[];
}

export interface AlertFields {
  kind: number;
  countryCode: string;
  packageName: string;
  names: Record<string, string>;
  packageFee: number;
  currency: string;
  smsCount: number;
  discount: number;
  status: number;
}

export const promotionKeys = {
  all: ['promotions'] as const,
  activities: (name: string, start: number, pageSize: number) => ['promotions', 'activities', name, start, pageSize] as const,
  options: ['promotions', 'options'] as const,
  orders: (id: number, start: number) => ['promotions', 'orders', id, start] as const,
  alerts: (countryCode: string, kind: AlertKind) => ['promotions', 'alerts', countryCode, kind] as const,
  accounts: (text: string) => ['promotions', 'accounts', text] as const,
  sales: (what: 'service' | 'sms', period: SalesPeriod) => ['promotions', 'sales', what, period] as const,
  deposits: (start: number) => ['promotions', 'deposits', start] as const,
};

export async function fetchActivities(name: string, start: number, pageSize: number) {
  return activityPageSchema.parse(await api.post('/payment/PayActivity/selectPackageActivity', {
    start, pageSize, ...(name ? { name } : {}),
  }));
}

export async function fetchActivityOptions() {
  return z.array(optionLabelSchema).parse(await api.get('/payment/PayActivity/selectServicePackageActivity'));
}

export async function searchAccounts(text: string) {
  return z.array(targetAccountSchema).parse(await api.post('/payment/PayActivityAccountRel/selectListByDomain', { text }));
}

/** Refusals are left to the form (silent). */
export async function saveActivity(fields: ActivityFields, id: number | null) {
  const saved = id === null
    ? await api.post('/payment/PayActivity/insertActivity', fields, { silent: true })
    : await api.put('/payment/PayActivity/update', { ...fields, id }, { silent: true });
  return activitySchema.parse(saved);
}

export async function deleteActivity(id: number) {
  await api.delete('/payment/PayActivity/delete', { params: { id } });
}

export async function enableActivity(id: number) {
  return activitySchema.parse(await api.post('/payment/PayActivity/enableActivity', { id }));
}

export async function stopActivity(id: number) {
  return activitySchema.parse(await api.post('/payment/PayActivity/stopActivity', { id }));
}

export async function copyActivity(id: number) {
  return activitySchema.parse(await api.post('/payment/PayActivity/copyActivity', { id }));
}

export async function fetchActivityOrders(id: number, start: number, pageSize: number) {
  return activityOrderPageSchema.parse(await api.post('/payment/PayActivity/selectRechargeListByActivity', { id, start, pageSize }));
}

export async function exportActivityOrders(id: number) {
  const file = await api.download('/payment/PayActivity/exportRechargeList', { method: 'POST', body: { id } });
  saveFile(file.blob, file.fileName ?? 'activity-orders.xlsx');
}

export async function fetchDeposits(start: number, pageSize: number) {
  return depositPageSchema.parse(await api.post('/payment/activity/PayActivityDeposit/selectDepositList', { start, pageSize }));
}

export async function fetchServiceSales(period: SalesPeriod) {
  return serviceDepositViewSchema.parse(await api.post('/payment/PayServicePackages/selectDepositView', period));
}

export async function fetchAlertSales(period: SalesPeriod) {
  return alertDepositViewSchema.parse(await api.post('/payment/PaySmsPackages/selectDepositView', period));
}

export async function fetchAlertPackages(countryCode: string, kind: AlertKind) {
  return z.array(alertPackageAdminSchema).parse(await api.post('/payment/PaySmsPackages/selectSmsPackageList', {
    kind, ...(countryCode ? { countryCode } : {}),
  }));
}

/** Refusals are left to the form (silent). */
export async function saveAlertPackage(fields: AlertFields, packageId: number | null) {
  const saved = packageId === null
    ? await api.post('/payment/PaySmsPackages/insert', fields, { silent: true })
    : await api.put('/payment/PaySmsPackages/update', { ...fields, packageId }, { silent: true });
  return alertPackageAdminSchema.parse(saved);
}

export async function deleteAlertPackage(packageId: number) {
  await api.delete('/payment/PaySmsPackages/delete', { params: { packageId } });
}

export async function sortAlertPackages(countryCode: string, kind: AlertKind, ids: number[]) {
  return z.array(alertPackageAdminSchema).parse(await api.post('/payment/PaySmsPackages/sortPackage', { countryCode, kind, ids }));
}

/** Refusals of the whole file (422 on `file`) are left to the dialog (silent). */
export async function importAlertPackages(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return importReportSchema.parse(await api.post('/payment/PaySmsPackages/importSmsPackages', form, { silent: true }));
}

export async function downloadAlertTemplate() {
  const file = await api.download('/payment/PaySmsPackages/importSmsPackages/template');
  saveFile(file.blob, file.fileName ?? 'sms-packages.xlsx');
}

export function useActivities(name: string, start: number, pageSize: number) {
  return useQuery({
    queryKey: promotionKeys.activities(name, start, pageSize),
    queryFn: () => fetchActivities(name, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useActivityOptions() {
  return useQuery({ queryKey: promotionKeys.options, queryFn: fetchActivityOptions, staleTime: 60_000 });
}

export function useActivityOrders(id: number | null, start: number, pageSize: number) {
  return useQuery({
    queryKey: promotionKeys.orders(id ?? 0, start),
    queryFn: () => fetchActivityOrders(id!, start, pageSize),
    enabled: id !== null,
  });
}

export function useAccountSearch(text: string) {
  return useQuery({
    queryKey: promotionKeys.accounts(text),
    queryFn: () => searchAccounts(text),
    enabled: text.trim().length > 0,
    staleTime: 30_000,
  });
}

export function useAlertPackages(countryCode: string, kind: AlertKind) {
  return useQuery({ queryKey: promotionKeys.alerts(countryCode, kind), queryFn: () => fetchAlertPackages(countryCode, kind) });
}

export function useSales(period: SalesPeriod | null) {
  const service = useQuery({
    queryKey: promotionKeys.sales('service', period ?? { startTime: '', endTime: '' }),
    queryFn: () => fetchServiceSales(period!),
    enabled: period !== null,
    placeholderData: keepPreviousData,
  });
  const sms = useQuery({
    queryKey: promotionKeys.sales('sms', period ?? { startTime: '', endTime: '' }),
    queryFn: () => fetchAlertSales(period!),
    enabled: period !== null,
    placeholderData: keepPreviousData,
  });
  return { service, sms };
}

export function useDeposits(start: number, pageSize: number) {
  return useQuery({ queryKey: promotionKeys.deposits(start), queryFn: () => fetchDeposits(start, pageSize),
    placeholderData: keepPreviousData });
}

/** Every change: the lists are stale after it, whatever the outcome. */
export function usePromotionChange<A, R>(change: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: change, onSettled: () => queryClient.invalidateQueries({ queryKey: promotionKeys.all }) });
}

/**
 * Waybills (/waybill/list, /waybill/detail/:waybillPk): trips of goods watched by the owner's devices.
 * POST /device/Waybill/page lists them (keyword, state, device), GET .../get gives one, POST .../insert and
 * PUT .../update save one, DELETE .../delete?id= removes it, POST .../updateState starts or finishes it by
 * hand, POST .../batchBind and .../unbind put devices on and off it, GET .../report answers the trip report
 * (figures per device, excursions, chart points), GET .../reportPdf the same as a PDF, POST .../export the
 * filtered list as XLSX, and POST .../share, GET .../shareList, POST .../shareRevoke handle the links for a
 * receiver. /device/WaybillTemplate/* keep particulars to fill new waybills with.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { fdaKeys } from '@/lib/api/fda';
import { pageOf } from '@/lib/api/page';
import { positionSchema } from '@/lib/api/devices';
import { api } from '@/lib/http/index';

/** The server's bounds (src/core/waybills/model.py). */
export const WAYBILL_LIMITS = {
  short: 20, express: 100, phone: 20, address: 200, email: 100, contacts: 10, templateName: 32, bind: 200,
  temperature: 200,
} as const;

export const WAYBILL_STATES = [0, 1, 2] as const;
export type WaybillState = (typeof WAYBILL_STATES)[number];
export const SHARE_VALIDITIES = ['8h', '1d', '3d', '7d', 'custom'] as const;
export type ShareValidity = (typeof SHARE_VALIDITIES)[number];

export const contactSchema = z.object({ name: z.string(), phone: z.string().nullable().optional(), email: z.string().nullable().optional() });
const particulars = {
  orderNum: z.string().nullish(),
  goodsName: z.string().nullish(),
  expressNumber: z.string().nullish(),
  coolerCode: z.string().nullish(),
  upperLimit: z.number().nullish(),
  lowerLimit: z.number().nullish(),
  senderName: z.string().nullish(),
  senderPhone: z.string().nullish(),
  senderAddress: z.string().nullish(),
  receiverName: z.string().nullish(),
  receiverPhone: z.string().nullish(),
  receiverAddress: z.string().nullish(),
  alarmContacts: z.array(contactSchema).optional(),
  startTime: z.string().nullish(),
  stopTime: z.string().nullish(),
  originFenceId: z.number().nullish(),
  destinationFenceId: z.number().nullish(),
};
export const waybillDeviceSchema = z.object({ deviceId: z.number(), deviceName: z.string(), deviceGuid: z.string() });
export const waybillSchema = z.object({
  ...particulars,
  id: z.number(),
  /** 0 not started, 1 in progress, 2 finished. */
  state: z.number(),
  startedAt: z.string().nullish(),
  finishedAt: z.string().nullish(),
  createdAt: z.string(),
  organizationId: z.number().nullish(),
  /** The caller may change it (false: a read-only member of its organization, a sharee). */
  changeable: z.boolean(),
  devices: z.array(waybillDeviceSchema),
});
export const waybillDetailSchema = waybillSchema.extend({
  corrected: z.boolean(),
  spanStart: z.string().nullish(),
  spanEnd: z.string().nullish(),
  alarmCount: z.number(),
});
export const waybillPageSchema = pageOf(waybillSchema);
export const alarmCountSchema = z.object({ alarmCount: z.number() });
export const excursionSchema = z.object({
  above: z.boolean(), start: z.string(), end: z.string(), seconds: z.number(), extreme: z.number(),
});
export const deviceFiguresSchema = z.object({
  deviceName: z.string(),
  count: z.number(),
  minimum: z.number().nullish(),
  maximum: z.number().nullish(),
  mean: z.number().nullish(),
  mkt: z.number().nullish(),
  outOfRangeSeconds: z.number(),
  excursions: z.array(excursionSchema),
  points: z.array(z.object({ ts: z.string(), t: z.number() })),
  /** Its positions in time order (thinned by the server); an answer from before routes has none. */
  route: z.array(positionSchema).default([]),
});
export const ownerTripSchema = z.object({
  orderNum: z.string().nullish(),
  goodsName: z.string().nullish(),
  state: z.number(),
  upperLimit: z.number().nullish(),
  lowerLimit: z.number().nullish(),
  startedAt: z.string().nullish(),
  finishedAt: z.string().nullish(),
  corrected: z.boolean(),
  spanStart: z.string().nullish(),
  spanEnd: z.string().nullish(),
  alarmCount: z.number(),
  deltaH: z.number(),
  verificationCode: z.string(),
  devices: z.array(deviceFiguresSchema),
  waybill: waybillDetailSchema,
});
export const shareLinkSchema = z.object({
  shareId: z.number(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullish(),
  active: z.boolean(),
  opens: z.array(z.object({ at: z.string(), address: z.string().nullish() })),
});
export const shareLinksSchema = z.array(shareLinkSchema);
/** The token comes once: the server keeps only its digest. */
export const newShareLinkSchema = shareLinkSchema.extend({ token: z.string() });
export const waybillTemplateSchema = z.object({ ...particulars, id: z.number(), templateName: z.string(), createdAt: z.string() });
export const waybillTemplatePageSchema = pageOf(waybillTemplateSchema);

export type Waybill = z.infer<typeof waybillSchema>;
export type WaybillDetail = z.infer<typeof waybillDetailSchema>;
export type OwnerTrip = z.infer<typeof ownerTripSchema>;
export type DeviceFigures = z.infer<typeof deviceFiguresSchema>;
export type ShareLink = z.infer<typeof shareLinkSchema>;
export type NewShareLink = z.infer<typeof newShareLinkSchema>;
export type WaybillTemplate = z.infer<typeof waybillTemplateSchema>;
export type Contact = z.infer<typeof contactSchema>;

/** What insert, update and the templates take. */
export interface WaybillFields {
  orderNum: string | null;
  goodsName: string | null;
  expressNumber: string | null;
  coolerCode: string | null;
  upperLimit: number | null;
  lowerLimit: number | null;
  senderName: string | null;
  senderPhone: string | null;
  senderAddress: string | null;
  receiverName: string | null;
  receiverPhone: string | null;
  receiverAddress: string | null;
  alarmContacts: { name: string; phone: string | null; email: string | null }[];
  /** ISO 8601 with an offset. */
  startTime: string | null;
  stopTime: string | null;
  /** The trip starts when its devices leave this fence, and finishes when they enter the destination. */
  originFenceId: number | null;
  destinationFenceId: number | null;
}

export interface WaybillFilter {
  keyword: string;
  state: WaybillState | null;
}

/** The list's filters as the server takes them: an empty keyword or no state is left out. */
export function filterBody(filter: WaybillFilter) {
  const keyword = filter.keyword.trim();
  return { ...(keyword ? { keyword } : {}), ...(filter.state !== null ? { state: filter.state } : {}) };
}

export const waybillKeys = {
  all: ['waybills'] as const,
  page: (filter: WaybillFilter, start: number, pageSize: number) => ['waybills', 'page', filter, start, pageSize] as const,
  one: (id: number) => ['waybills', 'one', id] as const,
  report: (id: number) => ['waybills', 'report', id] as const,
  shares: (id: number) => ['waybills', 'shares', id] as const,
  templates: ['waybills', 'templates'] as const,
};

export async function fetchWaybills(filter: WaybillFilter, start: number, pageSize: number) {
  return waybillPageSchema.parse(await api.post('/device/Waybill/page', { start, pageSize, ...filterBody(filter) }));
}

export async function fetchWaybill(id: number): Promise<WaybillDetail> {
  return waybillDetailSchema.parse(await api.get('/device/Waybill/get', { params: { id }, silent: true }));
}

/** Refusals of a field are left to the form: silent. */
export async function saveWaybill(fields: WaybillFields, id?: number): Promise<WaybillDetail> {
  return waybillDetailSchema.parse(id === undefined
    ? await api.post('/device/Waybill/insert', fields, { silent: true })
    : await api.put('/device/Waybill/update', { ...fields, id }, { silent: true }));
}

export async function deleteWaybill(id: number): Promise<void> {
  await api.delete('/device/Waybill/delete', { params: { id } });
}

export async function setWaybillState(id: number, state: 1 | 2): Promise<WaybillDetail> {
  return waybillDetailSchema.parse(await api.post('/device/Waybill/updateState', { id, state }));
}

export async function bindWaybillDevices(id: number, deviceIds: readonly number[]): Promise<WaybillDetail> {
  return waybillDetailSchema.parse(await api.post('/device/Waybill/batchBind', { id, deviceIds }));
}

export async function unbindWaybillDevices(id: number, deviceIds: readonly number[]): Promise<WaybillDetail> {
  return waybillDetailSchema.parse(await api.post('/device/Waybill/unbind', { id, deviceIds }));
}

export async function fetchTrip(id: number): Promise<OwnerTrip> {
  return ownerTripSchema.parse(await api.get('/device/Waybill/report', { params: { id } }));
}

export function downloadReportPdf(id: number) {
  return api.download('/device/Waybill/reportPdf', { params: { id } });
}

export function exportWaybills(filter: WaybillFilter) {
  return api.download('/device/Waybill/export', { method: 'POST', body: filterBody(filter) });
}

export async function shareWaybill(id: number, validity: ShareValidity, endTime: string | null): Promise<NewShareLink> {
  return newShareLinkSchema.parse(await api.post('/device/Waybill/share', {
    id, validity, ...(validity === 'custom' ? { endTime } : {}),
  }));
}

export async function fetchShareLinks(id: number): Promise<ShareLink[]> {
  return shareLinksSchema.parse(await api.get('/device/Waybill/shareList', { params: { id } }));
}

export async function revokeShareLink(shareId: number): Promise<void> {
  await api.post('/device/Waybill/shareRevoke', { shareId });
}

export async function fetchTemplates() {
  return waybillTemplatePageSchema.parse(await api.post('/device/WaybillTemplate/page', { start: 1, pageSize: 100 }));
}

export async function saveTemplate(templateName: string, fields: WaybillFields): Promise<WaybillTemplate> {
  return waybillTemplateSchema.parse(await api.post('/device/WaybillTemplate/insert', { ...fields, templateName }, { silent: true }));
}

export function useWaybills(filter: WaybillFilter, start: number, pageSize: number) {
  return useQuery({
    queryKey: waybillKeys.page(filter, start, pageSize),
    queryFn: () => fetchWaybills(filter, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useWaybill(id: number) {
  return useQuery({ queryKey: waybillKeys.one(id), queryFn: () => fetchWaybill(id), retry: false });
}

export function useTrip(id: number, enabled: boolean) {
  return useQuery({ queryKey: waybillKeys.report(id), queryFn: () => fetchTrip(id), retry: false, enabled });
}

export function useShareLinks(id: number, enabled: boolean) {
  return useQuery({ queryKey: waybillKeys.shares(id), queryFn: () => fetchShareLinks(id), enabled });
}

export function useTemplates(enabled = true) {
  return useQuery({ queryKey: waybillKeys.templates, queryFn: fetchTemplates, enabled });
}

/** After any change the list, the waybill, its report and whether its signatures still apply are stale. */
function useInvalidate() {
  const queryClient = useQueryClient();
  return () => Promise.all([
    queryClient.invalidateQueries({ queryKey: waybillKeys.all }),
    queryClient.invalidateQueries({ queryKey: fdaKeys.records('waybill') }),
  ]);
}

export function useSaveWaybill() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async ({ fields, id, deviceIds }: { fields: WaybillFields; id?: number; deviceIds?: readonly number[] }) => {
      const saved = await saveWaybill(fields, id);
      // The devices bound here go on after the particulars; those taken off go off.
      if (deviceIds === undefined) return saved;
      const before = new Set(saved.devices.map((d) => d.deviceId));
      const added = deviceIds.filter((d) => !before.has(d));
      const removed = [...before].filter((d) => !deviceIds.includes(d));
      let result = saved;
      if (removed.length) result = await unbindWaybillDevices(saved.id, removed);
      if (added.length) result = await bindWaybillDevices(saved.id, added);
      return result;
    },
    onSettled: invalidate,
  });
}

export function useDeleteWaybill() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: deleteWaybill, onSettled: invalidate });
}

export function useSetWaybillState() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, state }: { id: number; state: 1 | 2 }) => setWaybillState(id, state),
    onSettled: invalidate,
  });
}

export function useShareWaybill() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, validity, endTime }: { id: number; validity: ShareValidity; endTime: string | null }) =>
      shareWaybill(id, validity, endTime),
    onSettled: invalidate,
  });
}

export function useRevokeShareLink() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: revokeShareLink, onSettled: invalidate });
}

export function useSaveTemplate() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ name, fields }: { name: string; fields: WaybillFields }) => saveTemplate(name, fields),
    onSettled: invalidate,
  });
}

export async function fetchAlarmCount(id: number): Promise<number> {
  return alarmCountSchema.parse(await api.get('/device/Waybill/alarmCount', { params: { id }, silent: true })).alarmCount;
}

/** Alarms a waybill's devices raised on the trip; undefined while it is asked (or when it failed). */
export function useAlarmCount(id: number): number | undefined {
  return useQuery({ queryKey: ['waybills', 'alarms', id], queryFn: () => fetchAlarmCount(id), staleTime: 30_000 }).data;
}

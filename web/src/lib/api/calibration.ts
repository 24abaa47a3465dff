/**
 * The calibration service's customer calls (issue 21; spec 001 section 7, /calibration/...): the
 * price list, applying, the own list, one application, its tracking number, details and invoice,
 * cancelling and the certificates.
 *
 * A customer without an account names an application by its number and proves it with the access
 * token `apply` answered once: kept here per application (localStorage) and sent in the
 * X-Calibration-Token header, never in the URL (the server's rule: a URL is logged everywhere).
 *
 * Payment and the PDFs are at the end of this file, in one place: their server calls were being
 * built beside this client (payments.py, documents.py) and may need adjusting once merged.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http/index';
import { getToken, KEYS, read } from '@/lib/storage';
import { pageOf } from './page';

/** The server's bounds (src/core/calibration/rules.py, core/shared/text.py). */
export const CALIBRATION_LIMITS = {
  name: 100, contactName: 30, phone: 20, email: 100, address: 200, remark: 200, model: 50, serial: 50,
  pointsNote: 200, taxNumber: 20, items: 50,
} as const;

export const SERVICES = [1, 2, 3] as const;
export type ServiceId = (typeof SERVICES)[number];
/** Service 2 (extra points) names which points in pointsNote. */
export const EXTRA_POINTS: ServiceId = 2;
export const INVOICE_PERSONAL = 1;
export const INVOICE_ENTERPRISE = 2;

/** The status ladder (core/calibration/model.py Status); above RETURNED is cancelled. */
export const STATUS = {
  submitted: 1, paid: 2, awaitingDevices: 3, received: 4, inCalibration: 5, returned: 6, cancelledByCustomer: 7,
  cancelledByLab: 8,
} as const;
export const LADDER = [1, 2, 3, 4, 5, 6] as const;
export const isCancelled = (status: number): boolean => status > STATUS.returned;

export const priceSchema = z.object({
  deviceTypeId: z.number(),
  /** The type's published name; null when the type is not published. */
  typeName: z.string().nullable(),
  service: z.number(),
  currency: z.string(),
  price: z.number(),
});
export type Price = z.infer<typeof priceSchema>;

export const lineSchema = z.object({
  index: z.number(),
  service: z.number(),
  deviceTypeId: z.number(),
  model: z.string(),
  /** The serial number, or the console device's GUID. */
  serial: z.string(),
  price: z.number(),
  deviceId: z.number().nullable(),
  pointsNote: z.string().nullable(),
});
export type Line = z.infer<typeof lineSchema>;

export const invoiceSchema = z.object({
  invoiceType: z.number(),
  invoiceTitle: z.string(),
  taxNumber: z.string().nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** The application's base info: null for who reads by number and contact only. */
export const detailsSchema = z.object({
  customerName: z.string().nullable(),
  contactName: z.string(),
  contactPhone: z.string().nullable(),
  contactEmail: z.string().nullable(),
  returnAddress: z.string().nullable(),
  customerAddress: z.string().nullable(),
  remark: z.string().nullable(),
  invoice: invoiceSchema.nullable(),
});
export type Details = z.infer<typeof detailsSchema>;

export const applicationSchema = z.object({
  /** Null for a customer without an account: they name it by its number. */
  applicationId: z.number().nullable(),
  applicationNumber: z.string(),
  status: z.number(),
  quickOrder: z.boolean(),
  handled: z.boolean(),
  currency: z.string(),
  totalFee: z.number(),
  paidFee: z.number(),
  refundFee: z.number(),
  refundState: z.number(),
  inboundTracking: z.string().nullable(),
  outboundTracking: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  paidAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  devices: z.array(lineSchema),
  details: detailsSchema.nullable(),
});
export type Application = z.infer<typeof applicationSchema>;

export const appliedSchema = applicationSchema.extend({
  /** A customer without an account's, given this once. */
  accessToken: z.string().nullable(),
});
export const applicationPageSchema = pageOf(applicationSchema);
export const cancelCheckSchema = z.object({
  possible: z.boolean(),
  reason: z.number().nullable(),
  refundFee: z.number(),
});
export type CancelCheck = z.infer<typeof cancelCheckSchema>;

export const certificateSchema = z.object({
  certificateId: z.number(),
  applicationId: z.number().nullable(),
  lineIndex: z.number(),
  version: z.number(),
  /** 1 draft, 2 issued, 3 superseded. */
  status: z.number(),
  number: z.string().nullable(),
  reference: z.string().nullable(),
  issuedOn: z.string().nullable(),
  supersededAt: z.string().nullable(),
  amendment: z.string().nullable(),
  verdict: z.string().nullable(),
  content: z.record(z.string(), z.unknown()),
});
export type Certificate = z.infer<typeof certificateSchema>;

// --- what proves an application without an account -----------------------------------------------

const ACCESS_KEY = 'jc__calibrationAccess';

interface Access {
  token: string;
  /** When it was kept: the list shows the newest first. */
  at: number;
}

function accesses(): Record<string, Access> {
  try {
    const parsed = JSON.parse(localStorage.getItem(ACCESS_KEY) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, Access>) : {};
  } catch {
    return {};
  }
}

/** Keeps the token `apply` gave for `number` (it is shown only once). */
export function rememberAccess(number: string, token: string, now = Date.now()): void {
  localStorage.setItem(ACCESS_KEY, JSON.stringify({ ...accesses(), [number.toUpperCase()]: { token, at: now } }));
}

export function accessTokenOf(number: string): string | null {
  return accesses()[number.toUpperCase()]?.token ?? null;
}

/** The numbers of the applications this browser made without an account, newest first. */
export function rememberedNumbers(): string[] {
  return Object.entries(accesses()).sort(([, a], [, b]) => b.at - a.at).map(([number]) => number);
}

/** Logged in: the console's token is sent (the client adds it) and applications are named by id. */
export const signedIn = (): boolean => getToken() !== null;

/** An application as a call names it, with the header that proves it when named by number. */
export interface Ref {
  applicationId?: number | null;
  applicationNumber?: string | null;
}

function named(ref: Ref): { body: Record<string, string | number>; headers: Record<string, string> } {
  if (ref.applicationId) return { body: { applicationId: ref.applicationId }, headers: {} };
  const number = ref.applicationNumber ?? '';
  const token = accessTokenOf(number);
  return { body: { applicationNumber: number }, headers: token ? { 'X-Calibration-Token': token } : {} };
}

/** How an application is named once read: by id when the caller has one, else by number. */
export const refOf = (a: Pick<Application, 'applicationId' | 'applicationNumber'>): Ref =>
  a.applicationId ? { applicationId: a.applicationId } : { applicationNumber: a.applicationNumber };

// --- calls ----------------------------------------------------------------------------------------

export interface ApplyDevice {
  service: number;
  deviceId?: number;
  guid?: string;
  deviceTypeId?: number;
  model?: string;
  serialNumber?: string;
  pointsNote?: string | null;
}

export interface ApplyBody {
  customerName: string | null;
  contactName: string;
  contactPhone: string | null;
  contactEmail: string | null;
  returnAddress: string | null;
  customerAddress: string | null;
  remark: string | null;
  invoice: Invoice | null;
  devices: ApplyDevice[];
  /** The total shown: refused (409) when the server's differs. */
  totalFee?: number;
}

export type BaseInfo = Omit<ApplyBody, 'invoice' | 'devices' | 'totalFee'>;

export interface ListQuery {
  start: number;
  pageSize: number;
  applicationNumber?: string;
  status?: number;
}

export const calibrationKeys = {
  all: ['calibration'] as const,
  prices: ['calibration', 'prices'] as const,
  page: (query: ListQuery) => ['calibration', 'page', query] as const,
  one: (ref: Ref) => ['calibration', 'one', ref.applicationId ?? ref.applicationNumber] as const,
  invoice: (ref: Ref) => ['calibration', 'invoice', ref.applicationId ?? ref.applicationNumber] as const,
  certificates: (ref: Ref) => ['calibration', 'certificates', ref.applicationId ?? ref.applicationNumber] as const,
};

export async function fetchPrices(): Promise<Price[]> {
  return z.array(priceSchema).parse(await api.get('/calibration/PriceConf/get/price'));
}

/** Refusals are the form's to show: silent. The token of an application without an account is kept. */
export async function apply(body: ApplyBody) {
  const applied = appliedSchema.parse(await api.post('/calibration/Application/apply', body, { silent: true }));
  if (applied.accessToken) rememberAccess(applied.applicationNumber, applied.accessToken);
  return applied;
}

/** The lab's order taken on the phone or at the counter (its calibration admins only). */
export async function applyQuickOrder(body: ApplyBody & { accountId?: number }) {
  return appliedSchema.parse(await api.post('/calibration/Application/applyQuickOrder', body, { silent: true }));
}

export async function fetchOwnPage(query: ListQuery) {
  return applicationPageSchema.parse(await api.post('/calibration/Application/page/ApplicationOrder', query));
}

export async function fetchApplication(ref: Ref): Promise<Application> {
  const { body, headers } = named(ref);
  return applicationSchema.parse(await api.get('/calibration/Application/get/applicationInfo', {
    params: body, headers, silent: true,
  }));
}

export async function setTrackingNumber(ref: Ref, trackingNumber: string): Promise<Application> {
  const { body, headers } = named(ref);
  return applicationSchema.parse(await api.post('/calibration/Application/trackingNumber',
    { ...body, trackingNumber, outbound: false }, { headers, silent: true }));
}

export async function updateBaseInfo(ref: Ref, info: BaseInfo): Promise<Application> {
  const { body, headers } = named(ref);
  return applicationSchema.parse(await api.post('/calibration/Application/update/baseInfo', { ...body, ...info },
    { headers, silent: true }));
}

export async function updateInvoice(ref: Ref, invoice: Invoice | null): Promise<Application> {
  const { body, headers } = named(ref);
  return applicationSchema.parse(await api.post('/calibration/Application/update/invoice', { ...body, invoice },
    { headers, silent: true }));
}

export async function fetchInvoice(ref: Ref): Promise<Invoice | null> {
  const { body, headers } = named(ref);
  return invoiceSchema.nullable().parse(await api.get('/calibration/Application/getUserInvoice', {
    params: body, headers, silent: true,
  }));
}

export async function checkCancel(ref: Ref): Promise<CancelCheck> {
  const { body, headers } = named(ref);
  return cancelCheckSchema.parse(await api.post('/calibration/Application/cancel/check', body, { headers }));
}

export async function fetchCertificates(ref: Ref): Promise<Certificate[]> {
  const { body, headers } = named(ref);
  return z.array(certificateSchema).parse(await api.post('/calibration/ResultInfo/queryResultList', body,
    { headers, silent: true }));
}

// --- hooks ----------------------------------------------------------------------------------------

export function usePrices() {
  return useQuery({ queryKey: calibrationKeys.prices, queryFn: fetchPrices, staleTime: 60_000 });
}

export function useOwnPage(query: ListQuery, enabled = true) {
  return useQuery({ queryKey: calibrationKeys.page(query), queryFn: () => fetchOwnPage(query), enabled,
    placeholderData: keepPreviousData });
}

export function useApplication(ref: Ref | null) {
  return useQuery({
    queryKey: calibrationKeys.one(ref ?? {}),
    queryFn: () => fetchApplication(ref ?? {}),
    enabled: Boolean(ref?.applicationId || ref?.applicationNumber),
    retry: false,
  });
}

/** The applications this browser made without an account, each read with its token. */
export function useRememberedApplications(enabled: boolean) {
  return useQuery({
    queryKey: [...calibrationKeys.all, 'remembered'],
    queryFn: async () => {
      const found = await Promise.allSettled(rememberedNumbers().map((n) => fetchApplication({ applicationNumber: n })));
      return found.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    },
    enabled,
  });
}

export function useInvoice(ref: Ref | null) {
  return useQuery({ queryKey: calibrationKeys.invoice(ref ?? {}), queryFn: () => fetchInvoice(ref ?? {}),
    enabled: ref !== null });
}

export function useCertificates(ref: Ref | null) {
  return useQuery({ queryKey: calibrationKeys.certificates(ref ?? {}), queryFn: () => fetchCertificates(ref ?? {}),
    enabled: ref !== null });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: calibrationKeys.all });
}

export function useApply() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: apply, onSettled: invalidate });
}

export function useApplyQuickOrder() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: applyQuickOrder, onSettled: invalidate });
}

export function useSetTracking() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: ({ ref, number }: { ref: Ref; number: string }) => setTrackingNumber(ref, number),
    onSettled: invalidate });
}

export function useUpdateBaseInfo() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: ({ ref, info }: { ref: Ref; info: BaseInfo }) => updateBaseInfo(ref, info),
    onSettled: invalidate });
}

export function useUpdateInvoice() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: ({ ref, invoice }: { ref: Ref; invoice: Invoice | null }) => updateInvoice(ref, invoice),
    onSettled: invalidate });
}

export function useCancel() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: cancelApplication, onSettled: invalidate });
}

// --- payment, cancelling with a refund and the PDFs ---------------------------------------------
// POST /payment/payment/aliPay|wechatPay start a payment (src/entrypoints/api/calibration/payments.py);
// GET .../confirmCalibration is what the page the provider sends the payer back to asks;
// documents.py serves the order and the certificates as PDFs.

export type PayKind = 'aliPay' | 'wechatPay' | 'paypal';

/** A payment started: a QR code's content to scan (PC), a page to go to (phone), WeChat's sheet inside
 * WeChat (appId ... paySign for WeixinJSBridge), or a Stripe intent's secret (international edition). */
export const paymentSchema = z.object({
  applicationNumber: z.string(),
  payType: z.number(),
  scene: z.string(),
  totalFee: z.number(),
  currency: z.string(),
  payQrCode: z.string().optional(),
  approveUrl: z.string().optional(),
  clientSecret: z.string().optional(),
  appId: z.string().optional(),
  timeStamp: z.string().optional(),
  nonceStr: z.string().optional(),
  package: z.string().optional(),
  signType: z.string().optional(),
  paySign: z.string().optional(),
  payUrl: z.string().optional(),
});
export type Payment = z.infer<typeof paymentSchema>;

/** Where the payer is: a QR code on a PC; on a phone Alipay's mobile page, or WeChat's sheet inside
 * WeChat (with the OpenID the guard keeps), else WeChat's QR code to scan with another phone. */
const PAYPAL = 20;

function sceneOf(kind: Exclude<PayKind, 'paypal'>, mobile: boolean, openId: string | null): { scene: string; openId?: string } {
  if (!mobile) return { scene: 'native' };
  if (kind === 'aliPay') return { scene: 'wap' };
  return openId ? { scene: 'jsapi', openId } : { scene: 'native' };
}

/** Paying names the application by its number (an account's too), proved as every call by number is. */
export async function startPayment(kind: PayKind, applicationNumber: string, mobile: boolean): Promise<Payment> {
  const { body, headers } = named({ applicationNumber });
  if (kind === 'paypal') {  // the international edition's: approved on PayPal's page, back to the success page
    return paymentSchema.parse(await api.post('/payment/payment/calibrationPay', { ...body, payType: PAYPAL }, { headers }));
  }
  const openId = read<string | null>(KEYS.openId, null);
  return paymentSchema.parse(await api.post(`/payment/payment/${kind}`, { ...body, ...sceneOf(kind, mobile, openId) },
    { headers }));
}

/** Where the phone goes to pay: the provider's page, else the QR code's own link. */
export const payTarget = (payment: Payment): string | null =>
  payment.approveUrl ?? payment.payUrl ?? payment.payQrCode ?? null;

export const paidSchema = z.object({ paid: z.boolean(), application: applicationSchema });

/** Whether the application is paid (the provider asked once): the page the payer comes back to. */
export async function confirmPayment(ref: Ref): Promise<boolean> {
  const { body, headers } = named(ref);
  return paidSchema.parse(await api.get('/payment/payment/confirmCalibration', { params: body, headers })).paid;
}

export const cancelledSchema = z.object({ application: applicationSchema, refundFee: z.number(), refundState: z.number() });

export async function cancelApplication(ref: Ref): Promise<z.infer<typeof cancelledSchema>> {
  const { body, headers } = named(ref);
  return cancelledSchema.parse(await api.post('/calibration/Application/cancel/apply', body, { headers }));
}

export interface Pdf {
  blob: Blob;
  fileName: string | null;
}

/** The application's order form as a PDF. */
export function downloadOrderPdf(ref: Ref): Promise<Pdf> {
  const { body, headers } = named(ref);
  return api.download('/calibration/Application/download/order', { params: body, headers, silent: true });
}

/** A device's certificate as a PDF (one version, a superseded one marked so). */
export function downloadCertificatePdf(ref: Ref, certificateId: number): Promise<Pdf> {
  const { body, headers } = named(ref);
  return api.download('/calibration/ResultInfo/download/certificate', { params: { ...body, certificateId }, headers,
    silent: true });
}

/** Spec 000 sections 5 and 7: a file whose name is not .pdf is refused ('file failed'). */
export const isPdf = (pdf: Pdf): boolean => /\.pdf$/i.test(pdf.fileName ?? '');

/**
 * The calibration lab's calls (issue 21; spec 001 section 7, /calibration/...): everyone's
 * applications and the quick orders, one application with its devices, the status ladder, the
 * outbound tracking number, the report PDF, and each device's certificate (results entered or
 * imported, explained, issued, corrected); the price list. The server decides who is the lab from
 * the account's permission (calibration.admin.orders), never from the page's path.
 *
 * The customer's calls live in calibration.ts (another module): the types the lab needs are here.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  applicationSchema,
  detailsSchema,
  lineSchema,
  certificateSchema,
  priceSchema,
  type Application,
  type Certificate,
  type Details,
  type Line,
  type Price,
} from './calibration';
import { pageOf } from './page';
import { api } from '@/lib/http/index';

/** The lab's permission (the calibration admin role holds it). */
export const LAB_PERMISSION = 'calibration.admin.orders';

/** The status ladder (core.calibration.model.Status); above RETURNED is cancelled. */
export const STATUS = {
  submitted: 1, paid: 2, awaitingDevices: 3, received: 4, inCalibration: 5, returned: 6,
  cancelledByCustomer: 7, cancelledByLab: 8,
} as const;
export const STATUSES = [1, 2, 3, 4, 5, 6, 7, 8] as const;
export const isCancelled = (status: number) => status > STATUS.returned;

/** The next steps the lab may take from a status (the server's TRANSITIONS for the lab, without cancelling). */
export function labNextSteps(status: number, quickOrder: boolean): number[] {
  switch (status) {
    case STATUS.submitted: return quickOrder ? [STATUS.paid] : [];
    case STATUS.awaitingDevices: return [STATUS.received];
    case STATUS.received: return [STATUS.inCalibration];
    case STATUS.inCalibration: return [STATUS.returned];
    default: return [];
  }
}

/** The lab may cancel until the devices go back. */
export const labMayCancel = (status: number) => status <= STATUS.inCalibration;

export const CERTIFICATE_STATUS = { draft: 1, issued: 2, superseded: 3 } as const;

/** The server's bounds (src/core/calibration/rules.py). */
export const CALIBRATION_LIMITS = {
  name: 100, address: 200, contactName: 30, phone: 20, email: 100, remark: 200, typeModelSerial: 50,
  statement: 200, remarks: 1000, signatory: 50, points: 50, magnitude: 1_000_000, decimals: 6,
  labTemperature: [-10, 60], humidity: [0, 100], tracking: 40,
} as const;
export const UNITS = ['°C', '°F', '%RH'] as const;
export const DECISION_RULES = ['simple', 'guarded'] as const;

// The application as the customer's client reads it (one answer, one schema): the lab's names for it.
export const calibrationLineSchema = lineSchema;
export type CalibrationLine = Line;
export const labDetailsSchema = detailsSchema;
export type LabDetails = Details;
export const labApplicationSchema = applicationSchema;
export type LabApplication = Application;
export const labApplicationPageSchema = pageOf(labApplicationSchema);

const pointSchema = z.object({
  reference: z.string(),
  reading: z.string(),
  uncertainty: z.string(),
  unit: z.string(),
  tolerance: z.string().optional(),
  /** Computed by the server: reading - reference. */
  error: z.string().optional(),
});

/** What a certificate states (ISO/IEC 17025 7.8), numbers as text so no digit is lost. */
export const certificateContentSchema = z.object({
  labName: z.string(),
  /** 7.8.2.1 b; absent from content recorded before it was asked. */
  labAddress: z.string().nullish(),
  /** 7.8.4.1 c: how the results are metrologically traceable. */
  traceability: z.string().nullish(),
  customerName: z.string(),
  customerAddress: z.string().nullable(),
  itemType: z.string(),
  itemModel: z.string(),
  itemSerial: z.string(),
  conditionOnReceipt: z.string(),
  receivedOn: z.string(),
  calibratedOn: z.string(),
  method: z.string(),
  environment: z.object({ temperature: z.string(), humidity: z.string() }),
  decisionRule: z.string(),
  asFound: z.array(pointSchema),
  asLeft: z.array(pointSchema),
  authorisedBy: z.object({ name: z.string(), role: z.string() }),
  remarks: z.string().nullable(),
});
export type CertificateContent = z.infer<typeof certificateContentSchema>;

// A certificate as the customer's client reads it; its content with certificateContentSchema where shown.
export { certificateSchema, type Certificate };

/** A price as PriceConf/update/price answers it: the list's (lib/api/calibration) without the type's name. */
export const priceSetSchema = priceSchema.omit({ typeName: true });
export type { Price };

/** A point as the forms send it: numbers as text (exact), tolerance left out when empty. */
export interface PointInput {
  reference: string;
  reading: string;
  uncertainty: string;
  unit: string;
  tolerance?: string;
}

/** The body of ResultInfo/insert, update and correct (the content fields). */
export interface ContentInput {
  labName: string;
  labAddress?: string | null;
  traceability?: string | null;
  customerName: string;
  customerAddress?: string | null;
  itemType: string;
  itemModel: string;
  itemSerial: string;
  conditionOnReceipt: string;
  receivedOn: string;
  calibratedOn: string;
  method: string;
  environment: { temperature: string; humidity: string };
  decisionRule: string;
  asFound: PointInput[];
  asLeft: PointInput[];
  authorisedBy: { name: string; role: string };
  remarks?: string | null;
}

export interface LabListFilter {
  status: number | null;
  applicationNumber: string;
}

/** The base info the lab completes on a quick order. */
export interface QuickOrderDetails {
  customerName: string;
  contactName: string;
  contactPhone: string | null;
  contactEmail: string | null;
  returnAddress: string;
  customerAddress: string | null;
  remark: string | null;
}

export const labKeys = {
  all: ['calibrationLab'] as const,
  list: (kind: 'all' | 'quick', filter: LabListFilter, start: number, pageSize: number) =>
    ['calibrationLab', 'list', kind, filter, start, pageSize] as const,
  one: (id: number) => ['calibrationLab', 'one', id] as const,
  results: (id: number) => ['calibrationLab', 'results', id] as const,
  prices: ['calibrationLab', 'prices'] as const,
};

function listBody(filter: LabListFilter, start: number, pageSize: number) {
  return {
    start, pageSize,
    ...(filter.status !== null ? { status: filter.status } : {}),
    ...(filter.applicationNumber.trim() ? { applicationNumber: filter.applicationNumber.trim() } : {}),
  };
}

export async function fetchLabApplications(filter: LabListFilter, start: number, pageSize: number) {
  return labApplicationPageSchema.parse(
    await api.post('/calibration/Application/page/allApplicationOrder', listBody(filter, start, pageSize)));
}

export async function fetchQuickOrders(filter: LabListFilter, start: number, pageSize: number) {
  return labApplicationPageSchema.parse(
    await api.post('/calibration/Application/page/allQuickOrder', listBody(filter, start, pageSize)));
}

export async function fetchLabApplication(applicationId: number): Promise<LabApplication> {
  return labApplicationSchema.parse(
    await api.get('/calibration/Application/get/applicationInfo', { params: { applicationId }, silent: true }));
}

/** The lab reads an application by its number too (the order's QR code holds the number). */
export async function fetchLabApplicationByNumber(applicationNumber: string): Promise<LabApplication> {
  return labApplicationSchema.parse(
    await api.get('/calibration/Application/get/applicationInfo', { params: { applicationNumber }, silent: true }));
}

export async function changeStatus(applicationId: number, status: number): Promise<LabApplication> {
  return labApplicationSchema.parse(await api.post('/calibration/Application/applicationStatus', { applicationId, status }));
}

/** The lab's cancellation: cancel/apply (it pays back what was paid and not received). */
export async function cancelByLab(applicationId: number): Promise<void> {
  await api.post('/calibration/Application/cancel/apply', { applicationId });
}

/** Refusals (a wrong format) are left to the form: silent. */
export async function setOutboundTracking(applicationId: number, trackingNumber: string): Promise<LabApplication> {
  return labApplicationSchema.parse(await api.post('/calibration/Application/trackingNumber',
    { applicationId, trackingNumber, outbound: true }, { silent: true }));
}

/** The report PDF of an application (the one place that knows the upload's path). */
export async function uploadReport(applicationId: number, file: File): Promise<void> {
  const form = new FormData();
  form.append('applicationId', String(applicationId));
  form.append('file', file);
  await api.post('/calibration/Application/upload/report', form);
}

export async function downloadReport(applicationId: number) {
  return api.download('/calibration/Application/download/report', { params: { applicationId } });
}

export async function handleQuickOrder(applicationId: number, details: QuickOrderDetails): Promise<LabApplication> {
  return labApplicationSchema.parse(await api.post('/calibration/Application/handleQuickOrder',
    { applicationId, ...details }, { silent: true }));
}

export async function fetchResults(applicationId: number): Promise<Certificate[]> {
  return z.array(certificateSchema).parse(await api.post('/calibration/ResultInfo/queryResultList', { applicationId }));
}

/** A device's draft, new (insert) or changed (update); refusals go to the form (silent). */
export async function saveResult(applicationId: number, lineIndex: number, content: ContentInput, exists: boolean) {
  const body = { applicationId, lineIndex, ...content };
  return certificateSchema.parse(exists
    ? await api.put('/calibration/ResultInfo/update', body, { silent: true })
    : await api.post('/calibration/ResultInfo/insert', body, { silent: true }));
}

export async function importCertificate(applicationId: number, lineIndex: number, certificate: Record<string, unknown>) {
  return certificateSchema.parse(await api.post('/calibration/ResultInfo/importCert',
    { applicationId, lineIndex, certificate }, { silent: true }));
}

export async function explainResult(applicationId: number, lineIndex: number, explain: string) {
  return certificateSchema.parse(await api.post('/calibration/Application/result/explain',
    { applicationId, lineIndex, explain }, { silent: true }));
}

export async function issueCertificate(certificateId: number) {
  return certificateSchema.parse(await api.post('/calibration/ResultInfo/issue', { certificateId }));
}

export async function correctCertificate(certificateId: number, reason: string, content: ContentInput) {
  return certificateSchema.parse(await api.post('/calibration/ResultInfo/correct',
    { certificateId, reason, ...content }, { silent: true }));
}

export async function fetchPrices(): Promise<Price[]> {
  return z.array(priceSchema).parse(await api.get('/calibration/PriceConf/get/price'));
}

export async function updatePrice(price: Pick<Price, 'deviceTypeId' | 'service' | 'price'>) {
  return priceSetSchema.parse(await api.put('/calibration/PriceConf/update/price',
    { deviceTypeId: price.deviceTypeId, service: price.service, price: price.price }, { silent: true }));
}

// ---- hooks

export function useLabApplications(kind: 'all' | 'quick', filter: LabListFilter, start: number, pageSize: number) {
  return useQuery({
    queryKey: labKeys.list(kind, filter, start, pageSize),
    queryFn: () => (kind === 'quick' ? fetchQuickOrders : fetchLabApplications)(filter, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useLabApplication(applicationId: number | null) {
  return useQuery({
    queryKey: labKeys.one(applicationId ?? 0),
    queryFn: () => fetchLabApplication(applicationId ?? 0),
    enabled: applicationId !== null,
  });
}

export function useLabApplicationByNumber(applicationNumber: string | null) {
  return useQuery({
    queryKey: [...labKeys.all, 'byNumber', applicationNumber ?? ''] as const,
    queryFn: () => fetchLabApplicationByNumber(applicationNumber ?? ''),
    enabled: applicationNumber !== null,
    retry: false,
  });
}

export function useResults(applicationId: number | null) {
  return useQuery({
    queryKey: labKeys.results(applicationId ?? 0),
    queryFn: () => fetchResults(applicationId ?? 0),
    enabled: applicationId !== null,
  });
}

export function usePrices() {
  return useQuery({ queryKey: labKeys.prices, queryFn: fetchPrices });
}

/** After any change: the lists, the application and its certificates may all be stale. */
function useLabMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: labKeys.all }) });
}

export const useChangeStatus = () =>
  useLabMutation(({ applicationId, status }: { applicationId: number; status: number }) => changeStatus(applicationId, status));
export const useCancelByLab = () => useLabMutation(cancelByLab);
export const useOutboundTracking = () =>
  useLabMutation(({ applicationId, trackingNumber }: { applicationId: number; trackingNumber: string }) =>
    setOutboundTracking(applicationId, trackingNumber));
export const useUploadReport = () =>
  useLabMutation(({ applicationId, file }: { applicationId: number; file: File }) => uploadReport(applicationId, file));
export const useHandleQuickOrder = () =>
  useLabMutation(({ applicationId, details }: { applicationId: number; details: QuickOrderDetails }) =>
    handleQuickOrder(applicationId, details));
export const useSaveResult = () =>
  useLabMutation(({ applicationId, lineIndex, content, exists }:
  { applicationId: number; lineIndex: number; content: ContentInput; exists: boolean }) =>
    saveResult(applicationId, lineIndex, content, exists));
export const useImportCertificate = () =>
  useLabMutation(({ applicationId, lineIndex, certificate }:
  { applicationId: number; lineIndex: number; certificate: Record<string, unknown> }) =>
    importCertificate(applicationId, lineIndex, certificate));
export const useExplainResult = () =>
  useLabMutation(({ applicationId, lineIndex, explain }: { applicationId: number; lineIndex: number; explain: string }) =>
    explainResult(applicationId, lineIndex, explain));
export const useIssueCertificate = () => useLabMutation(issueCertificate);
export const useCorrectCertificate = () =>
  useLabMutation(({ certificateId, reason, content }: { certificateId: number; reason: string; content: ContentInput }) =>
    correctCertificate(certificateId, reason, content));
export const useUpdatePrice = () => useLabMutation(updatePrice);

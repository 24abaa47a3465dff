/**
 * FDA 21 CFR Part 11 (issue 22; /work/wt/FDA.md is the contract): FDA mode per subject (the
 * caller's own records, or an organization's), electronic signatures and the signing state,
 * endorsements (who may sign what), the tamper-evident audit trail and the periodic reports.
 *
 * Every call is under /device/FdaRecord, /device/FdaEndorsement or /device/FdaReport. A call that
 * signs carries a `signature` and is silent: a refusal (wrong password 403, locked 423, user name
 * needed 400, endorsement 403, second signer 409) is shown in the signature dialog, never as a toast,
 * and a 403 there does not end the session (denialIsAnswer).
 * Shared: the FDA page, the signature dialog (components/) and the calls that sign an alarm's
 * handling or a device's parameters.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { operationSchema } from './operationLog';
import { pageOf } from './page';
import { api } from '@/lib/http/index';

/** The server's bounds (FDA.md; spec 001 section 5). */
export const FDA_LIMITS = {
  userName: 50, password: 128, reason: 200, timeZone: 64, endorsementName: 50, endorsementDescription: 50, meaning: 50,
  recordId: 64, reportTitle: 100, reportDays: 366, pageSize: 200,
} as const;

/** What a signer declares (11.50(a)(3)); an endorsement may carry its own words instead. */
export const MEANINGS = ['reviewed', 'approved', 'responsible', 'authored'] as const;
export type Meaning = (typeof MEANINGS)[number];
export const isMeaning = (value: unknown): value is Meaning => (MEANINGS as readonly unknown[]).includes(value);

/** What gets signed (core/fda RecordVersions); an export is a device's readings export, its id the export's. */
export const RECORD_TYPES = ['alarm', 'deviceParams', 'waybill', 'report', 'fda', 'export'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export const REPORT_STATUSES = ['draft', 'reviewed', 'approved'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** A signature as a signing call sends it. */
export interface Signature {
  /** Needed on a session's first signature and after the re-authentication window. */
  userName?: string;
  password: string;
  meaning?: Meaning;
  endorsementId?: number;
  reason?: string;
  /** The signer's IANA zone: the manifestation shows the time in it. */
  timeZone?: string;
}

/** A subject's FDA switch: exactly one of accountId (the caller's own) and organizationId is set. */
export const fdaSubjectSchema = z.object({
  accountId: z.number().nullable(),
  organizationId: z.number().nullable(),
  /** The account's user name or the organization's name. */
  name: z.string(),
  enabled: z.boolean(),
  /** The caller may switch it (its own; an organization's creator and administrators). */
  changeable: z.boolean(),
});
export type FdaSubject = z.infer<typeof fdaSubjectSchema>;
export const fdaStatusSchema = z.object({ subjects: z.array(fdaSubjectSchema) });

export const signingStateSchema = z.object({
  /** The next signature needs the user name as well as the password (11.200(a)(1)). */
  needsUserName: z.boolean(),
  /** Too many wrong passwords: no signing until lockedUntil or an administrator unlocks it. */
  locked: z.boolean(),
  lockedUntil: z.string().nullable(),
  reauthMinutes: z.number(),
  /** The caller's login. */
  userName: z.string(),
});
export type SigningState = z.infer<typeof signingStateSchema>;

export const switchedSchema = z.object({ enabled: z.boolean(), changed: z.boolean() });
export type Switched = z.infer<typeof switchedSchema>;

/** A signature as a signed record shows it (its manifestation, 11.50). */
export const signatureRowSchema = z.object({
  id: z.number(),
  recordType: z.string(),
  recordId: z.string(),
  recordLabel: z.string(),
  /** The printed name: the account's real name, else its user name. */
  signerName: z.string(),
  signerLogin: z.string(),
  meaning: z.string(),
  /** The meaning in the reader's language, or the endorsement's own words. */
  meaningText: z.string(),
  reason: z.string().nullable(),
  /** UTC. */
  signedAt: z.string(),
  /** The zone the signer signed in. */
  timeZone: z.string(),
  /** signedAt in timeZone, with its offset. */
  localTime: z.string(),
  endorsementId: z.number().nullable(),
  endorsementName: z.string().nullable(),
  /** The record is still the version signed; false once it changed. */
  valid: z.boolean(),
});
export type SignatureRow = z.infer<typeof signatureRowSchema>;
export const signaturePageSchema = pageOf(signatureRowSchema);

export const endorsementSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  /** A Meaning, or the endorsement's own text. */
  meaning: z.string(),
  /** The meaning in the reader's language (an own text as it is). */
  meaningText: z.string(),
  recordTypes: z.array(z.string()),
  /** Who may sign: members holding one of these roles or these accounts; both empty: anyone who may sign the record. */
  roleIds: z.array(z.number()),
  accountIds: z.array(z.number()),
  /** The signer must differ from every earlier valid signature on the record. */
  distinctSigner: z.boolean(),
  organizationId: z.number().nullable(),
});
export type Endorsement = z.infer<typeof endorsementSchema>;
export const endorsementPageSchema = pageOf(endorsementSchema);

export const brokenLinkSchema = z.object({
  seq: z.number(),
  /** The operation-log entry the link chains. */
  operationId: z.number(),
  at: z.string(),
  /** A code (e.g. hash, missing); reasonText says it in the reader's language. */
  reason: z.string(),
  reasonText: z.string(),
});
export const verificationSchema = z.object({
  verified: z.boolean(),
  links: z.number(),
  firstBroken: brokenLinkSchema.nullable(),
  checkedAt: z.string(),
});
export type Verification = z.infer<typeof verificationSchema>;

export const trailRowSchema = z.object({
  seq: z.number(),
  hash: z.string(),
  /** 64 zeros for the first link. */
  previousHash: z.string(),
  /** The entry as the operation log answers it; null once it is no longer in the log (the verification names that link). */
  operation: operationSchema.nullable(),
});
export type TrailRow = z.infer<typeof trailRowSchema>;
export const trailPageSchema = pageOf(trailRowSchema);

export const reportSchema = z.object({
  id: z.number(),
  deviceId: z.number(),
  deviceName: z.string(),
  title: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
  status: z.enum(REPORT_STATUSES),
  signatures: z.array(signatureRowSchema),
});
export type FdaReport = z.infer<typeof reportSchema>;
export const reportPageSchema = pageOf(reportSchema);

/** Whose records a call is about: the caller's own (no organizationId) or an organization's. */
export interface Scope {
  organizationId?: number;
}

export interface SignatureFilter extends Scope {
  signerName?: string;
  meaning?: string;
  recordType?: string;
  startTime?: string;
  endTime?: string;
}

export interface TrailFilter extends Scope {
  startTime?: string;
  endTime?: string;
}

export interface EndorsementFields {
  name: string;
  /** null: none. */
  description: string | null;
  meaning: string;
  recordTypes: string[];
  roleIds: number[];
  accountIds: number[];
  distinctSigner: boolean;
}

export interface ReportFields {
  deviceId: number;
  startTime: string;
  endTime: string;
  title?: string;
}

/** The body without its empty fields: the server refuses an empty text. */
function present<T extends object>(body: T): T {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined && value !== '')) as T;
}

/** How a call that signs is sent: its refusals are the dialog's to show, a 403 included. */
const SIGNING = { silent: true, denialIsAnswer: true } as const;

// --- switches and signing -------------------------------------------------------------------------

export async function fetchFdaStatus() {
  return fdaStatusSchema.parse(await api.get('/device/FdaRecord/status'));
}

export async function fetchSigningState() {
  // The dialog works without it (it then asks for the user name too): a refusal is no reason to end the session.
  return signingStateSchema.parse(await api.get('/device/FdaRecord/signingState', { silent: true, denialIsAnswer: true }));
}

/** Answers changed=false when it was on already: nothing to do (the page warns). */
export async function enableFda(scope: Scope) {
  return switchedSchema.parse(await api.post('/device/FdaRecord/enable', present(scope), { silent: true }));
}

export async function disableFda(scope: Scope, signature?: Signature) {
  return switchedSchema.parse(await api.post('/device/FdaRecord/disable', present({ ...scope, signature }), SIGNING));
}

export async function signRecord(recordType: RecordType, recordId: string, signature: Signature) {
  return signatureRowSchema.parse(await api.post('/device/FdaRecord/sign', { recordType, recordId, signature }, SIGNING));
}

/** A record's signatures, oldest first; `silent` where the record may be gone (a 404 is then no failure to show). */
export async function fetchRecordSignatures(recordType: RecordType, recordId: string, { silent = false } = {}) {
  return z.array(signatureRowSchema).parse(await api.get('/device/FdaRecord/recordSignatures', { params: { recordType, recordId }, silent }));
}

/** The signatures on the caller's subjects' records, newest first. */
export async function fetchSignatures(filter: SignatureFilter, start: number, pageSize: number) {
  return signaturePageSchema.parse(await api.post('/device/FdaRecord/signatures', { ...present(filter), start, pageSize }));
}

export const unlockedSchema = z.object({
  locked: z.boolean(),
  /** false: the member's signing was not locked. */
  changed: z.boolean(),
});

/** Lets a member of an organization the caller administers sign again after a lockout. */
export async function unlockSigning(accountId: number) {
  return unlockedSchema.parse(await api.post('/device/FdaRecord/unlockSigning', { accountId }, { silent: true }));
}

// --- endorsements ---------------------------------------------------------------------------------

export async function fetchEndorsements(scope: Scope, start: number, pageSize: number) {
  return endorsementPageSchema.parse(await api.post('/device/FdaEndorsement/page', { ...present(scope), start, pageSize }));
}

export async function insertEndorsement(scope: Scope, fields: EndorsementFields) {
  return endorsementSchema.parse(await api.post('/device/FdaEndorsement/insert', { ...present(scope), ...fields }, { silent: true }));
}

export async function updateEndorsement(id: number, fields: EndorsementFields) {
  return endorsementSchema.parse(await api.post('/device/FdaEndorsement/update', { id, ...fields }, { silent: true }));
}

export async function deleteEndorsement(id: number) {
  await api.post('/device/FdaEndorsement/delete', { id }, { silent: true });
}

// --- the audit trail --------------------------------------------------------------------------------

export async function verifyTrail(scope: Scope) {
  return verificationSchema.parse(await api.get('/device/FdaRecord/verify', { params: { ...scope } }));
}

export async function fetchTrail(filter: TrailFilter, start: number, pageSize: number) {
  return trailPageSchema.parse(await api.post('/device/FdaRecord/trail', { ...present(filter), start, pageSize }));
}

/** The trail as an XLSX whose first lines say whether it verified. */
export async function exportTrail(scope: Scope) {
  return api.download('/device/FdaRecord/trail/export', { params: { ...scope } });
}

// --- periodic reports ------------------------------------------------------------------------------

export async function insertReport(fields: ReportFields) {
  return reportSchema.parse(await api.post('/device/FdaReport/insert', present(fields), { silent: true }));
}

export async function fetchReports(filter: Scope & { deviceId?: number }, start: number, pageSize: number) {
  return reportPageSchema.parse(await api.post('/device/FdaReport/page', { ...present(filter), start, pageSize }));
}

export async function fetchReport(id: number) {
  return reportSchema.parse(await api.get('/device/FdaReport/get', { params: { id } }));
}

export async function downloadReport(id: number) {
  return api.download('/device/FdaReport/download', { params: { id } });
}

// --- queries ----------------------------------------------------------------------------------------

export const fdaKeys = {
  all: ['fda'] as const,
  status: ['fda', 'status'] as const,
  signingState: ['fda', 'signingState'] as const,
  signatures: (filter: SignatureFilter, start: number, pageSize: number) => ['fda', 'signatures', filter, start, pageSize] as const,
  record: (recordType: string, recordId: string) => ['fda', 'record', recordType, recordId] as const,
  /** Every record of a type: a change of one (a waybill saved) makes its signatures' validity stale. */
  records: (recordType: RecordType) => ['fda', 'record', recordType] as const,
  endorsements: (scope: Scope) => ['fda', 'endorsements', scope.organizationId ?? null] as const,
  verification: (scope: Scope) => ['fda', 'verification', scope.organizationId ?? null] as const,
  trail: (filter: TrailFilter, start: number, pageSize: number) => ['fda', 'trail', filter, start, pageSize] as const,
  reports: (filter: Scope & { deviceId?: number }, start: number, pageSize: number) => ['fda', 'reports', filter, start, pageSize] as const,
};

/**
 * What the reading calls (switches, signing state, endorsements) need: without it they are not
 * asked (a 403 ends a session), and a signature asks for both components.
 */
export const FDA_READ = 'fda:query';

export function useFdaStatus(enabled = true) {
  return useQuery({ queryKey: fdaKeys.status, queryFn: fetchFdaStatus, enabled });
}

export function useSigningState(enabled = true) {
  return useQuery({ queryKey: fdaKeys.signingState, queryFn: fetchSigningState, enabled, staleTime: 0, retry: false });
}

/** Every endorsement of a scope (one page of the most the server gives). */
export function useEndorsements(scope: Scope, enabled = true) {
  return useQuery({
    queryKey: fdaKeys.endorsements(scope),
    queryFn: () => fetchEndorsements(scope, 1, FDA_LIMITS.pageSize),
    enabled,
  });
}

/** A record's signatures, oldest first, each with whether the record is still as it was signed. */
export function useRecordSignatures(recordType: RecordType, recordId: string, enabled = true) {
  return useQuery({
    queryKey: fdaKeys.record(recordType, recordId),
    queryFn: () => fetchRecordSignatures(recordType, recordId),
    enabled,
  });
}

export function useSignatures(filter: SignatureFilter, start: number, pageSize: number) {
  return useQuery({
    queryKey: fdaKeys.signatures(filter, start, pageSize),
    queryFn: () => fetchSignatures(filter, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useTrail(filter: TrailFilter, start: number, pageSize: number) {
  return useQuery({
    queryKey: fdaKeys.trail(filter, start, pageSize),
    queryFn: () => fetchTrail(filter, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useVerification(scope: Scope) {
  return useQuery({ queryKey: fdaKeys.verification(scope), queryFn: () => verifyTrail(scope) });
}

export function useReports(filter: Scope & { deviceId?: number }, start: number, pageSize: number) {
  return useQuery({
    queryKey: fdaKeys.reports(filter, start, pageSize),
    queryFn: () => fetchReports(filter, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

// --- who must sign ----------------------------------------------------------------------------------

/** The server's answer to an unsigned change where FDA wants a signature. */
export const SIGNATURE_REQUIRED = 428;

/**
 * Whether FDA is on for a device's records, as far as the caller's switches tell: an organization's
 * device is the organization's record, any other its owner's. Null when they do not say (a device
 * shared by someone else): then the change is tried and a 428 asks for the signature.
 */
export function fdaOnFor(
  subjects: readonly FdaSubject[] | undefined,
  device: { organizationId: number | null; ownerId: number },
): boolean | null {
  if (!subjects) return null;
  const subject = device.organizationId !== null
    ? subjects.find((s) => s.organizationId === device.organizationId)
    : subjects.find((s) => s.accountId === device.ownerId);
  return subject ? subject.enabled : null;
}

// Records whose change the server answered 428 this session: the next change asks for the signature first.
const signatureSeen = new Set<string>();

export const signatureNeeds = {
  remember: (key: string) => signatureSeen.add(key),
  known: (key: string) => signatureSeen.has(key),
  /** A switch changed: what was learnt may no longer hold. */
  forget: () => signatureSeen.clear(),
};

/** Test data of the FDA page: a server that keeps switches, endorsements, signatures, the trail and reports as FDA.md says. */
import type { Endorsement, FdaReport, FdaSubject, Signature, SignatureRow, TrailRow, Verification } from '@/lib/api/fda';
import type { AccountInfo } from '@/lib/api/accountInfo';
import { device } from '@/test/devices';
import { accountInfo, envelope, fakeServer, type Call, type FakeServer, type Routes } from '@/test/harness';

export const FDA_PERMISSIONS = ['home', 'device.list', 'fda', 'fda:query', 'fda:enable', 'fda:disable'];
export const PASSWORD = 'Coldchain#2026';

export const OWN: FdaSubject = { accountId: 7, organizationId: null, name: 'acme', enabled: false, changeable: true };
export const ACME: FdaSubject = { accountId: null, organizationId: 3, name: 'Acme Cold Chain', enabled: true, changeable: true };
export const OTHER: FdaSubject = { accountId: null, organizationId: 5, name: 'Polar Logistics', enabled: false, changeable: false };

export function signatureRow(change: Partial<SignatureRow> = {}): SignatureRow {
  return {
    id: 1, recordType: 'alarm', recordId: '11', recordLabel: 'Vaccine fridge logger: above 8 °C', signerName: 'Acme Admin',
    signerLogin: 'acme', meaning: 'responsible', meaningText: 'Responsible', reason: 'Door closed, goods checked',
    signedAt: '2026-05-01T07:00:00Z', timeZone: 'Europe/Berlin', localTime: '2026-05-01T09:00:00+02:00',
    endorsementId: null, endorsementName: null, valid: true, ...change,
  };
}

export function endorsement(change: Partial<Endorsement> = {}): Endorsement {
  return {
    id: 21, name: 'QA release', description: 'Quality assurance release', meaning: 'approved', meaningText: 'Approved', recordTypes: ['report'],
    roleIds: [41], accountIds: [], distinctSigner: true, organizationId: 3, ...change,
  };
}

export function report(change: Partial<FdaReport> = {}): FdaReport {
  return {
    id: 4, deviceId: 1, deviceName: 'Cold room A logger', title: 'Cold room A, April 2026', startTime: '2026-04-01T00:00:00+08:00',
    endTime: '2026-05-01T00:00:00+08:00', createdAt: '2026-05-02T09:00:00+08:00', createdBy: 'acme', status: 'draft', signatures: [],
    ...change,
  };
}

export function trailRow(seq: number): TrailRow {
  return {
    seq, hash: `${seq}`.repeat(64).slice(0, 64), previousHash: `${seq - 1}`.repeat(64).slice(0, 64),
    operation: {
      id: 100 + seq, at: '2026-05-01T08:00:00+08:00', accountId: 7, userName: 'acme', clientAddress: '10.0.0.1',
      action: 'Device.update', method: 'PUT', outcome: 'succeeded', status: 200,
      changes: [{ objectType: 'device', objectId: '1', objectLabel: 'Cold room A logger', kind: 'update',
        fields: { device_name: ['Cold room A', 'Cold room A logger'] }, deviceId: 1 }],
    },
  };
}

const page = <T,>(rows: T[], body: { start?: number; pageSize?: number }) => {
  const start = body.start ?? 1;
  const size = body.pageSize ?? 10;
  return { start, pageSize: size, totalCount: rows.length, data: rows.slice((start - 1) * size, start * size) };
};

export interface FdaState {
  subjects: FdaSubject[];
  endorsements: Endorsement[];
  signatures: SignatureRow[];
  trail: TrailRow[];
  verification: Verification;
  reports: FdaReport[];
  info: AccountInfo;
}

export interface FdaServer extends FakeServer {
  state: FdaState;
}

/** Signs with the right password only (403 otherwise, like the server). */
function checked(signature: Signature | undefined) {
  if (!signature) return envelope(null, 428, 428, 'This change needs your electronic signature');
  if (signature.password !== PASSWORD) return envelope(null, 403, 403, 'Wrong user name or password: 4 tries left');
  return null;
}

export function fdaServer(extra: Routes = {}, initial: Partial<FdaState> = {}): FdaServer {
  const state: FdaState = {
    subjects: [{ ...OWN }, { ...ACME }],
    endorsements: [endorsement()],
    signatures: [signatureRow(), signatureRow({ id: 2, recordType: 'report', recordId: '4', recordLabel: 'Cold room A 2026-04',
      signerName: 'Carol Reviewer', signerLogin: 'carol', meaning: 'reviewed', meaningText: 'Reviewed', reason: null, valid: false })],
    trail: [trailRow(2), trailRow(1)],
    verification: { verified: true, links: 2, firstBroken: null, checkedAt: '2026-05-02T10:00:00+08:00' },
    reports: [report(), report({ id: 5, title: 'Freezer B, April 2026', deviceName: 'Freezer B', status: 'reviewed',
      signatures: [signatureRow({ id: 3, recordType: 'report', recordId: '5', meaning: 'reviewed', meaningText: 'Reviewed',
        signerName: 'Carol Reviewer', signerLogin: 'carol' })] })],
    info: accountInfo({}, { permissionRoutes: FDA_PERMISSIONS }),
    ...initial,
  };
  const subjectOf = (body: { organizationId?: number }) =>
    state.subjects.find((s) => (body.organizationId === undefined ? s.organizationId === null : s.organizationId === body.organizationId));
  const server = fakeServer({
    'GET /base/BaseAccount/accountInfo': () => envelope(state.info),
    'GET /base/BaseAccount/getScenePermissionList': () => envelope(FDA_PERMISSIONS),
    'POST /base/BaseUserProfile/update': (call) => {
      const { enableProtect } = call.body as { enableProtect: number };
      state.info = { ...state.info, userProfile: { ...state.info.userProfile, enableProtect } };
      return envelope(null);
    },
    'GET /device/FdaRecord/status': () => envelope({ subjects: state.subjects }),
    'GET /device/FdaRecord/signingState': () =>
      envelope({ needsUserName: false, locked: false, lockedUntil: null, reauthMinutes: 15, userName: 'acme' }),
    'POST /device/FdaRecord/enable': (call) => {
      const subject = subjectOf(call.body as { organizationId?: number })!;
      const changed = !subject.enabled;
      subject.enabled = true;
      if (subject.organizationId === null) state.info = { ...state.info, userProfile: { ...state.info.userProfile, enableFda: 1 } };
      return envelope({ enabled: true, changed }, 0, 200, changed ? 'ok' : 'FDA mode is already on: nothing to do');
    },
    'POST /device/FdaRecord/disable': (call) => {
      const body = call.body as { organizationId?: number; signature?: Signature };
      const subject = subjectOf(body)!;
      if (!subject.enabled) return envelope({ enabled: false, changed: false }, 0, 200, 'FDA mode is already off: nothing to do');
      const refused = checked(body.signature);
      if (refused) return refused;
      subject.enabled = false;
      return envelope({ enabled: false, changed: true });
    },
    'POST /device/FdaRecord/unlockSigning': (call) =>
      envelope({ locked: false, changed: (call.body as { accountId: number }).accountId === 8 }),
    'POST /device/FdaRecord/signatures': (call) => envelope(page(state.signatures, call.body as object)),
    'POST /device/FdaRecord/sign': (call) => {
      const body = call.body as { recordType: string; recordId: string; signature: Signature };
      const refused = checked(body.signature);
      if (refused) return refused;
      const row = signatureRow({ id: 90 + state.signatures.length, recordType: body.recordType, recordId: body.recordId,
        meaning: body.signature.meaning ?? 'approved', meaningText: body.signature.meaning === 'reviewed' ? 'Reviewed' : 'Approved',
        reason: body.signature.reason ?? null });
      state.signatures.unshift(row);
      const target = state.reports.find((r) => String(r.id) === body.recordId);
      if (target) {
        target.signatures = [...target.signatures, row];
        target.status = body.signature.meaning === 'reviewed' ? 'reviewed' : 'approved';
      }
      return envelope(row);
    },
    'POST /device/FdaEndorsement/page': (call) => {
      const { organizationId } = call.body as { organizationId?: number };
      return envelope(page(state.endorsements.filter((e) => e.organizationId === (organizationId ?? null)), call.body as object));
    },
    'POST /device/FdaEndorsement/insert': (call) => {
      const body = call.body as Omit<Endorsement, 'id' | 'organizationId' | 'meaningText'> & { organizationId?: number };
      const row = { ...body, id: 30 + state.endorsements.length, organizationId: body.organizationId ?? null, meaningText: body.meaning };
      state.endorsements.push(row);
      return envelope(row);
    },
    'POST /device/FdaEndorsement/update': (call) => {
      const body = call.body as Endorsement;
      const row = state.endorsements.find((e) => e.id === body.id)!;
      Object.assign(row, body);
      return envelope(row);
    },
    'POST /device/FdaEndorsement/delete': (call) => {
      const { id } = call.body as { id: number };
      state.endorsements = state.endorsements.filter((e) => e.id !== id);
      return envelope(null);
    },
    'GET /device/FdaRecord/verify': () => envelope(state.verification),
    'POST /device/FdaRecord/trail': (call) => envelope(page(state.trail, call.body as object)),
    'GET /device/FdaRecord/trail/export': () => new Response('PK', {
      status: 200, headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'Content-Disposition': 'attachment; filename="audit-trail.xlsx"' },
    }),
    'POST /device/FdaReport/page': (call) => envelope(page(state.reports, call.body as object)),
    'POST /device/FdaReport/insert': (call) => {
      const body = call.body as { deviceId: number; startTime: string; endTime: string; title?: string };
      const row = report({ id: 60 + state.reports.length, deviceId: body.deviceId, title: body.title ?? 'Cold room A logger 2026-04',
        startTime: body.startTime, endTime: body.endTime });
      state.reports.unshift(row);
      return envelope(row);
    },
    'GET /device/FdaReport/download': () => new Response('%PDF', {
      status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="report-4.pdf"' },
    }),
    'GET /base/BaseOrganization/members': () => envelope({ myRole: 'org_creator', invitations: [], members: [
      { accountId: 7, userName: 'acme', realName: 'Acme Admin', roleCode: 'org_creator', roleName: 'Creator', creator: true },
      { accountId: 8, userName: 'bob', realName: null, roleCode: 'custom_41', roleName: 'QA', creator: false },
    ] }),
    'GET /base/BaseRole/queryRoleByOrganizationType': () => envelope([
      { roleId: 3, roleCode: 'org_admin', roleName: 'Organization administrator', description: null, roleType: 2, builtIn: true,
        assignable: true, permissions: [], memberCount: 0 },
      { roleId: 41, roleCode: 'custom_41', roleName: 'Quality assurance', description: null, roleType: 3, builtIn: false,
        assignable: true, permissions: [], memberCount: 1 },
    ]),
    'POST /device/Device/page': () => envelope({ start: 1, pageSize: 20, totalCount: 2, data: [
      device(), device({ deviceId: 2, deviceName: 'Freezer B', deviceGuid: 'RCW360A0000002' }),
    ] }),
    ...extra,
  });
  return { ...server, state };
}

export const bodyOf = (call: Call | undefined) => call?.body as Record<string, unknown>;

/** Test data of the message centre: alarm messages like the server's, and a server that keeps them. */
import type { Alarm, Deferral } from '@/lib/api/alarms';
import type { Signature, SignatureRow } from '@/lib/api/fda';
import { envelope, fakeServer, type Call, type FakeServer, type Routes } from '@/test/harness';

export const READER = ['home', 'message.list', 'message.list:query', 'device.list'];
export const HANDLER = [...READER, 'message.list:edit'];

export function alarm(change: Partial<Alarm> = {}): Alarm {
  return {
    id: 1,
    deviceId: 3,
    deviceName: 'Vaccine fridge logger',
    deviceGuid: 'RCW360A0000003',
    ruleId: 3,
    probe: 't',
    kind: 1,
    limitValue: 8,
    value: 8.6,
    extremeValue: 11.2,
    level: 2,
    startedAt: '2026-05-01T08:00:00+08:00',
    raisedAt: '2026-05-01T08:05:00+08:00',
    endedAt: null,
    state: 0,
    deferredUntil: null,
    deferralCount: 0,
    handling: null,
    result: null,
    handledAt: null,
    handledBy: null,
    temperatureUnit: 'C',
    displayPrecision: 1,
    access: 2,
    signatures: [],
    ...change,
  };
}

export const DEVICES = [
  { deviceId: 3, deviceName: 'Vaccine fridge logger', deviceGuid: 'RCW360A0000003' },
  { deviceId: 1, deviceName: 'Cold room A', deviceGuid: 'RCW360A0000001' },
];

export interface AlarmServer extends FakeServer {
  alarms: Alarm[];
  /** Deferrals by alarm id, newest first. */
  deferrals: Map<number, Deferral[]>;
}

/** Who the fake server says handled an alarm (the signed-in account of the tests). */
export const HANDLED_BY = 'alice';

/** FDA mode for every alarm's device: handling needs a signature with this password (else 428, or 403 when wrong). */
export interface FdaOptions {
  password: string;
}

/** The manifestation the fake server keeps for a signed handling. */
function signatureRow(alarmId: number, signature: Signature, id: number): SignatureRow {
  return {
    id, recordType: 'alarm', recordId: String(alarmId), recordLabel: 'Vaccine fridge logger', signerName: 'Alice Doe', signerLogin: HANDLED_BY,
    meaning: signature.meaning ?? 'responsible', meaningText: 'Responsible', reason: signature.reason ?? null,
    signedAt: '2026-05-01T01:00:00Z', timeZone: signature.timeZone ?? 'UTC', localTime: '2026-05-01T09:00:00+08:00',
    endorsementId: signature.endorsementId ?? null, endorsementName: null, valid: true,
  };
}

/** Pages, counts, handles and defers `alarms` as the server would; `extra` answers anything else. */
export function alarmServer(alarms: Alarm[], extra: Routes = {}, fda?: FdaOptions): AlarmServer {
  const store = alarms.map((a) => ({ ...a }));
  const deferrals = new Map<number, Deferral[]>();
  const page = (call: Call) => {
    const body = call.body as { start: number; pageSize: number; state?: number; deviceId?: number };
    const rows = store
      .filter((a) => body.state === undefined || a.state === body.state)
      .filter((a) => body.deviceId === undefined || a.deviceId === body.deviceId);
    const from = (body.start - 1) * body.pageSize;
    return envelope({ start: body.start, pageSize: body.pageSize, totalCount: rows.length, data: rows.slice(from, from + body.pageSize) });
  };
  const server = fakeServer({
    'POST /device/DeviceAlarm/page': page,
    'GET /device/DeviceAlarm/count': () => envelope(store.filter((a) => a.state === 0).length),
    'POST /device/DeviceAlarm/deferrals': (call) => {
      const body = call.body as { id: number; start: number; pageSize: number };
      const rows = deferrals.get(body.id) ?? [];
      const from = (body.start - 1) * body.pageSize;
      return envelope({ start: body.start, pageSize: body.pageSize, totalCount: rows.length, data: rows.slice(from, from + body.pageSize) });
    },
    'POST /device/DeviceAlarm/deal': (call) => {
      const body = call.body as { id: number; handling: number; result: string | null; deferMinutes?: number; signature?: Signature };
      const row = store.find((a) => a.id === body.id);
      if (!row) return envelope(null, 404, 404, 'Not found');
      if (row.state === 1) return envelope(null, 1011, 409, 'This alarm has already been handled');
      if (fda && !body.signature) return envelope(null, 428, 428, 'This change needs your electronic signature');
      if (fda && body.signature?.password !== fda.password) return envelope(null, 403, 403, 'Wrong user name or password: 4 tries left');
      if (fda && body.signature) row.signatures = [...row.signatures, signatureRow(row.id, body.signature, row.signatures.length + 1)];
      if (body.handling === 3) {
        const now = Date.now();
        const until = new Date(now + (body.deferMinutes ?? 60) * 60_000).toISOString();
        const earlier = deferrals.get(row.id) ?? [];
        deferrals.set(row.id, [{ deferredAt: new Date(now).toISOString(), deferredUntil: until, minutes: body.deferMinutes ?? 60,
          deferredBy: HANDLED_BY, result: body.result }, ...earlier]);
        Object.assign(row, { state: 2, deferredUntil: until, deferralCount: earlier.length + 1 });
        return envelope(row);
      }
      Object.assign(row, { deferredUntil: null,
        state: 1, handling: body.handling, result: body.result, handledAt: '2026-05-01T09:00:00+08:00', handledBy: HANDLED_BY,
      });
      return envelope(row);
    },
    'POST /device/Device/page': (call) => {
      const name = ((call.body as { deviceName?: string }).deviceName ?? '').toLowerCase();
      const rows = DEVICES.filter((d) => d.deviceName.toLowerCase().includes(name));
      return envelope({ start: 1, pageSize: 20, totalCount: rows.length, data: rows });
    },
    ...extra,
  });
  return { ...server, alarms: store, deferrals };
}

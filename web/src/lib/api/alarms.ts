/**
 * The message centre's alarm messages (spec seed 001 sections 2-5): POST /device/DeviceAlarm/page
 * for the list, POST /device/DeviceAlarm/deal to handle or defer one, POST
 * /device/DeviceAlarm/deferrals for its deferrals, GET /device/DeviceAlarm/count for the header
 * badge. The server wants `message.list:query` to read and `message.list:edit` to handle, and
 * handles only alarms of devices the caller may change (`access` 2; 403 otherwise).
 *
 * A deferred alarm (state 2) is untreated again by itself at `deferredUntil`: the server reads it
 * from the clock, and the list asks again then (see useAlarmPage).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { signatureRowSchema, type Signature } from './fda';
import { pageOf } from './page';
import { accessSchema } from '@/lib/access';
import { api } from '@/lib/http/index';
import { TEMPERATURE_UNITS, type TemperatureUnit } from '@/lib/units';

export const MESSAGE_ROUTE = 'message.list';

/** 0 untreated, 1 treated (approved or refused), 2 deferred until `deferredUntil`. */
export const ALARM_STATES = [0, 1, 2] as const;
export type AlarmState = (typeof ALARM_STATES)[number];
export const UNTREATED: AlarmState = 0;
export const TREATED: AlarmState = 1;
export const DEFERRED: AlarmState = 2;

/** 1 approve, 2 refuse, 3 defer. */
export const HANDLINGS = [1, 2, 3] as const;
export type Handling = (typeof HANDLINGS)[number];
export const DEFER: Handling = 3;

/** The delays offered for deferring, in minutes (the server takes 1 to 1440; core/alarms/deferral.py). */
export const DEFER_CHOICES = [15, 60, 240, 1440] as const;
export type DeferMinutes = (typeof DEFER_CHOICES)[number];
export const DEFAULT_DEFER_MINUTES: DeferMinutes = 60;

/** 1 above the upper limit, 2 below the lower. */
export const ABOVE = 1;
export const BELOW = 2;

/** How a device shows temperatures; the server always sends them in Celsius. */
export { TEMPERATURE_UNITS, type TemperatureUnit };

/** Graded alarms go up to level 3; 0 means nobody has been alerted yet. */
export const MAX_LEVEL = 3;

/** The badge polls this often (and every handling refreshes it at once). */
export const COUNT_REFRESH_MS = 30_000;

export function isHandling(value: unknown): value is Handling {
  return typeof value === 'number' && (HANDLINGS as readonly number[]).includes(value);
}

export const alarmSchema = z.object({
  id: z.number(),
  deviceId: z.number(),
  deviceName: z.string(),
  deviceGuid: z.string(),
  /** Null once the rule is deleted. */
  ruleId: z.number().nullable(),
  /** t temperature, h humidity (% RH). */
  probe: z.string(),
  kind: z.number(),
  /** Temperatures always in Celsius, whatever the device shows (see temperatureUnit). */
  limitValue: z.number(),
  /** The reading that raised the alarm. */
  value: z.number(),
  /** The furthest from the limit. */
  extremeValue: z.number(),
  /** The highest graded level alerted, 0 none yet. */
  level: z.number(),
  /** The value left the limits. */
  startedAt: z.string(),
  /** It had stayed out for the rule's delay. */
  raisedAt: z.string(),
  /** Back inside; null while it lasts. */
  endedAt: z.string().nullable(),
  /** 0 untreated, 1 treated, 2 deferred. */
  state: z.number(),
  /** While deferred: when it is untreated again and its recipients are reminded. */
  deferredUntil: z.string().nullable(),
  /** How many times it was deferred (listed by the deferrals call). */
  deferralCount: z.number().int().nonnegative(),
  /** 1 approved, 2 refused; null until then (a deferral does not handle it). */
  handling: z.number().nullable(),
  result: z.string().nullable(),
  handledAt: z.string().nullable(),
  /** The user name of who handled it; null while untreated (or once that account is gone). */
  handledBy: z.string().nullable(),
  /** How the device shows temperatures: C or F. */
  temperatureUnit: z.enum(TEMPERATURE_UNITS),
  /** The decimals the device's values show. */
  displayPrecision: z.number().int(),
  /** The caller's access to the device: 1 read only (may not handle it), 2 read and change. */
  access: accessSchema,
  /** The electronic signatures of its handling (FDA mode), oldest first; none without FDA. */
  signatures: z.array(signatureRowSchema).default([]),
});
export type Alarm = z.infer<typeof alarmSchema>;

export const alarmPageSchema = pageOf(alarmSchema);
export type AlarmPage = z.infer<typeof alarmPageSchema>;

/** The body of POST /device/DeviceAlarm/page. */
export interface AlarmQuery {
  /** 1-based page number. */
  start: number;
  pageSize: number;
  deviceId?: number;
  state?: AlarmState;
  /** Raised at or after (ISO 8601; without an offset the server reads it in the X-Time-Zone). */
  startTime?: string;
  /** Raised before. */
  endTime?: string;
}

export interface DealBody {
  id: number;
  handling: Handling;
  /** Up to 50 characters; null for none. */
  result: string | null;
  /** With handling 3 only: minutes until the alarm is untreated again. */
  deferMinutes?: number;
  /** Required where FDA is on for the alarm's device (else 428); the reason defaults to the result. */
  signature?: Signature;
}

export const deferralSchema = z.object({
  deferredAt: z.string(),
  deferredUntil: z.string(),
  /** The delay chosen. */
  minutes: z.number(),
  /** The user name of who deferred it; null once that account is gone. */
  deferredBy: z.string().nullable(),
  result: z.string().nullable(),
});
export type Deferral = z.infer<typeof deferralSchema>;

export const deferralPageSchema = pageOf(deferralSchema);
export type DeferralPage = z.infer<typeof deferralPageSchema>;

/** Rows a page of an alarm's deferrals. */
export const DEFERRAL_PAGE_SIZE = 10;

export async function fetchAlarmPage(query: AlarmQuery): Promise<AlarmPage> {
  return alarmPageSchema.parse(await api.post('/device/DeviceAlarm/page', query));
}

/**
 * Handles an untreated alarm; refusals are left to the dialog (silent). Signed, a 403 is the
 * signature's refusal (wrong password), which the signature dialog shows.
 */
export async function dealAlarm(body: DealBody): Promise<Alarm> {
  return alarmSchema.parse(await api.post('/device/DeviceAlarm/deal', body, { silent: true, denialIsAnswer: body.signature !== undefined }));
}

/** An alarm's deferrals, newest first. */
export async function fetchDeferrals(id: number, start: number): Promise<DeferralPage> {
  return deferralPageSchema.parse(await api.post('/device/DeviceAlarm/deferrals', { id, start, pageSize: DEFERRAL_PAGE_SIZE }));
}

export const untreatedCountSchema = z.number().int().nonnegative();

/** Untreated alarms of the caller's devices; a failed poll says nothing (the badge just keeps its number). */
export async function fetchUntreatedCount(): Promise<number> {
  return untreatedCountSchema.parse(await api.get('/device/DeviceAlarm/count', { silent: true }));
}

export const messageKeys = {
  all: ['messages'] as const,
  page: (accountId: number, query: AlarmQuery) => ['messages', 'alarms', 'page', accountId, query] as const,
  count: (accountId: number) => ['messages', 'alarms', 'count', accountId] as const,
  deferrals: (id: number, start: number) => ['messages', 'alarms', 'deferrals', id, start] as const,
};
/** The device detail's alarm records (features/devices) show the same messages. */
const DEVICE_ALARM_KEYS = ['devices', 'alarms'] as const;

/** The longest wait before asking again for a deferral's end (timers cap near 24.8 days anyway). */
const MAX_WAIT_MS = 60 * 60 * 1000;
/** The shortest, for a client whose clock runs ahead of the server's. */
const MIN_WAIT_MS = 5000;

/**
 * How long until the first deferral on a page ends (a second after it, so the server's clock has
 * passed it too), or false with none deferred: then the row is asked again, untreated.
 */
export function untilFirstReturn(alarms: readonly Pick<Alarm, 'deferredUntil'>[] | undefined, now = Date.now()): number | false {
  const ends = (alarms ?? []).map((a) => (a.deferredUntil ? Date.parse(a.deferredUntil) : NaN)).filter((t) => !Number.isNaN(t));
  if (ends.length === 0) return false;
  return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, Math.min(...ends) - now + 1000));
}

/** One page of alarm messages, newest first; the previous page stays while the next loads. */
export function useAlarmPage(accountId: number, query: AlarmQuery, enabled = true) {
  return useQuery({
    queryKey: messageKeys.page(accountId, query),
    queryFn: () => fetchAlarmPage(query),
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: (q) => untilFirstReturn(q.state.data?.data),
  });
}

/** A page of an alarm's deferrals, newest first. */
export function useDeferrals(id: number, start: number) {
  return useQuery({
    queryKey: messageKeys.deferrals(id, start),
    queryFn: () => fetchDeferrals(id, start),
    placeholderData: keepPreviousData,
  });
}

/** The untreated count of the header badge, polled every 30 s. */
export function useUntreatedCount(accountId: number | undefined, enabled = true) {
  return useQuery({
    queryKey: messageKeys.count(accountId ?? 0),
    queryFn: fetchUntreatedCount,
    enabled: enabled && accountId !== undefined,
    refetchInterval: COUNT_REFRESH_MS,
    staleTime: 0,
    retry: false,
  });
}

/** Handling as a mutation: whatever the outcome, the lists and the badge are asked again. */
export function useDealAlarm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dealAlarm,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: messageKeys.all }),
        queryClient.invalidateQueries({ queryKey: DEVICE_ALARM_KEYS }),
      ]);
    },
  });
}

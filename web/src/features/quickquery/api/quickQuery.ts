/**
 * The public quick query of waybills (no login; src/entrypoints/api/waybills/public.py):
 * GET /device/QuickSearch/waybill?number=|guid= for the trips of a waybill number or a device's
 * current or last trip, /QuickSearch/share?token= for the trip a share link shows,
 * /QuickSearch/sharePdf?token= for its report as PDF and /QuickSearch/verify?code= to check a
 * report's verification code. A receiver sees the trip, never the owner's data. A made-up number
 * answers like a trip not started yet (an empty list); 30 lookups in 10 minutes per address, then 429.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { positionSchema } from '@/lib/api/devices';
import { ApiError, api } from '@/lib/http/index';

export const excursionSchema = z.object({
  above: z.boolean(),
  start: z.string(),
  end: z.string(),
  seconds: z.number(),
  extreme: z.number(),
});
export type Excursion = z.infer<typeof excursionSchema>;

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
export type DeviceFigures = z.infer<typeof deviceFiguresSchema>;

export const tripSchema = z.object({
  orderNum: z.string().nullish(),
  goodsName: z.string().nullish(),
  /** 0 not started, 1 in progress, 2 finished. */
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
});
export type Trip = z.infer<typeof tripSchema>;

export const quickAnswerSchema = z.object({ waybills: z.array(tripSchema) });
export const verifySchema = z.object({ valid: z.boolean(), trip: tripSchema.nullish() });

/** The server's bounds (QuickQuery in schemas.py): a number of up to 40 characters, a GUID of up to 32. */
export const QUERY_LIMITS = { number: 40, guid: 32 } as const;

export type SearchKind = 'number' | 'guid';
export interface Search {
  kind: SearchKind;
  value: string;
}

/** What went wrong, in the words the page shows: too many lookups, a gone link, anything else. */
export type LookupProblem = 'throttled' | 'gone' | 'failed';

export function problemOf(error: unknown): LookupProblem {
  if (error instanceof ApiError && error.status === 429) return 'throttled';
  if (error instanceof ApiError && error.status === 404) return 'gone';
  return 'failed';
}

// The pages show their own messages (a 429 is the reader's to wait out, not an error toast).
const QUIET = { silent: true } as const;

export async function fetchTrips(search: Search): Promise<Trip[]> {
  const data = await api.get('/device/QuickSearch/waybill', { ...QUIET, params: { [search.kind]: search.value } });
  return quickAnswerSchema.parse(data).waybills;
}

export async function fetchSharedTrip(token: string): Promise<Trip> {
  return tripSchema.parse(await api.get('/device/QuickSearch/share', { ...QUIET, params: { token } }));
}

export async function fetchSharePdf(token: string) {
  return api.download('/device/QuickSearch/sharePdf', { ...QUIET, params: { token } });
}

export async function verifyCode(code: string) {
  return verifySchema.parse(await api.get('/device/QuickSearch/verify', { ...QUIET, params: { code } }));
}

// A 429 or a gone link does not get better by asking again at once.
const noRetry = { retry: false, refetchOnWindowFocus: false } as const;

export function useTrips(search: Search | null) {
  return useQuery({
    queryKey: ['quickQuery', 'trips', search?.kind, search?.value],
    queryFn: () => fetchTrips(search!),
    enabled: search !== null,
    ...noRetry,
  });
}

export function useSharedTrip(token: string | null) {
  return useQuery({
    queryKey: ['quickQuery', 'share', token],
    queryFn: () => fetchSharedTrip(token!),
    enabled: token !== null,
    ...noRetry,
  });
}

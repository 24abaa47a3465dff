/**
 * POST /device/Device/track: where a device went between two instants (the positions its readings
 * carried), for the map tab. POST /device/Device/energy: the kWh it used per hour or per day, for
 * the energy tab (only devices whose type has an energy meter; others are refused with 1030).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http';
import { positionSchema } from '@/lib/api/devices';

export const trackSchema = z.object({
  /** In time order; when downsampled, evenly spaced fixes and the last. */
  points: z.array(positionSchema),
  downsampled: z.boolean(),
  /** Positions stored in the range. */
  total: z.number(),
});
export type Track = z.infer<typeof trackSchema>;

export const ENERGY_INTERVALS = ['hour', 'day'] as const;
export type EnergyInterval = (typeof ENERGY_INTERVALS)[number];

export const energySchema = z.object({
  /** Always kWh. */
  unit: z.string(),
  interval: z.string(),
  buckets: z.array(z.object({ ts: z.string(), kwh: z.number() })),
  /** kWh used in the whole range. */
  total: z.number(),
});
export type Energy = z.infer<typeof energySchema>;

export interface RangeQuery {
  deviceId: number;
  /** ISO 8601 with its UTC offset. */
  startTime: string;
  endTime: string;
}

export async function fetchTrack(query: RangeQuery, signal?: AbortSignal): Promise<Track> {
  return trackSchema.parse(await api.post('/device/Device/track', { ...query, maxPoints: 2000 }, { signal }));
}

export async function fetchEnergy(
  query: RangeQuery & { interval: EnergyInterval },
  signal?: AbortSignal,
): Promise<Energy> {
  return energySchema.parse(await api.post('/device/Device/energy', query, { signal }));
}

export function useTrack(query: RangeQuery) {
  return useQuery({
    queryKey: ['devices', 'track', query.deviceId, query.startTime, query.endTime],
    queryFn: ({ signal }) => fetchTrack(query, signal),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

export function useEnergy(query: RangeQuery & { interval: EnergyInterval }) {
  return useQuery({
    queryKey: ['devices', 'energy', query.deviceId, query.startTime, query.endTime, query.interval],
    queryFn: ({ signal }) => fetchEnergy(query, signal),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

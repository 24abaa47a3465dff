/**
 * POST /device/Device/history: a device's readings between two instants (at most 366 days), for
 * its chart. With more stored than maxPoints the server cuts the range into equal buckets and
 * keeps each probe's minimum and maximum per bucket, so short peaks still show.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http';
import { readingSchema } from '@/lib/api/devices';

/** The server's ceiling of maxPoints. */
export const HISTORY_MAX_POINTS = 5000;

export const historySchema = z.object({
  /** In time order. */
  points: z.array(readingSchema),
  /** False: every stored reading is here. */
  downsampled: z.boolean(),
  /** Readings stored in the range. */
  total: z.number(),
});
export type History = z.infer<typeof historySchema>;

export interface HistoryQuery {
  deviceId: number;
  /** ISO 8601 with its UTC offset. */
  startTime: string;
  endTime: string;
  maxPoints: number;
}

export async function fetchHistory(query: HistoryQuery, signal?: AbortSignal): Promise<History> {
  return historySchema.parse(await api.post('/device/Device/history', query, { signal }));
}

export const historyKeys = {
  range: (query: HistoryQuery) => ['devices', 'history', query.deviceId, query.startTime, query.endTime, query.maxPoints] as const,
};

/** The readings of one range; the previous range's curve stays while the next one loads. */
export function useHistory(query: HistoryQuery | null) {
  return useQuery({
    queryKey: query ? historyKeys.range(query) : ['devices', 'history', 'idle'],
    queryFn: ({ signal }) => fetchHistory(query as HistoryQuery, signal),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

/**
 * GET /device/Device/homeCounts: how the caller's devices stand, for the home page's tiles.
 * online + offline + notEnabled + scrapped = total.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http/index';

export const homeCountsSchema = z.object({
  total: z.number(),
  online: z.number(),
  /** Reported before, not online now. */
  offline: z.number(),
  alarm: z.number(),
  disabled: z.number(),
  /** Service expired (never lifelong). */
  expired: z.number(),
  /** Never reported. */
  notEnabled: z.number(),
  /** Retired by their owner; counted in no other figure but total. */
  scrapped: z.number(),
});
export type HomeCounts = z.infer<typeof homeCountsSchema>;
export type HomeCount = keyof HomeCounts;

/** The counts; a failure shows as dashes on the tiles rather than a notice (silent). */
export async function fetchHomeCounts(): Promise<HomeCounts> {
  return homeCountsSchema.parse(await api.get('/device/Device/homeCounts', { silent: true }));
}

export const homeCountKeys = { all: ['devices', 'homeCounts'] as const };

export function useHomeCounts() {
  return useQuery({ queryKey: homeCountKeys.all, queryFn: fetchHomeCounts });
}

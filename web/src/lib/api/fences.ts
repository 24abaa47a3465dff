/**
 * Geofences as every feature reads them: POST /device/DeviceFence/page lists the caller's fences
 * and its organizations' (the geofence feature makes and changes them; a waybill picks its origin
 * and destination among them). The feature's other calls are in features/geofence/api.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { pageOf } from './page';
import { api } from '@/lib/http/index';

export const pointSchema = z.object({ lat: z.number(), lon: z.number() });
export type Point = z.infer<typeof pointSchema>;

export const areaSchema = z.object({
  shape: z.enum(['circle', 'polygon']),
  lat: z.number().nullish(),
  lon: z.number().nullish(),
  radius: z.number().nullish(),
  points: z.array(pointSchema).optional(),
});
export type Area = z.infer<typeof areaSchema>;

export const fenceSchema = z.object({
  id: z.number(),
  name: z.string(),
  areas: z.array(areaSchema),
  createdAt: z.string(),
  deviceCount: z.number(),
  organizationId: z.number().nullable(),
  organizationName: z.string().nullable(),
  changeable: z.boolean(),
});
export type Fence = z.infer<typeof fenceSchema>;
export const fencePageSchema = pageOf(fenceSchema);

/** Every fence query starts with `fences`: a change to a fence makes them all stale. */
export const fenceKeys = {
  all: ['fences'] as const,
  page: (start: number, pageSize: number) => ['fences', 'page', start, pageSize] as const,
};

/** The server's largest page: the most fences a picker offers. */
export const FENCE_CHOICES_MAX = 200;

export async function fetchFences(start: number, pageSize: number) {
  return fencePageSchema.parse(await api.post('/device/DeviceFence/page', { start, pageSize }));
}

export function useFences(start: number, pageSize: number, enabled = true) {
  return useQuery({ queryKey: fenceKeys.page(start, pageSize), queryFn: () => fetchFences(start, pageSize),
    placeholderData: keepPreviousData, enabled });
}

/** The fences to choose from (the server sends them by name): the first FENCE_CHOICES_MAX, asked for when `enabled`. */
export function useFenceChoices(enabled: boolean) {
  return useFences(1, FENCE_CHOICES_MAX, enabled);
}

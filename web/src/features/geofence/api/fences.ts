/**
 * Geofences (/waybill/geofence; src/entrypoints/api/geofences): POST /device/DeviceFence/page lists
 * the caller's fences and its organizations', GET .../get?id= one with the devices it watches,
 * POST .../insert and PUT .../update save one (1 to 10 circles or polygons), DELETE .../delete?id=,
 * POST .../bindDevices and .../unbindDevices, POST .../events for its crossings.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { fenceKeys, fenceSchema, type Area } from '@/lib/api/fences';
import { pageOf } from '@/lib/api/page';
import { api } from '@/lib/http/index';

// The list and the shapes are shared (lib/api/fences): a waybill picks its fences too.
export {
  areaSchema, fencePageSchema, fenceSchema, fetchFences, pointSchema, useFences, type Area, type Fence, type Point,
} from '@/lib/api/fences';

/** The server's bounds (src/core/geofences/model.py). */
export const FENCE_LIMITS = { name: 20, areas: 10, radius: 50_000, vertices: 100 } as const;

export const fenceDetailSchema = fenceSchema.extend({ deviceIds: z.array(z.number()) });
export type FenceDetail = z.infer<typeof fenceDetailSchema>;
export const fenceDeletedSchema = z.object({ released: z.number() });

export const fenceEventSchema = z.object({
  id: z.number(),
  fenceId: z.number(),
  fenceName: z.string(),
  deviceId: z.number(),
  deviceName: z.string(),
  entered: z.boolean(),
  at: z.string(),
});
export type FenceEvent = z.infer<typeof fenceEventSchema>;
export const fenceEventPageSchema = pageOf(fenceEventSchema);

export interface FenceInput {
  name: string;
  areas: Area[];
}

const keys = {
  ...fenceKeys,
  one: (id: number) => ['fences', 'one', id] as const,
  events: (id: number, start: number) => ['fences', 'events', id, start] as const,
};

export async function fetchFence(id: number) {
  return fenceDetailSchema.parse(await api.get('/device/DeviceFence/get', { params: { id } }));
}

export async function saveFence(input: FenceInput, id?: number): Promise<FenceDetail> {
  return fenceDetailSchema.parse(id === undefined
    ? await api.post('/device/DeviceFence/insert', input)
    : await api.put('/device/DeviceFence/update', { ...input, id }));
}

export async function deleteFence(id: number) {
  return fenceDeletedSchema.parse(await api.delete('/device/DeviceFence/delete', { params: { id } }));
}

/** Watches the added devices and stops watching the removed ones. */
export async function changeDevices(id: number, added: number[], removed: number[]): Promise<void> {
  if (added.length > 0) fenceDetailSchema.parse(await api.post('/device/DeviceFence/bindDevices', { id, deviceIds: added }));
  if (removed.length > 0) {
    fenceDetailSchema.parse(await api.post('/device/DeviceFence/unbindDevices', { id, deviceIds: removed }));
  }
}

export async function fetchEvents(fenceId: number, start: number, pageSize: number) {
  return fenceEventPageSchema.parse(await api.post('/device/DeviceFence/events', { fenceId, start, pageSize }));
}

export function useFence(id: number | null) {
  return useQuery({ queryKey: keys.one(id ?? 0), queryFn: () => fetchFence(id ?? 0), enabled: id !== null });
}

export function useEvents(fenceId: number, start: number, pageSize: number) {
  return useQuery({ queryKey: [...keys.events(fenceId, start), pageSize], queryFn: () => fetchEvents(fenceId, start, pageSize),
    placeholderData: keepPreviousData });
}

function useChange<A, R>(fn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }) });
}

export const useSaveFence = () => useChange(({ input, id }: { input: FenceInput; id?: number }) => saveFence(input, id));
export const useDeleteFence = () => useChange(deleteFence);
export const useChangeDevices = () =>
  useChange(({ id, added, removed }: { id: number; added: number[]; removed: number[] }) => changeDevices(id, added, removed));

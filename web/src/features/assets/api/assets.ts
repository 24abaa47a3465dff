/**
 * Assets (/asset/list, /asset/detail/:id): cold things, the caller's own or an organization's, each watched by up to five of
 * their devices. POST /device/Asset/page lists and searches them (by part of the name or number),
 * GET .../get gives one with its devices, POST .../insert and PUT .../update save one, DELETE
 * .../delete?id= removes it (its devices stay), PUT .../enable and .../disable switch it with its
 * devices' alarm rules, and POST .../bindDevice and .../unbindDevice put devices in and out.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { pageOf } from '@/lib/api/page';
import { deviceKeys } from '@/lib/api/devices';
import { api } from '@/lib/http/index';

/** The server's bounds (src/core/assets/model.py). */
export const ASSET_LIMITS = { name: 100, field: 50, remark: 200, attributes: 20, key: 50, value: 200, devices: 5 } as const;

export const attributeSchema = z.object({ key: z.string(), value: z.string() });
export const assetSchema = z.object({
  id: z.number(),
  assetName: z.string(),
  assetType: z.string().nullable(),
  assetNumber: z.string().nullable(),
  brand: z.string().nullable(),
  model: z.string().nullable(),
  volume: z.string().nullable(),
  customs: z.array(attributeSchema),
  remark: z.string().nullable(),
  /** false: its devices and their alarm rules are off. */
  enabled: z.boolean(),
  createdAt: z.string(),
  deviceCount: z.number(),
  /** The organization it belongs to (its members read it); null: the caller's own. */
  organizationId: z.number().nullable(),
  organizationName: z.string().nullable(),
  /** The caller may change, switch, bind to and delete it (false: a read-only member of its organization). */
  changeable: z.boolean(),
});
export const boundDeviceSchema = z.object({
  deviceId: z.number(),
  deviceName: z.string(),
  deviceGuid: z.string(),
  deviceTypeName: z.string(),
  online: z.boolean(),
  alarming: z.boolean(),
  enabled: z.boolean(),
});
export const assetDetailSchema = assetSchema.extend({ devices: z.array(boundDeviceSchema) });
export const assetPageSchema = pageOf(assetSchema);
export const assetDeletedSchema = z.object({ released: z.number() });
export type Asset = z.infer<typeof assetSchema>;
export type AssetDetail = z.infer<typeof assetDetailSchema>;
export type BoundDevice = z.infer<typeof boundDeviceSchema>;

export interface AssetFields {
  assetName: string;
  assetType: string | null;
  assetNumber: string | null;
  brand: string | null;
  model: string | null;
  volume: string | null;
  customs: { key: string; value: string }[];
  remark: string | null;
  /** Whose a new asset is: one of the caller's organizations, or null for the caller's own (not changed later). */
  organizationId?: number | null;
}

export const assetKeys = {
  all: ['assets'] as const,
  page: (keyword: string, start: number, pageSize: number) => ['assets', 'page', keyword, start, pageSize] as const,
  one: (id: number) => ['assets', 'one', id] as const,
};

export async function fetchAssets(keyword: string, start: number, pageSize: number) {
  return assetPageSchema.parse(await api.post('/device/Asset/page', { start, pageSize, ...(keyword ? { keyword } : {}) }));
}

export async function fetchAsset(id: number): Promise<AssetDetail> {
  return assetDetailSchema.parse(await api.get('/device/Asset/get', { params: { id }, silent: true }));
}

/** Refusals of a field are left to the form: silent. */
export async function saveAsset(fields: AssetFields, id?: number): Promise<AssetDetail> {
  return assetDetailSchema.parse(id === undefined
    ? await api.post('/device/Asset/insert', fields, { silent: true })
    : await api.put('/device/Asset/update', { ...fields, id }, { silent: true }));
}

export async function deleteAsset(id: number) {
  return assetDeletedSchema.parse(await api.delete('/device/Asset/delete', { params: { id } }));
}

export async function setAssetState(id: number, enabled: boolean) {
  return assetDetailSchema.parse(enabled
    ? await api.put('/device/Asset/enable', { id })
    : await api.put('/device/Asset/disable', { id }));
}

/** A refusal (the five-device limit, a device in another asset) is shown by the dialog: silent. */
export async function bindDevices(id: number, deviceIds: readonly number[]) {
  return assetDetailSchema.parse(await api.post('/device/Asset/bindDevice', { id, deviceIds }, { silent: true }));
}

export async function unbindDevices(id: number, deviceIds: readonly number[]) {
  return assetDetailSchema.parse(await api.post('/device/Asset/unbindDevice', { id, deviceIds }));
}

export function useAssets(keyword: string, start: number, pageSize: number) {
  return useQuery({
    queryKey: assetKeys.page(keyword, start, pageSize),
    queryFn: () => fetchAssets(keyword, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useAsset(id: number | null) {
  return useQuery({ queryKey: assetKeys.one(id ?? 0), queryFn: () => fetchAsset(id ?? 0), enabled: id !== null, retry: false });
}

/** After any change: the assets and the devices' states (enabled, alarm rules) are stale. */
function useInvalidate() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: assetKeys.all }),
    queryClient.invalidateQueries({ queryKey: deviceKeys.all })]);
}

export function useSaveAsset() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ fields, id }: { fields: AssetFields; id?: number }) => saveAsset(fields, id),
    onSettled: invalidate,
  });
}

export function useDeleteAsset() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: deleteAsset, onSettled: invalidate });
}

export function useSetAssetState() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) => setAssetState(id, enabled),
    onSettled: invalidate,
  });
}

export function useBindDevices() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, deviceIds }: { id: number; deviceIds: readonly number[] }) => bindDevices(id, deviceIds),
    onSettled: invalidate,
  });
}

export function useUnbindDevices() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, deviceIds }: { id: number; deviceIds: readonly number[] }) => unbindDevices(id, deviceIds),
    onSettled: invalidate,
  });
}

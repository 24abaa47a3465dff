/**
 * The service catalogue of the back office (/service/package/:id?; src/entrypoints/api/catalogue):
 * packages (POST /payment/PayServicePackages/selectPackagesList, GET selectPackagesDetail, POST
 * insert, PUT update, POST enableServicePackage / stopServicePackage), their levels
 * (PayServiceLevel: insert, PUT update, DELETE delete, sortLevel, uploadLevelIcon), the device
 * types (PayServiceDeviceTypeRel/selectAllTypeList), service items (PayServiceItem: selectAllItem,
 * insert, PUT update, DELETE delete, sortItem) and the free gift (PayServicePresentation).
 * Names are held per language; fees are integer cents of one currency per duration row.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { pageOf } from '@/lib/api/page';
import { api } from '@/lib/http/index';

export const textSchema = z.object({ name: z.string(), description: z.string().nullable() });
/** language -> name (and description); a language left out reads the default's. */
export const namesSchema = z.record(z.string(), textSchema);
export type Names = z.infer<typeof namesSchema>;

export const packageSchema = z.object({
  id: z.number(),
  packageCode: z.string(),
  packageName: z.string(),
  names: namesSchema,
  /** 1 enabled, 0 stopped. */
  status: z.number(),
  enableTime: z.string().nullable(),
  gmtCreate: z.string(),
  deviceTypeIds: z.array(z.number()),
  levelCount: z.number(),
  sold: z.boolean(),
});
export const optionSchema = z.object({
  id: z.number(),
  timeLength: z.number(),
  serviceFee: z.number(),
  dataFee: z.number(),
  currency: z.string(),
  discount: z.number(),
  topStatus: z.boolean(),
  sold: z.boolean(),
});
export const levelSchema = z.object({
  levelId: z.number(),
  packageId: z.number(),
  levelName: z.string(),
  names: namesSchema,
  levelIcon: z.string().nullable(),
  sort: z.number(),
  itemCodes: z.array(z.string()),
  options: z.array(optionSchema),
  inUse: z.boolean(),
});
export const giftSchema = z.object({
  packageId: z.number(),
  levelId: z.number().nullable(),
  timeLength: z.number(),
  smsCount: z.number(),
  voiceCount: z.number(),
  configured: z.boolean(),
});
export const packageDetailSchema = z.object({ package: packageSchema, levels: z.array(levelSchema), gift: giftSchema });
export const packagePageSchema = pageOf(packageSchema);
export const catalogueTypeSchema = z.object({
  id: z.number(),
  typeName: z.string(),
  typeCode: z.number(),
  activePackageId: z.number().nullable(),
});
export const itemSchema = z.object({
  itemCode: z.string(),
  itemLabel: z.string().nullable(),
  sort: z.number(),
  itemName: z.string(),
  names: namesSchema,
});
export type Package = z.infer<typeof packageSchema>;
export type Level = z.infer<typeof levelSchema>;
export type YearRow = z.infer<typeof optionSchema>;
export type Gift = z.infer<typeof giftSchema>;
export type PackageDetail = z.infer<typeof packageDetailSchema>;
export type CatalogueType = z.infer<typeof catalogueTypeSchema>;
export type Item = z.infer<typeof itemSchema>;

export interface PackageFields { packageCode: string; names: Names; deviceTypeIds: number[] }
export interface OptionFields {
  id?: number;
  timeLength: number;
  serviceFee: number;
  dataFee: number;
  currency: string;
  discount: number;
  topStatus: boolean;
}
export interface LevelFields { names: Names; itemCodes: string[]; options: OptionFields[] }
export interface GiftFields { levelId: number | null; timeLength: number; smsCount: number; voiceCount: number }
export interface ItemFields { itemCode: string; itemLabel: string | null; names: Names }

export const catalogueKeys = {
  all: ['catalogue'] as const,
  page: (start: number, pageSize: number) => ['catalogue', 'packages', start, pageSize] as const,
  detail: (id: number) => ['catalogue', 'package', id] as const,
  types: ['catalogue', 'types'] as const,
  items: ['catalogue', 'items'] as const,
};

export async function fetchPackages(start: number, pageSize: number) {
  return packagePageSchema.parse(await api.post('/payment/PayServicePackages/selectPackagesList', { start, pageSize }));
}

export async function fetchPackage(id: number) {
  return packageDetailSchema.parse(await api.get('/payment/PayServicePackages/selectPackagesDetail', { params: { id },
    silent: true }));
}

export async function fetchTypes() {
  return z.array(catalogueTypeSchema).parse(await api.get('/payment/PayServiceDeviceTypeRel/selectAllTypeList'));
}

export async function fetchItems() {
  return z.array(itemSchema).parse(await api.get('/payment/PayServiceItem/selectAllItem'));
}

/** Field refusals are the form's: silent. */
export async function savePackage(fields: PackageFields, id?: number) {
  return packageSchema.parse(id === undefined
    ? await api.post('/payment/PayServicePackages/insert', fields, { silent: true })
    : await api.put('/payment/PayServicePackages/update', { ...fields, id }, { silent: true }));
}

/** A refusal (another enabled package for a type) is shown by the list: silent. */
export async function setPackageEnabled(id: number, enabled: boolean) {
  return packageSchema.parse(enabled
    ? await api.post('/payment/PayServicePackages/enableServicePackage', { id }, { silent: true })
    : await api.post('/payment/PayServicePackages/stopServicePackage', { id }, { silent: true }));
}

export async function saveLevel(fields: LevelFields, target: { packageId: number } | { levelId: number }) {
  return levelSchema.parse('levelId' in target
    ? await api.put('/payment/PayServiceLevel/update', { ...fields, levelId: target.levelId }, { silent: true })
    : await api.post('/payment/PayServiceLevel/insert', { ...fields, packageId: target.packageId }, { silent: true }));
}

export async function deleteLevel(levelId: number) {
  return NOTHING.parse(await api.delete('/payment/PayServiceLevel/delete', { params: { levelId } }));
}

export async function sortLevels(packageId: number, levelIds: number[]) {
  return z.array(levelSchema).parse(await api.post('/payment/PayServiceLevel/sortLevel', { packageId, levelIds }));
}

export async function uploadLevelIcon(levelId: number, file: File) {
  const form = new FormData();
  form.append('levelId', String(levelId));
  form.append('file', file, file.name);
  return levelSchema.parse(await api.post('/payment/PayServiceLevel/uploadLevelIcon', form));
}

export async function saveGift(packageId: number, fields: GiftFields) {
  return giftSchema.parse(await api.put('/payment/PayServicePresentation/update', { ...fields, packageId,
    levelId: fields.levelId ?? undefined }, { silent: true }));
}

export async function saveItem(fields: ItemFields, isNew: boolean) {
  return itemSchema.parse(isNew
    ? await api.post('/payment/PayServiceItem/insert', fields, { silent: true })
    : await api.put('/payment/PayServiceItem/update', fields, { silent: true }));
}

export async function deleteItem(itemCode: string) {
  return NOTHING.parse(await api.delete('/payment/PayServiceItem/delete', { params: { itemCode } }));
}

export async function sortItems(itemCodes: string[]) {
  return z.array(itemSchema).parse(await api.post('/payment/PayServiceItem/sortItem', { itemCodes }));
}

const NOTHING = z.null();

export function usePackages(start: number, pageSize: number) {
  return useQuery({ queryKey: catalogueKeys.page(start, pageSize), queryFn: () => fetchPackages(start, pageSize),
    placeholderData: keepPreviousData });
}

export function usePackage(id: number | null) {
  return useQuery({ queryKey: catalogueKeys.detail(id ?? 0), queryFn: () => fetchPackage(id ?? 0),
    enabled: id !== null, retry: false });
}

export function useTypes() {
  return useQuery({ queryKey: catalogueKeys.types, queryFn: fetchTypes });
}

export function useItems() {
  return useQuery({ queryKey: catalogueKeys.items, queryFn: fetchItems });
}

/** Any change: the whole catalogue is read again. */
export function useCatalogueChange<A, R>(change: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: catalogueKeys.all }) });
}

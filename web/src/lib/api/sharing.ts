/**
 * Device sharing and transfer (/consumer/sharer, the device list's and detail's share and transfer
 * dialogs). Permission templates: POST /device/DevicePermissionModel/list (the two built-ins first,
 * in the reader's language, then the caller's own), .../insert, PUT .../update, DELETE
 * .../delete?id= (refused while shares use it). Shares: POST /device/Device/share (one device or
 * many, with a person, under a template, until an end time or for good; sharing again with the same
 * person replaces the template and end time), POST /device/DeviceShare/page (what I shared, or what
 * was shared with me), PUT .../update (the sharer changes template or end time), POST .../revoke
 * (the sharer revokes, the sharee leaves). Sharing and transfer need device.list:edit, templates and
 * shares consumer.sharer (and its add, edit, delete). Transfer: POST /device/Device/transferPreview (what goes
 * with the devices and what is dropped), POST /device/Device/transfer.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { deviceKeys } from './devices';
import { pageOf } from './page';
import { elementPermissionSchema, type ElementPermission } from '@/lib/access';
import { api } from '@/lib/http/index';

/** The server's bounds: template names, the person named (user name, phone or e-mail), devices per call. */
export const SHARING_LIMITS = { templateName: 10, accountMin: 2, accountMax: 20, devices: 200 } as const;

export const templateSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** "View only" and "Full control": not editable. */
  builtIn: z.boolean(),
  permissions: z.array(elementPermissionSchema),
  /** Shares that use it (it cannot be deleted while any do). */
  shares: z.number(),
});
export type Template = z.infer<typeof templateSchema>;
export const templateListSchema = z.object({ list: z.array(templateSchema) });

export const SHARE_DIRECTIONS = ['mine', 'withMe'] as const;
export type ShareDirection = (typeof SHARE_DIRECTIONS)[number];

export const shareSchema = z.object({
  id: z.number(),
  deviceId: z.number(),
  deviceName: z.string(),
  deviceGuid: z.string(),
  ownerName: z.string(),
  shareeName: z.string(),
  templateId: z.number(),
  templateName: z.string(),
  createdAt: z.string(),
  /** null: until revoked. */
  endTime: z.string().nullable(),
  /** false: its end time has passed. */
  active: z.boolean(),
});
export type Share = z.infer<typeof shareSchema>;
export const sharePageSchema = pageOf(shareSchema);
export type SharePage = z.infer<typeof sharePageSchema>;

const accountSchema = z.object({ id: z.number(), userName: z.string() });
export const sharedSchema = z.object({ shared: z.number(), account: accountSchema });
export const revokedSchema = z.object({ revoked: z.number() });
export const transferPreviewSchema = z.object({
  devices: z.number(),
  /** Shares of these devices the transfer drops. */
  shares: z.number(),
  /** Devices that leave a project. */
  projects: z.number(),
  /** Devices that leave an organization. */
  organizations: z.number(),
});
export type TransferPreview = z.infer<typeof transferPreviewSchema>;
export const transferredSchema = z.object({ transferred: z.number(), sharesDropped: z.number(), account: accountSchema });

export interface TemplateFields {
  name: string;
  permissions: ElementPermission[];
}

export interface ShareRequest {
  deviceIds: readonly number[];
  /** User name, phone or e-mail. */
  account: string;
  templateId: number;
  /** ISO-8601 instant in the future; null: until revoked. */
  endTime: string | null;
}

export const sharingKeys = {
  all: ['sharing'] as const,
  templates: () => ['sharing', 'templates'] as const,
  shares: (direction: ShareDirection, keyword: string, start: number, pageSize: number) =>
    ['sharing', 'shares', direction, keyword, start, pageSize] as const,
  preview: (deviceIds: readonly number[]) => ['sharing', 'transferPreview', deviceIds] as const,
};

export async function fetchTemplates(): Promise<Template[]> {
  return templateListSchema.parse(await api.post('/device/DevicePermissionModel/list', {})).list;
}

/** Refusals (a name taken, too long) are left to the form: silent. */
export async function saveTemplate(fields: TemplateFields, id?: number): Promise<Template> {
  return templateSchema.parse(id === undefined
    ? await api.post('/device/DevicePermissionModel/insert', fields, { silent: true })
    : await api.put('/device/DevicePermissionModel/update', { ...fields, id }, { silent: true }));
}

export async function deleteTemplate(id: number): Promise<void> {
  await api.delete('/device/DevicePermissionModel/delete', { params: { id } });
}

/** Refusals (no such person, yourself) are left to the dialog: silent. */
export async function shareDevices(request: ShareRequest) {
  return sharedSchema.parse(await api.post('/device/Device/share', request, { silent: true }));
}

export async function fetchShares(direction: ShareDirection, keyword: string, start: number, pageSize: number) {
  return sharePageSchema.parse(await api.post('/device/DeviceShare/page', {
    direction, start, pageSize, ...(keyword ? { keyword } : {}),
  }));
}

export async function updateShare(id: number, templateId: number, endTime: string | null): Promise<void> {
  await api.put('/device/DeviceShare/update', { id, templateId, endTime }, { silent: true });
}

export async function revokeShares(ids: readonly number[]) {
  return revokedSchema.parse(await api.post('/device/DeviceShare/revoke', { ids }));
}

export async function fetchTransferPreview(deviceIds: readonly number[]) {
  return transferPreviewSchema.parse(await api.post('/device/Device/transferPreview', { deviceIds }));
}

/** Refusals (no such person, yourself) are left to the dialog: silent. */
export async function transferDevices(deviceIds: readonly number[], account: string) {
  return transferredSchema.parse(await api.post('/device/Device/transfer', { deviceIds, account }, { silent: true }));
}

export function useTemplates(enabled = true) {
  return useQuery({ queryKey: sharingKeys.templates(), queryFn: fetchTemplates, enabled });
}

export function useShares(direction: ShareDirection, keyword: string, start: number, pageSize: number) {
  return useQuery({
    queryKey: sharingKeys.shares(direction, keyword, start, pageSize),
    queryFn: () => fetchShares(direction, keyword, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useTransferPreview(deviceIds: readonly number[]) {
  return useQuery({
    queryKey: sharingKeys.preview(deviceIds),
    queryFn: () => fetchTransferPreview(deviceIds),
    enabled: deviceIds.length > 0,
    staleTime: 0,
  });
}

/** After any change: shares, templates' counts and the devices (what the caller sees of them) are stale. */
function useInvalidate() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: sharingKeys.all }),
    queryClient.invalidateQueries({ queryKey: deviceKeys.all })]);
}

export function useSaveTemplate() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ fields, id }: { fields: TemplateFields; id?: number }) => saveTemplate(fields, id),
    onSettled: invalidate,
  });
}

export function useDeleteTemplate() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: deleteTemplate, onSettled: invalidate });
}

export function useShareDevices() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: shareDevices, onSettled: invalidate });
}

export function useUpdateShare() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, templateId, endTime }: { id: number; templateId: number; endTime: string | null }) =>
      updateShare(id, templateId, endTime),
    onSettled: invalidate,
  });
}

export function useRevokeShares() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: revokeShares, onSettled: invalidate });
}

export function useTransferDevices() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ deviceIds, account }: { deviceIds: readonly number[]; account: string }) => transferDevices(deviceIds, account),
    onSettled: invalidate,
  });
}

/**
 * The organizations the caller belongs to, with its role in each (GET /base/BaseOrganization/list):
 * the organizations page lists them, and the device list and projects offer those whose devices
 * the caller changes (changesDevices) as where to move devices or make a project.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ORGANIZATIONS_KEY } from '@/lib/api/organizationsKey';
import { api } from '@/lib/http/index';

export const myOrganizationSchema = z.object({
  organizationId: z.number(),
  organizationName: z.string(),
  roleCode: z.string(),
  roleName: z.string(),
  creator: z.boolean(),
  memberCount: z.number(),
  deviceCount: z.number(),
  /** The caller's role changes its devices, projects and assets (its creator and administrators). */
  changesDevices: z.boolean(),
});
export type MyOrganization = z.infer<typeof myOrganizationSchema>;

export const MY_ORGANIZATIONS_KEY = [...ORGANIZATIONS_KEY, 'mine'] as const;

export function useMyOrganizations(enabled = true) {
  return useQuery({ queryKey: MY_ORGANIZATIONS_KEY, enabled,
    queryFn: async () => z.array(myOrganizationSchema).parse(await api.get('/base/BaseOrganization/list')) });
}

/** Those of them where the caller changes the devices. */
export function useManagedOrganizations(enabled = true): MyOrganization[] {
  return (useMyOrganizations(enabled).data ?? []).filter((organization) => organization.changesDevices);
}

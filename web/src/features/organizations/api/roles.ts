/**
 * An organization's roles (/consumer/role): GET /base/BaseRole/queryRoleByOrganizationType with the
 * organization (its built-in roles, names in the reader's language, then its custom ones), GET
 * /base/BaseRole/queryOrganizationPermissions (what a custom role may grant, by route with its
 * actions), POST /base/BaseRole/insert, PUT /base/BaseRole/update, DELETE /base/BaseRole/delete.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ORGANIZATIONS_KEY } from '@/lib/api/organizationsKey';
import { api } from '@/lib/http/index';

/** The server's bounds (src/core/organizations/custom_roles.py). */
export const ROLE_LIMITS = { name: 20, description: 20 } as const;

import { organizationRoleSchema } from '@/lib/api/organizationPeople';

export { organizationRoleSchema, type OrganizationRole, useOrganizationRoles } from '@/lib/api/organizationPeople';

export const permissionRouteSchema = z.object({
  route: z.string(),
  actions: z.array(z.string()),
  fixed: z.boolean(),
});
export type PermissionRoute = z.infer<typeof permissionRouteSchema>;

const keys = {
  grantable: [...ORGANIZATIONS_KEY, 'grantable'] as const,
};

export function useGrantablePermissions() {
  return useQuery({ queryKey: keys.grantable, staleTime: Infinity,
    queryFn: async () => z.array(permissionRouteSchema).parse(await api.get('/base/BaseRole/queryOrganizationPermissions')) });
}

export interface RoleFields {
  roleName: string;
  description: string | null;
  permissions: string[];
}

/** Makes a role (`organizationId`) or changes one (`roleId`); every organization query refreshes after. */
export function useSaveRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ fields, organizationId, roleId }: { fields: RoleFields; organizationId: number; roleId?: number | null }) =>
      organizationRoleSchema.parse(roleId
        ? await api.put('/base/BaseRole/update', { roleId, ...fields }, { silent: true })
        : await api.post('/base/BaseRole/insert', { organizationId, ...fields }, { silent: true })),
    onSettled: () => client.invalidateQueries({ queryKey: ORGANIZATIONS_KEY }),
  });
}

export function useDeleteRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (roleId: number) => {
      await api.delete('/base/BaseRole/delete', { params: { roleId }, silent: true });
    },
    onSettled: () => client.invalidateQueries({ queryKey: ORGANIZATIONS_KEY }),
  });
}

/**
 * Who is in an organization and the roles they may hold: GET /base/BaseOrganization/members and GET
 * /base/BaseRole/queryRoleByOrganizationType with the organization (its built-in roles, names in the
 * reader's language, then its custom ones). Shared: the organizations and roles pages, and the FDA
 * endorsements that name who may sign by role or by person.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ORGANIZATIONS_KEY } from '@/lib/api/organizationsKey';
import { api } from '@/lib/http/index';

export const memberSchema = z.object({
  accountId: z.number(),
  userName: z.string(),
  realName: z.string().nullable(),
  roleCode: z.string(),
  roleName: z.string(),
  creator: z.boolean(),
});
export type Member = z.infer<typeof memberSchema>;

export const membersSchema = z.object({
  myRole: z.string(),
  members: z.array(memberSchema),
  invitations: z.array(z.object({
    invitationId: z.number(), displayName: z.string(), roleCode: z.string(), createdAt: z.string(), expiresAt: z.string(),
  })),
});
export type Members = z.infer<typeof membersSchema>;

export const organizationRoleSchema = z.object({
  roleId: z.number().nullable(),
  roleCode: z.string(),
  roleName: z.string(),
  description: z.string().nullable(),
  roleType: z.number(),
  builtIn: z.boolean(),
  assignable: z.boolean(),
  permissions: z.array(z.string()),
  memberCount: z.number(),
});
export type OrganizationRole = z.infer<typeof organizationRoleSchema>;

export const peopleKeys = {
  members: (id: number) => [...ORGANIZATIONS_KEY, 'members', id] as const,
  roles: (id: number) => [...ORGANIZATIONS_KEY, 'roles', id] as const,
};

/** The members and invitations of an organization; null: none asked for. */
export function useMembers(organizationId: number | null) {
  return useQuery({ queryKey: peopleKeys.members(organizationId ?? 0), enabled: organizationId !== null,
    queryFn: async () => membersSchema.parse(await api.get('/base/BaseOrganization/members',
      { params: { organizationId } })) });
}

/** The roles a member of the organization may hold; null: none asked for. */
export function useOrganizationRoles(organizationId: number | null) {
  return useQuery({ queryKey: peopleKeys.roles(organizationId ?? 0), enabled: organizationId !== null,
    queryFn: async () => z.array(organizationRoleSchema).parse(await api.get('/base/BaseRole/queryRoleByOrganizationType',
      { params: { organizationType: 2, organizationId } })) });
}

/**
 * Organizations and members (/organization/list): GET /base/BaseOrganization/list (mine, with my
 * role), .../insert, PUT .../update (rename), DELETE .../delete (dissolve), GET .../members; POST
 * /base/BaseAccount/invite (the invitee answers in the message
 * centre), DELETE .../withdrawInvitation, DELETE .../deleteInOrganization, PUT
 * .../updateAccountOrganizationRel (hand the creator identity over); PUT
 * /base/BaseRole/updateRoleInOrganization. The roles offered are the organization type's
 * assignable ones (GET /base/BaseRole/queryRoleByOrganizationType lists the same).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { myOrganizationSchema } from '@/lib/api/myOrganizations';
import { ORGANIZATIONS_KEY } from '@/lib/api/organizationsKey';
import { api } from '@/lib/http/index';

/** The server's bounds (src/core/organizations/model.py). */
export const ORGANIZATION_LIMITS = { nameMin: 2, nameMax: 50, inviteeMin: 2, inviteeMax: 20 } as const;
export const ROLE_CODES = ['org_creator', 'org_admin', 'org_member'] as const;
export type RoleCode = (typeof ROLE_CODES)[number];
export const ASSIGNABLE: readonly RoleCode[] = ['org_admin', 'org_member'];
export const MANAGERS: readonly string[] = ['org_creator', 'org_admin'];

export { myOrganizationSchema, type MyOrganization, useMyOrganizations } from '@/lib/api/myOrganizations';

export { memberSchema, membersSchema, useMembers, type Member, type Members } from '@/lib/api/organizationPeople';

export const invitationSchema = z.object({ invitationId: z.number(), displayName: z.string(), expiresAt: z.string() });

const KEY = ORGANIZATIONS_KEY;

/** A mutation that refreshes every organization query when it settles. */
function useOrgMutation<A, R>(call: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => client.invalidateQueries({ queryKey: KEY }) });
}

export const useCreateOrganization = () => useOrgMutation(async (organizationName: string) =>
  myOrganizationSchema.parse(await api.post('/base/BaseOrganization/insert', { organizationName })));
export const useRenameOrganization = () => useOrgMutation(
  async (body: { organizationId: number; organizationName: string }) => {
    await api.put('/base/BaseOrganization/update', body);
  });
export const useDissolveOrganization = () => useOrgMutation(async (organizationId: number) => {
  await api.delete('/base/BaseOrganization/delete', { params: { organizationId } });
});
export const useInvite = () => useOrgMutation(
  async (body: { organizationId: number; uep: string; roleCode: string }) =>
    invitationSchema.parse(await api.post('/base/BaseAccount/invite', body, { silent: true })));
export const useWithdrawInvitation = () => useOrgMutation(async (invitationId: number) => {
  await api.delete('/base/BaseAccount/withdrawInvitation', { params: { invitationId } });
});
export const useRemoveMember = () => useOrgMutation(async (params: { organizationId: number; accountId: number }) => {
  await api.delete('/base/BaseAccount/deleteInOrganization', { params });
});
export const useChangeRole = () => useOrgMutation(
  async (body: { organizationId: number; accountId: number; roleCode: string }) => {
    await api.put('/base/BaseRole/updateRoleInOrganization', body);
  });
export const useHandOver = () => useOrgMutation(async (body: { organizationId: number; accountId: number }) => {
  await api.put('/base/BaseAccount/updateAccountOrganizationRel', body);
});

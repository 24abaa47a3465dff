/**
 * User administration (/operation/consumer/list and role): POST /base/BaseAccount/queryUserByCondition
 * to find accounts, sysAddUser, sysModifyUser, sysDeleteUser (soft), resetPasswordBySys (the new
 * password answered once), PUT userTypeUpgrade (personal to enterprise), contractorCertify,
 * exportUserByCondition (XLSX); POST /base/BaseRole/querySystemRoleList and GET queryRolesByCampAccount.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { pageOf } from '@/lib/api/page';
import { api } from '@/lib/http/index';

/** The server's bounds (src/core/accounts/rules.py, src/core/useradmin/model.py). */
export const USER_LIMITS = { nameMin: 6, name: 50, realName: 20, companyMin: 2, company: 50, email: 200, search: 50 } as const;
/** Account types: 1 personal, 2 enterprise, 3 engineer (contractor), 4 dealer, 9 back office. */
export const ACCOUNT_TYPES = [1, 2, 3, 4, 9] as const;
/** The account types each assignable system role takes (src/core/useradmin/model.py TYPES_OF_ROLE). */
export const TYPES_OF_ROLE: Readonly<Record<string, readonly number[]>> = {
  system_admin: [9], operator: [9], calibration_admin: [9],
  customer_personal: [1, 3], customer_enterprise: [2], dealer: [4],
};
export const BACK_OFFICE_ROLES = ['system_admin', 'operator', 'calibration_admin'];

export const managedUserSchema = z.object({
  id: z.number(),
  userName: z.string(),
  realName: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  company: z.string().nullable(),
  accountType: z.number(),
  accountTypeName: z.string(),
  roleCode: z.string().nullable(),
  roleName: z.string().nullable(),
  identity: z.string().nullable(),
  industry: z.string().nullable(),
  createdAt: z.string(),
  deleted: z.boolean(),
  deletedAt: z.string().nullable(),
  /** 0 not a contractor, 1 applied (agreement accepted), 2 certified. */
  contractorState: z.number(),
  contractorAppliedAt: z.string().nullable(),
  contractorAgreement: z.string().nullable(),
});
export type ManagedUser = z.infer<typeof managedUserSchema>;
export const userPageSchema = pageOf(managedUserSchema);
export const addedUserSchema = managedUserSchema.extend({ password: z.string().nullable() });
export const newPasswordSchema = z.object({ password: z.string() });
export const systemRoleSchema = z.object({
  id: z.number(),
  roleCode: z.string(),
  roleName: z.string(),
  description: z.string().nullable(),
  roleType: z.number(),
  permissions: z.array(z.string()),
});
export type SystemRole = z.infer<typeof systemRoleSchema>;
/** A role an account holds: its system role (no organization), or its role in one of its organizations. */
export const accountRoleSchema = systemRoleSchema.extend({
  organizationId: z.number().nullable(),
  organizationName: z.string().nullable(),
});
export type AccountRole = z.infer<typeof accountRoleSchema>;

export interface UserFilter {
  userName?: string;
  phone?: string;
  email?: string;
  accountType?: number;
  roleCode?: string;
  deleted?: boolean;
}

export interface UserFields {
  realName: string | null;
  phone: string | null;
  email: string | null;
  company: string | null;
  accountType: number;
  roleCode: string;
}

export const userKeys = {
  all: ['useradmin'] as const,
  page: (filter: UserFilter, start: number, pageSize: number) => ['useradmin', 'page', filter, start, pageSize] as const,
  roles: ['useradmin', 'roles'] as const,
};

/** The filter without its empty fields: the server refuses an empty search text. */
export function cleanFilter(filter: UserFilter): UserFilter {
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== '' && v !== undefined && v !== null));
}

export async function fetchUsers(filter: UserFilter, start: number, pageSize: number) {
  return userPageSchema.parse(await api.post('/base/BaseAccount/queryUserByCondition', {
    start, pageSize, ...cleanFilter(filter),
  }));
}

/** Refusals of a field are left to the form: silent. */
export async function addUser(fields: UserFields & { userName: string; accountPassword: string | null }) {
  return addedUserSchema.parse(await api.post('/base/BaseAccount/sysAddUser', fields, { silent: true }));
}

export async function modifyUser(id: number, fields: UserFields) {
  return managedUserSchema.parse(await api.post('/base/BaseAccount/sysModifyUser', { ...fields, id }, { silent: true }));
}

export async function deleteUser(id: number) {
  await api.post('/base/BaseAccount/sysDeleteUser', { id });
}

export async function resetPassword(id: number) {
  return newPasswordSchema.parse(await api.post('/base/BaseAccount/resetPasswordBySys', { id }));
}

export async function upgradeUser(id: number) {
  return managedUserSchema.parse(await api.put('/base/BaseAccount/userTypeUpgrade', { id }));
}

export async function certifyContractor(id: number, certified: boolean) {
  return managedUserSchema.parse(await api.post('/base/BaseAccount/contractorCertify', { id, certified }));
}

export async function exportUsers(filter: UserFilter) {
  return api.download('/base/BaseAccount/exportUserByCondition', { method: 'POST', body: cleanFilter(filter) });
}

export async function fetchSystemRoles() {
  return z.array(systemRoleSchema).parse(await api.post('/base/BaseRole/querySystemRoleList'));
}

/** Every role the account holds: its system role, then its role in each organization it belongs to. */
export async function fetchRolesOfAccount(accountId: number) {
  return z.array(accountRoleSchema).parse(await api.get('/base/BaseRole/queryRolesByCampAccount', { params: { accountId } }));
}

export function useUsers(filter: UserFilter, start: number, pageSize: number) {
  return useQuery({
    queryKey: userKeys.page(filter, start, pageSize),
    queryFn: () => fetchUsers(filter, start, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useSystemRoles() {
  return useQuery({ queryKey: userKeys.roles, queryFn: fetchSystemRoles, staleTime: 5 * 60_000 });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: userKeys.all });
}

/** Every change to an account: the list is stale after it, whatever the outcome. */
export function useUserChange<A, R>(change: (args: A) => Promise<R>) {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: change, onSettled: invalidate });
}

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import type { ManagedUser, SystemRole } from './api/users';
import RolesPage from './RolesPage';
import UsersPage from './UsersPage';
import { userFormSchema } from './userForm';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const PERMITTED = ['home', 'system.consumer', 'system.consumer:query', 'system.consumer:add', 'system.consumer:edit',
  'system.consumer:delete', 'system.consumer:export'];
const page = <T,>(rows: T[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });
const ROLES: SystemRole[] = [
  { id: 2, roleCode: 'operator', roleName: 'Operator', description: null, roleType: 1,
    permissions: ['home', 'system.consumer', 'system.consumer:query'] },
  { id: 3, roleCode: 'customer_personal', roleName: 'Personal customer', description: null, roleType: 1,
    permissions: ['device.list', 'device.list:add'] },
];

function account(change: Partial<ManagedUser> = {}): ManagedUser {
  return { id: 5, userName: 'alice', realName: 'Alice', phone: '13800000001', email: 'alice@example.com', company: null,
    accountType: 1, accountTypeName: 'Personal', roleCode: 'customer_personal', roleName: 'Personal customer',
    identity: null, industry: null, createdAt: '2026-11-01T08:00:00+08:00', deleted: false, deletedAt: null,
    contractorState: 0, contractorAppliedAt: null, contractorAgreement: null, ...change };
}

describe('user administration', () => {
  it('checks the form as the server does', () => {
    const schema = userFormSchema(i18n.t.bind(i18n) as never, true);
    const base = { userName: 'carol_cold', accountPassword: '', realName: '', company: '', phone: '', email: '',
      roleCode: 'customer_personal', accountType: 1 };
    const ok = (change: Partial<typeof base>) => schema.safeParse({ ...base, ...change }).success;
    expect(ok({})).toBe(true);
    expect(ok({ userName: 'abc' })).toBe(false);
    expect(ok({ userName: '1carol_x' })).toBe(false);
    expect(ok({ accountPassword: 'Frost!Line42' })).toBe(true);
    expect(ok({ accountPassword: 'frostline' })).toBe(false);
    expect(ok({ realName: 'Carol 😀' })).toBe(false);
    expect(ok({ realName: 'r'.repeat(21) })).toBe(false);
    expect(ok({ phone: '12345' })).toBe(false);
    expect(ok({ accountType: 2 })).toBe(false);
    expect(ok({ roleCode: 'operator', accountType: 9 })).toBe(true);
  });

  it('searches, resets a password shown once, and deletes after confirming', async () => {
    let rows = [account(), account({ id: 6, userName: 'bob', contractorState: 1, accountType: 3 })];
    const server = fakeServer({
      'POST /base/BaseAccount/queryUserByCondition': (call) => {
        const { userName } = call.body as { userName?: string };
        return page(userName ? rows.filter((r) => r.userName.includes(userName)) : rows);
      },
      'POST /base/BaseRole/querySystemRoleList': () => envelope(ROLES),
      'POST /base/BaseAccount/resetPasswordBySys': () => envelope({ password: 'N3w#Secret-Pass' }),
      'POST /base/BaseAccount/sysDeleteUser': (call) => {
        rows = rows.filter((r) => r.id !== (call.body as { id: number }).id);
        return envelope(null);
      },
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<UsersPage />, '/operation/consumer/list');
    expect(await screen.findAllByTestId('ua-row')).toHaveLength(2);
    expect(screen.getByTestId('ua-contractor')).toHaveTextContent('Not certified');
    const user = userEvent.setup();
    await user.type(screen.getByTestId('ua-search-userName'), ' ali ');
    await user.click(screen.getByTestId('ua-search-submit'));
    await waitFor(() => expect(screen.getAllByTestId('ua-row')).toHaveLength(1));
    expect(server.callsTo('POST /base/BaseAccount/queryUserByCondition').at(-1)?.body).toEqual(
      { start: 1, pageSize: 10, userName: 'ali', deleted: false });
    await user.click(screen.getByTestId('ua-reset'));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByTestId('ua-new-password')).toHaveValue('N3w#Secret-Pass');
    await user.click(screen.getByTestId('ua-password-done'));
    await waitFor(() => expect(screen.queryByTestId('ua-new-password')).not.toBeInTheDocument());
    await user.click(screen.getByTestId('ua-delete'));
    expect(screen.getByTestId('ua-confirm')).toHaveTextContent('Delete alice?');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(server.callsTo('POST /base/BaseAccount/sysDeleteUser')[0]?.body).toEqual({ id: 5 }));
    expect(await screen.findByText('No account matches the search')).toBeInTheDocument();
  });

  it('shows each system role with its permissions, read-only', async () => {
    fakeServer({ 'POST /base/BaseRole/querySystemRoleList': () => envelope(ROLES) });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<RolesPage />, '/operation/consumer/role');
    const user = userEvent.setup();
    await user.click(await screen.findByText('Personal customer'));
    expect(await screen.findByText('device.list')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });
});

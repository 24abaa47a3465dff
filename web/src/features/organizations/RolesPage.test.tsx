import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import type { MyOrganization } from './api/organizations';
import type { OrganizationRole, PermissionRoute } from './api/roles';
import { chosenPermissions, roleFormSchema, routeState, toggleAction, toggleRoute } from './roleForm';
import RolesPage from './RolesPage';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const HELD = ['home', 'organization.list', 'consumer.role'];
const ACME: MyOrganization = { organizationId: 3, organizationName: 'Acme Cold Chain', roleCode: 'org_creator',
  changesDevices: true,
  roleName: 'Organization creator', creator: true, memberCount: 2, deviceCount: 2 };
const TREE: PermissionRoute[] = [
  { route: 'organization.list', actions: ['organization.list:query', 'organization.list:detail'], fixed: true },
  { route: 'consumer.list', actions: ['consumer.list:query', 'consumer.list:detail'], fixed: false },
  { route: 'device.list', actions: ['device.list:add', 'device.list:edit'], fixed: false },
];
const BASE = ['organization.list', 'organization.list:query', 'organization.list:detail'];
const builtIn = (roleCode: string, assignable: boolean): OrganizationRole => ({ roleId: null, roleCode, roleName: roleCode,
  description: null, roleType: 2, builtIn: true, assignable, permissions: [...BASE, 'device.list'], memberCount: 0 });
const DISPATCH: OrganizationRole = { roleId: 41, roleCode: 'custom_41', roleName: 'Dispatcher', description: 'reads the team',
  roleType: 3, builtIn: false, assignable: true, permissions: [...BASE, 'consumer.list', 'consumer.list:query'], memberCount: 1 };

function open(organizations: MyOrganization[], extra = {}) {
  const server = fakeServer({
    'GET /base/BaseOrganization/list': () => envelope(organizations),
    'GET /base/BaseRole/queryRoleByOrganizationType': () => envelope([
      builtIn('org_creator', false), builtIn('org_admin', true), builtIn('org_member', true), DISPATCH]),
    'GET /base/BaseRole/queryOrganizationPermissions': () => envelope(TREE),
    ...extra,
  });
  signIn(accountInfo({}, { permissionRoutes: HELD }), HELD);
  renderApp(<RolesPage />, '/consumer/role');
  return server;
}

describe('the permission tree', () => {
  const [, people, devices] = TREE as [PermissionRoute, PermissionRoute, PermissionRoute];

  it('checks a route with all its actions, shows some as partial and brings the route with an action', () => {
    expect(routeState(people, new Set())).toBe('none');
    const all = toggleRoute(people, []);
    expect(new Set(all)).toEqual(new Set(['consumer.list', 'consumer.list:query', 'consumer.list:detail']));
    expect(routeState(people, new Set(all))).toBe('checked');
    expect(toggleRoute(people, all)).toEqual([]);
    const one = toggleAction(devices, 'device.list:edit', []);
    expect(new Set(one)).toEqual(new Set(['device.list', 'device.list:edit']));
    expect(routeState(devices, new Set(one))).toBe('partial');
    expect(toggleRoute(devices, one).sort()).toEqual(['device.list', 'device.list:add', 'device.list:edit']);
    expect(toggleAction(devices, 'device.list:edit', one)).toEqual(['device.list']);
  });

  it('never sends the fixed baseline nor names it does not know', () => {
    expect(routeState(TREE[0] as PermissionRoute, new Set())).toBe('checked');
    expect(chosenPermissions(TREE, [...BASE, 'device.list', 'system.role', 'device.list'])).toEqual(['device.list']);
  });

  it('checks names and descriptions as the server does', () => {
    const schema = roleFormSchema(i18n.t.bind(i18n) as never);
    const ok = (roleName: string, description = '') => schema.safeParse({ roleName, description, permissions: [] }).success;
    expect(ok('Dispatcher')).toBe(true);
    expect(ok('Ж'.repeat(20), '描'.repeat(20))).toBe(true);
    expect(ok('   ')).toBe(false);
    expect(ok('x'.repeat(21))).toBe(false);
    expect(ok('Cold 🧊')).toBe(false);
    expect(ok('fine', 'y'.repeat(21))).toBe(false);
    expect(ok('fine', 'nice ❤️')).toBe(false);
  });
});

describe('the roles page', () => {
  it('lists built-in roles without actions and custom ones to edit', async () => {
    open([ACME]);
    const row = (await screen.findByText('Dispatcher')).closest('tr') as HTMLElement;
    expect(within(row).getByTestId('role-edit')).toBeTruthy();
    const builtInRows = screen.getAllByTestId('role-row').filter((r) => r.dataset.code?.startsWith('org_'));
    expect(builtInRows).toHaveLength(3);
    for (const r of builtInRows) {
      expect(within(r).queryByTestId('role-edit')).toBeNull();
      expect(within(r).getByTestId('role-built-in')).toBeTruthy();
    }
    expect(screen.queryByTestId('roles-organization')).toBeNull();  // one organization: no chooser
  });

  it('makes a role from the tree and sends what was checked', async () => {
    const server = open([ACME], { 'POST /base/BaseRole/insert': () => envelope({ ...DISPATCH, roleId: 42, roleName: 'Crew' }) });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('role-add'));
    await user.type(screen.getByTestId('role-name'), '  Crew ');
    const devices = (await screen.findAllByTestId('perm-route')).find((b) => b.dataset.route === 'device.list') as HTMLElement;
    expect(devices.dataset.state).toBe('none');
    await user.click(devices);
    await user.click(screen.getByTestId('role-save'));
    await waitFor(() => expect(server.callsTo('POST /base/BaseRole/insert')).toHaveLength(1));
    expect(server.callsTo('POST /base/BaseRole/insert')[0]?.body).toEqual({ organizationId: 3, roleName: 'Crew',
      description: null, permissions: ['device.list', 'device.list:add', 'device.list:edit'] });
  });

  it('shows the server refusal under the field and says why a held role stays', async () => {
    open([ACME], {
      'PUT /base/BaseRole/update': () => envelope(null, 422, 422, 'Invalid', { roleName: ['The organization already has a role of this name'] }),
      'DELETE /base/BaseRole/delete': () => envelope(null, 1721, 409, '1 members hold this role: give them another role before deleting it'),
    });
    const user = userEvent.setup();
    const row = (await screen.findByText('Dispatcher')).closest('tr') as HTMLElement;
    await user.click(within(row).getByTestId('role-edit'));
    expect((screen.getByTestId('role-name') as HTMLInputElement).value).toBe('Dispatcher');
    await user.click(screen.getByTestId('role-save'));
    expect(await screen.findByText('The organization already has a role of this name')).toBeTruthy();
    await user.click(screen.getByText(i18n.t('organizations:cancel')));
    await user.click(within(row).getByTestId('role-delete'));
    await screen.findByTestId('role-confirm');
    await user.click(screen.getAllByRole('button', { name: i18n.t('organizations:roles.delete') }).at(-1) as HTMLElement);
    expect(await screen.findByTestId('role-error')).toHaveProperty('textContent',
      '1 members hold this role: give them another role before deleting it');
  });

  it('offers a chooser when the reader is in several organizations, read-only where they do not manage', async () => {
    const other = { ...ACME, organizationId: 5, organizationName: 'Night shift', roleCode: 'org_member', creator: false };
    const server = open([ACME, other]);
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByTestId('roles-organization'), '5');
    expect(await screen.findByText(i18n.t('organizations:roles.readOnly'))).toBeTruthy();
    expect(screen.queryByTestId('role-add')).toBeNull();
    await waitFor(() => expect(server.callsTo('GET /base/BaseRole/queryRoleByOrganizationType')
      .map((c) => c.params.get('organizationId'))).toContain('5'));
  });
});

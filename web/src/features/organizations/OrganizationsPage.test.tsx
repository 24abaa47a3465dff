import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import type { Members, MyOrganization } from './api/organizations';
import { inviteSchema, nameSchema } from './components/dialogs';
import OrganizationsPage from './OrganizationsPage';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const ENTERPRISE = ['home', 'organization.list', 'organization.list:add', 'organization.list:edit'];
const ACME: MyOrganization = { organizationId: 3, organizationName: 'Acme Cold Chain', roleCode: 'org_creator',
  changesDevices: true,
  roleName: 'Organization creator', creator: true, memberCount: 2, deviceCount: 2 };

function members(myRole = 'org_creator'): Members {
  return {
    myRole,
    members: [
      { accountId: 7, userName: 'acme', realName: null, roleCode: 'org_creator', roleName: 'Organization creator', creator: true },
      { accountId: 9, userName: 'bob', realName: 'Bob Li', roleCode: 'org_member', roleName: 'Organization member', creator: false },
    ],
    invitations: [],
  };
}

function open(organization: MyOrganization, listing: Members, extra = {}) {
  const server = fakeServer({
    'GET /base/BaseOrganization/list': () => envelope([organization]),
    'GET /base/BaseOrganization/members': () => envelope(listing),
    ...extra,
  });
  signIn(accountInfo({}, { permissionRoutes: ENTERPRISE, baseAccount: { ...accountInfo().baseAccount, id: 7, userName: 'acme' } }),
    ENTERPRISE);
  renderApp(<OrganizationsPage />, '/organization/list');
  return server;
}

describe('organizations', () => {
  it('checks names and invitees as the server does', () => {
    const t = i18n.t.bind(i18n) as never;
    expect(nameSchema(t).safeParse({ organizationName: ' A ' }).success).toBe(false);
    expect(nameSchema(t).safeParse({ organizationName: 'x'.repeat(51) }).success).toBe(false);
    expect(nameSchema(t).safeParse({ organizationName: '  Night shift ' }).success).toBe(true);
    expect(nameSchema(t).safeParse({ organizationName: 'Night 🧊' }).success).toBe(false);
    expect(inviteSchema(t).safeParse({ uep: 'a', roleCode: 'org_member' }).success).toBe(false);
    expect(inviteSchema(t).safeParse({ uep: 'alice', roleCode: 'org_creator' }).success).toBe(false);
    expect(inviteSchema(t).safeParse({ uep: 'alice@example.com', roleCode: 'org_admin' }).success).toBe(true);
  });

  it('lists the members, changes a role and removes a member only after confirmation', async () => {
    const server = open(ACME, members(), {
      'PUT /base/BaseRole/updateRoleInOrganization': () => envelope(null),
      'DELETE /base/BaseAccount/deleteInOrganization': () => envelope(null),
    });
    const bob = await screen.findByText('bob');
    const row = bob.closest('tr') as HTMLElement;
    // the creator's own row offers no role change, hand-over or removal
    const [acmeRow] = screen.getAllByTestId('member-row').filter((r) => r.dataset.user === 'acme') as [HTMLElement];
    expect(within(acmeRow).queryByTestId('member-role')).toBeNull();
    expect(within(acmeRow).queryByTestId('member-remove')).toBeNull();
    const user = userEvent.setup();
    await user.selectOptions(within(row).getByTestId('member-role'), 'org_admin');
    await waitFor(() => expect(server.callsTo('PUT /base/BaseRole/updateRoleInOrganization')).toHaveLength(1));
    expect(server.callsTo('PUT /base/BaseRole/updateRoleInOrganization')[0]?.body)
      .toEqual({ organizationId: 3, accountId: 9, roleCode: 'org_admin' });
    await user.click(within(row).getByTestId('member-remove'));
    expect(await screen.findByTestId('org-confirm')).toHaveTextContent('Remove bob from Acme Cold Chain?');
    expect(server.callsTo('DELETE /base/BaseAccount/deleteInOrganization')).toHaveLength(0);
    const alert = screen.getByTestId('org-confirm').closest('.bp6-alert') as HTMLElement;
    await user.click(within(alert).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(server.callsTo('DELETE /base/BaseAccount/deleteInOrganization')).toHaveLength(1));
    expect(server.callsTo('DELETE /base/BaseAccount/deleteInOrganization')[0]?.params.get('accountId')).toBe('9');
  });

  it('invites with a role and shows the server\'s refusal in the dialog', async () => {
    let refuse = true;
    const server = open(ACME, members(), {
      'POST /base/BaseAccount/invite': () => (refuse
        ? envelope(null, 1702, 409, 'No account that can be invited matches this user name, phone or e-mail')
        : envelope({ invitationId: 5, displayName: 'a***e', expiresAt: '2026-06-08T08:00:00+08:00' })),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('org-invite'));
    await user.type(screen.getByTestId('invite-uep'), 'nobody');
    await user.click(screen.getByTestId('invite-send'));
    expect(await screen.findByTestId('invite-error')).toHaveTextContent('No account that can be invited');
    refuse = false;
    await user.clear(screen.getByTestId('invite-uep'));
    await user.type(screen.getByTestId('invite-uep'), 'alice@example.com');
    await user.selectOptions(screen.getByTestId('invite-role'), 'org_admin');
    await user.click(screen.getByTestId('invite-send'));
    expect(await screen.findByTestId('invite-sent')).toHaveTextContent('Invitation sent to a***e');
    expect(server.callsTo('POST /base/BaseAccount/invite')[1]?.body)
      .toEqual({ organizationId: 3, uep: 'alice@example.com', roleCode: 'org_admin' });
  });

  it('gives a read-only member no management', async () => {
    open({ ...ACME, roleCode: 'org_member', roleName: 'Organization member', creator: false }, members('org_member'));
    await screen.findByText('bob');
    for (const id of ['org-invite', 'org-rename', 'org-dissolve', 'member-role', 'member-remove', 'member-hand-over']) {
      expect(screen.queryByTestId(id)).toBeNull();
    }
  });

  it('creates an organization from the dialog', async () => {
    const server = open(ACME, members(), {
      'POST /base/BaseOrganization/insert': () => envelope({ ...ACME, organizationId: 4, organizationName: 'Night shift' }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('org-create'));
    await user.type(screen.getByTestId('org-name'), 'N');
    await user.click(screen.getByTestId('org-save'));
    expect(await screen.findByText('The organization name must be 2-50 characters')).toBeInTheDocument();
    await user.type(screen.getByTestId('org-name'), 'ight shift ');
    await user.click(screen.getByTestId('org-save'));
    await waitFor(() => expect(server.callsTo('POST /base/BaseOrganization/insert')).toHaveLength(1));
    expect(server.callsTo('POST /base/BaseOrganization/insert')[0]?.body).toEqual({ organizationName: 'Night shift' });
  });
});

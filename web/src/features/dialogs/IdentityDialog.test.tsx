import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import { IdentityDialog, identityMissing } from './IdentityDialog';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn, type Call } from '@/test/harness';

const bob = accountInfo({ elitechIdentity: null, elitechIndustry: null }, {
  baseAccount: { id: 9, userName: 'bob', accountPhoto: null, phone: null, email: null, accountType: 1, realName: null, company: null, language: null, timeZone: null },
});

const DICTS: Record<string, { dataCode: string; dataValue: string; label: string }[]> = {
  ELITECH_IDENTITY: [
    { dataCode: '1', dataValue: 'Business owner or executive', label: 'Business owner or executive' },
    { dataCode: '3', dataValue: 'Logistics or warehouse', label: 'Logistics or warehouse' },
  ],
  ELITECH_INDUSTRY: [
    { dataCode: '4', dataValue: 'Food and beverage', label: 'Food and beverage' },
    { dataCode: '5', dataValue: 'Cold-chain logistics', label: 'Cold-chain logistics' },
  ],
};

function server(update: (call: Call) => Response = () => envelope(null)) {
  return fakeServer({
    'GET /base/BaseDict/queryByType': (call) => envelope(DICTS[call.params.get('dataType') ?? ''] ?? []),
    'POST /base/BaseUserProfile/update': update,
    'GET /base/BaseAccount/accountInfo': () =>
      envelope({ ...bob, userProfile: { ...bob.userProfile, elitechIdentity: '3', elitechIndustry: '5' } }),
    'GET /base/BaseAccount/getScenePermissionList': () => envelope(['home', 'device.list']),
    'GET /base/BaseAccount/loginOut': () => envelope(null),
  });
}

async function ready() {
  await waitFor(() => expect(screen.getByLabelText(/Your role/)).toBeEnabled());
  await waitFor(() => expect(screen.getByLabelText(/Your industry/)).toBeEnabled());
}

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

describe('identityMissing', () => {
  it.each([
    [null, null, true],
    ['3', null, true],
    [null, '5', true],
    ['', '5', true],
    ['3', ' ', true],
    ['3', '5', false],
  ])('identity %j, industry %j: %s', (identity, industry, missing) => {
    expect(identityMissing(accountInfo({ elitechIdentity: identity, elitechIndustry: industry }))).toBe(missing);
  });
});

describe('IdentityDialog', () => {
  it('fills both selects from the dictionaries', async () => {
    const api = server();
    signIn(bob);
    renderApp(<IdentityDialog info={bob} />);
    await ready();
    expect(screen.getByRole('option', { name: 'Logistics or warehouse' })).toHaveValue('3');
    expect(screen.getByRole('option', { name: 'Cold-chain logistics' })).toHaveValue('5');
    expect(api.callsTo('GET /base/BaseDict/queryByType').map((c) => c.params.get('dataType')).sort()).toEqual([
      'ELITECH_IDENTITY',
      'ELITECH_INDUSTRY',
    ]);
  });

  it('requires both identity and industry', async () => {
    const api = server();
    const user = userEvent.setup();
    signIn(bob);
    renderApp(<IdentityDialog info={bob} />);
    await ready();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please choose your role')).toBeInTheDocument();
    expect(screen.getByText('Please choose your industry')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(/Your role/), '3');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByText('Please choose your role')).toBeNull());
    expect(screen.getByText('Please choose your industry')).toBeInTheDocument();
    expect(api.callsTo('POST /base/BaseUserProfile/update')).toHaveLength(0);
  });

  it('saves, says so and refreshes the session', async () => {
    const api = server();
    const success = vi.spyOn(notify, 'success').mockImplementation(() => {});
    const user = userEvent.setup();
    signIn(bob);
    renderApp(<IdentityDialog info={bob} />);
    await ready();
    await user.selectOptions(screen.getByLabelText(/Your role/), '3');
    await user.selectOptions(screen.getByLabelText(/Your industry/), '5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(session.get().info?.userProfile.elitechIndustry).toBe('5'));
    expect(api.callsTo('POST /base/BaseUserProfile/update')[0]!.body).toEqual({ elitechIdentity: '3', elitechIndustry: '5' });
    expect(success).toHaveBeenCalledWith('Saved successfully');
    expect(api.callsTo('GET /base/BaseAccount/accountInfo')).toHaveLength(1);
    expect(session.get().info?.userProfile.elitechIdentity).toBe('3');
  });

  it('shows why a save was refused and stays open', async () => {
    server(() => envelope(null, 422, 422, 'Invalid input', { elitechIndustry: ['Choose one of the listed values'] }));
    const user = userEvent.setup();
    signIn(bob);
    renderApp(<IdentityDialog info={bob} />);
    await ready();
    await user.selectOptions(screen.getByLabelText(/Your role/), '3');
    await user.selectOptions(screen.getByLabelText(/Your industry/), '5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Choose one of the listed values')).toBeInTheDocument();
    expect(screen.getByTestId('identity-dialog')).toBeInTheDocument();
    expect(session.get().info?.userProfile.elitechIdentity).toBeNull();
  });

  it('shows a refusal without field messages as a message of the dialog', async () => {
    server(() => envelope(null, 500, 500, 'boom'));
    const user = userEvent.setup();
    signIn(bob);
    renderApp(<IdentityDialog info={bob} />);
    await ready();
    await user.selectOptions(screen.getByLabelText(/Your role/), '1');
    await user.selectOptions(screen.getByLabelText(/Your industry/), '4');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Server Exception');
  });

  it('cannot be dismissed, but offers to log out', async () => {
    const api = server();
    const user = userEvent.setup();
    signIn(bob);
    renderApp(<IdentityDialog info={bob} />);
    await ready();
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('identity-dialog')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/user/login'));
    expect(api.callsTo('GET /base/BaseAccount/loginOut')).toHaveLength(1);
    expect(session.get().info).toBeNull();
  });
});

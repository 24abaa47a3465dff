import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderApp, setUpI18n, signIn } from '@/test/harness';
import { signatureNeeds } from '@/lib/api/fda';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import FdaPage from './FdaPage';
import { ACME, bodyOf, FDA_PERMISSIONS, fdaServer, OTHER, OWN, PASSWORD, type FdaServer } from './testing';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  signatureNeeds.forget();
  vi.restoreAllMocks();
});

function open(server: FdaServer, permissions = FDA_PERMISSIONS, path = '/fda') {
  signIn({ ...server.state.info, permissionRoutes: permissions }, permissions);
  return renderApp(<FdaPage />, path);
}

const card = async (key: string) => {
  await waitFor(() => expect(screen.getAllByTestId('fda-subject').length).toBeGreaterThan(0));
  return screen.getAllByTestId('fda-subject').find((c) => c.getAttribute('data-subject') === key)!;
};

describe('the FDA page', () => {
  it('keeps the chosen tab in the address, FDA mode first', async () => {
    const server = fdaServer();
    const user = userEvent.setup();
    open(server);
    expect(await screen.findByTestId('fda-mode')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Audit trail' }));
    expect(await screen.findByTestId('fda-trail')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/fda?tab=trail');
    await user.click(screen.getByRole('tab', { name: 'FDA mode' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/fda$/));
  });
});

describe('the FDA page without the permission to read', () => {
  it('asks nothing and says so', async () => {
    const server = fdaServer();
    open(server, ['home', 'fda']);
    expect(await screen.findByText('You may not read the FDA records')).toBeInTheDocument();
    expect(server.calls).toEqual([]);
  });
});

describe('the FDA mode tab', () => {
  it("lists the caller's own switch and its organizations', each with its state", async () => {
    const server = fdaServer({}, { subjects: [{ ...OWN }, { ...ACME }, { ...OTHER }] });
    open(server);
    expect(await screen.findByTestId('fda-page')).toHaveTextContent('FDA 21 CFR');
    const own = await card('own');
    expect(own).toHaveTextContent('My own records (acme)');
    expect(within(own).getByTestId('fda-subject-state')).toHaveTextContent('Off');
    expect(within(await card('o:3')).getByTestId('fda-subject-state')).toHaveTextContent('On');
    const other = await card('o:5');
    expect(within(other).queryByTestId('fda-enable')).toBeNull();
    expect(within(other).getByTestId('fda-not-changeable')).toHaveTextContent('Only the organization');
  });

  it('turns FDA mode on, and says a repeated turn-on is not needed', async () => {
    const server = fdaServer();
    const success = vi.spyOn(notify, 'success').mockImplementation(() => {});
    const warning = vi.spyOn(notify, 'warning').mockImplementation(() => {});
    const user = userEvent.setup();
    open(server);
    await user.click(within(await card('own')).getByTestId('fda-enable'));
    await waitFor(() => expect(success).toHaveBeenCalledWith('FDA mode is on for My own records (acme)'));
    expect(bodyOf(server.callsTo('POST /device/FdaRecord/enable')[0])).toEqual({});
    await waitFor(async () => expect(within(await card('own')).getByTestId('fda-subject-state')).toHaveTextContent('On'));
    // the own switch is the profile's enableFda: the session reads it again (idle protection follows it)
    await waitFor(() => expect(session.get().info?.userProfile.enableFda).toBe(1));

    await user.click(within(await card('o:3')).getByTestId('fda-enable'));
    await waitFor(() => expect(warning).toHaveBeenCalledWith('FDA mode is already on: nothing to do'));
    expect(bodyOf(server.callsTo('POST /device/FdaRecord/enable')[1])).toEqual({ organizationId: 3 });
  });

  it('turns it off only with a signature that approves it and gives a reason; a wrong password changes nothing', async () => {
    const server = fdaServer();
    const success = vi.spyOn(notify, 'success').mockImplementation(() => {});
    const user = userEvent.setup();
    open(server);
    await user.click(within(await card('o:3')).getByTestId('fda-disable'));
    const dialog = await screen.findByTestId('signature-dialog');
    expect(screen.getByRole('heading', { name: 'Turn FDA mode off' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('signature-label')).toHaveTextContent('Acme Cold Chain');
    const meanings = within(within(dialog).getByTestId('signature-meaning-select')).getAllByRole('option');
    expect(meanings.map((o) => o.textContent)).toEqual(['Approved']);
    expect(server.callsTo('POST /device/FdaRecord/disable')).toEqual([]);

    await user.type(within(dialog).getByTestId('signature-password'), 'wrong');
    await user.click(within(dialog).getByTestId('signature-submit'));
    expect(await within(dialog).findByText('Give the reason for your signature')).toBeInTheDocument();
    await user.type(within(dialog).getByTestId('signature-reason-input'), 'Line decommissioned');
    await user.click(within(dialog).getByTestId('signature-submit'));
    expect(await within(dialog).findByTestId('signature-error')).toHaveTextContent('Wrong user name or password: 4 tries left');
    expect(server.state.subjects[1]!.enabled).toBe(true);

    await user.type(within(dialog).getByTestId('signature-password'), PASSWORD);
    await user.click(within(dialog).getByTestId('signature-submit'));
    await waitFor(() => expect(success).toHaveBeenCalledWith('FDA mode is off for Acme Cold Chain'));
    expect(bodyOf(server.callsTo('POST /device/FdaRecord/disable')[1])).toEqual({ organizationId: 3, signature: {
      password: PASSWORD, meaning: 'approved', reason: 'Line decommissioned', timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    } });
    await waitFor(async () => expect(within(await card('o:3')).getByTestId('fda-subject-state')).toHaveTextContent('Off'));
  });

  it('asks no signature to turn off what is off, and says it is not needed', async () => {
    const server = fdaServer();
    const warning = vi.spyOn(notify, 'warning').mockImplementation(() => {});
    const user = userEvent.setup();
    open(server);
    await user.click(within(await card('own')).getByTestId('fda-disable'));
    await waitFor(() => expect(warning).toHaveBeenCalledWith('FDA mode is already off: nothing to do'));
    expect(bodyOf(server.callsTo('POST /device/FdaRecord/disable')[0])).toEqual({});
    expect(screen.queryByTestId('signature-dialog')).toBeNull();
  });

  it('greys out the switch without the permission to change it', async () => {
    const server = fdaServer();
    open(server, ['home', 'fda', 'fda:query']);
    const own = await card('own');
    expect(within(own).getByTestId('fda-enable')).toBeDisabled();
    expect(within(own).getByTestId('fda-disable')).toBeDisabled();
  });

  it('switches idle protection, which waits for FDA mode on the own records', async () => {
    const server = fdaServer();
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    const user = userEvent.setup();
    open(server);
    const idle = await screen.findByTestId('fda-idle');
    expect(idle).toHaveTextContent('Signs you out after 5 minutes');
    await user.click(within(idle).getByRole('checkbox'));
    await waitFor(() => expect(session.get().info?.userProfile.enableProtect).toBe(1));
    expect(bodyOf(server.callsTo('POST /base/BaseUserProfile/update')[0])).toEqual({ enableProtect: 1 });
    expect(await within(idle).findByTestId('fda-idle-waiting')).toHaveTextContent('It waits until FDA mode is on');
  });

  it('lets an administrator unlock the signing of a member', async () => {
    const server = fdaServer();
    const success = vi.spyOn(notify, 'success').mockImplementation(() => {});
    const user = userEvent.setup();
    open(server);
    const unlock = await screen.findByTestId('fda-unlock');
    expect(within(unlock).getByTestId('fda-unlock-submit')).toBeDisabled();
    await within(unlock).findByRole('option', { name: 'bob' });
    await user.selectOptions(within(unlock).getByTestId('fda-unlock-member'), '8');
    await user.click(within(unlock).getByTestId('fda-unlock-submit'));
    await waitFor(() => expect(success).toHaveBeenCalledWith('bob may sign again'));
    expect(bodyOf(server.callsTo('POST /device/FdaRecord/unlockSigning')[0])).toEqual({ accountId: 8 });
  });

  it('says when there was nothing to unlock', async () => {
    const server = fdaServer();
    const warning = vi.spyOn(notify, 'warning').mockImplementation(() => {});
    const user = userEvent.setup();
    open(server);
    const unlock = await screen.findByTestId('fda-unlock');
    await within(unlock).findByRole('option', { name: 'Acme Admin (acme)' });
    await user.selectOptions(within(unlock).getByTestId('fda-unlock-member'), '7');
    await user.click(within(unlock).getByTestId('fda-unlock-submit'));
    await waitFor(() => expect(warning).toHaveBeenCalledWith('Acme Admin was not locked: nothing to unlock'));
  });
});

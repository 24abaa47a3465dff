import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import { getToken, KEYS, write } from '@/lib/storage';
import { browser } from '../browser';
import { accountInfo, envelope, fakeServer, renderLayout, setUpI18n } from '../testing';

vi.mock('@/features/dialogs/SessionDialogs', () => ({ SessionDialogs: () => null }));

const customPage = {
  id: 1, topDomain: 'demo.localhost', title: 'Demo Cloud', defaultCamp: 1, enableRegister: 0, useElitechLogo: 0, forceHttps: 0,
};

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

async function openMenuItem(testId: string) {
  const user = userEvent.setup();
  await user.click(screen.getByTestId('user-menu'));
  await user.click(await screen.findByTestId(testId));
  return user;
}

const alert = () => screen.findByRole('alertdialog');

describe('logout', () => {
  it('does nothing on Cancel', async () => {
    const server = fakeServer({});
    const { router } = renderLayout();
    const user = await openMenuItem('logout');
    expect(await alert()).toHaveTextContent('Log out of your account?');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.calls).toHaveLength(0);
    expect(getToken()).toBe('token-1');
    expect(router.state.location.pathname).toBe('/home');
  });

  it('revokes the token, clears the session and opens the login page once confirmed', async () => {
    const server = fakeServer({ 'GET /base/BaseAccount/loginOut': () => envelope(null) });
    const { router } = renderLayout();
    const user = await openMenuItem('logout');
    await user.click(within(await alert()).getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /base/BaseAccount/loginOut']);
    expect(getToken()).toBeNull();
    expect(session.isLoaded()).toBe(false);
  });

  it('clears token and roles even when the call fails, and shows the server text', async () => {
    fakeServer({ 'GET /base/BaseAccount/loginOut': () => envelope(null, 400, 1001, 'Logout refused by the server') });
    const error = vi.spyOn(notify, 'error').mockImplementation(() => {});
    const { router } = renderLayout();
    const user = await openMenuItem('logout');
    await user.click(within(await alert()).getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(error).toHaveBeenCalledWith('Logout refused by the server', 'Error');
    expect(getToken()).toBeNull();
    expect(session.get().permissions.size).toBe(0);
  });
});

describe('change platform', () => {
  it('is offered on customised platforms only', async () => {
    renderLayout();
    await userEvent.setup().click(screen.getByTestId('user-menu'));
    expect(await screen.findByTestId('logout')).toBeInTheDocument();
    expect(screen.queryByTestId('change-platform')).toBeNull();
  });

  it('does nothing on Cancel', async () => {
    write(KEYS.customData, customPage);
    const server = fakeServer({});
    const open = vi.spyOn(browser, 'openWindow').mockReturnValue(true);
    renderLayout();
    const user = await openMenuItem('change-platform');
    expect(await alert()).toHaveTextContent('Change platform');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.calls).toHaveLength(0);
    expect(open).not.toHaveBeenCalled();
  });

  it('asks for the password, then opens the other platform with the token in a new window', async () => {
    write(KEYS.customData, customPage);
    const server = fakeServer({
      'POST /base/BaseAccount/login/toOldPaltform': () => envelope({ token: 'other-token', expiresAt: '2030-01-01 00:00:00' }),
    });
    const open = vi.spyOn(browser, 'openWindow').mockReturnValue(true);
    renderLayout();
    const user = await openMenuItem('change-platform');
    const dialog = await alert();
    expect(within(dialog).getByLabelText('User name')).toHaveValue('acme');
    await user.click(within(dialog).getByRole('button', { name: 'Change platform' }));
    expect(await within(dialog).findByText('Enter your password')).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Password'), 'Coldchain#2026');
    await user.click(within(dialog).getByRole('button', { name: 'Change platform' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('http://localhost:3000/?token=other-token'));
    // the empty e-mail is left out of the body
    expect(server.calls[0]!.body).toEqual({ userName: 'acme', accountPassword: 'Coldchain#2026', phone: '13800000002' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('keeps the dialog open with the server text when the password is wrong', async () => {
    write(KEYS.customData, customPage);
    fakeServer({ 'POST /base/BaseAccount/login/toOldPaltform': () => envelope(null, 409, 1008, 'The password is wrong') });
    const open = vi.spyOn(browser, 'openWindow').mockReturnValue(true);
    renderLayout();
    const user = await openMenuItem('change-platform');
    const dialog = await alert();
    await user.type(within(dialog).getByLabelText('Password'), 'nope');
    await user.click(within(dialog).getByRole('button', { name: 'Change platform' }));
    expect(await within(dialog).findByText('The password is wrong')).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
  });

  it('offers a link when the browser blocks the new window', async () => {
    write(KEYS.customData, customPage);
    fakeServer({
      'POST /base/BaseAccount/login/toOldPaltform': () => envelope({ token: 't2', expiresAt: '2030-01-01 00:00:00' }),
    });
    vi.spyOn(browser, 'openWindow').mockReturnValue(false);
    renderLayout();
    const user = await openMenuItem('change-platform');
    const dialog = await alert();
    await user.type(within(dialog).getByLabelText('Password'), 'Coldchain#2026');
    await user.click(within(dialog).getByRole('button', { name: 'Change platform' }));
    const link = await within(dialog).findByRole('button', { name: /Open the other platform/ });
    expect(link).toHaveAttribute('href', 'http://localhost:3000/?token=t2');
  });
});

describe('account', () => {
  it('shows the user name, and My account for those who may open it', async () => {
    renderLayout({ info: accountInfo() });
    expect(screen.getByTestId('user-menu')).toHaveAccessibleName('Account menu: acme');
    await userEvent.setup().click(screen.getByTestId('user-menu'));
    expect(await screen.findByRole('menuitem', { name: 'My account' })).toBeInTheDocument();
    expect(screen.getByTestId('user-menu')).toHaveTextContent('acme');
  });
});

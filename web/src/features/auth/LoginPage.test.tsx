import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getToken, write } from '@/lib/storage';
import LoginPage from './LoginPage';
import { callsTo, captchaImage, mockFetch, ok, refused, renderPage, setUpI18n, type Reply } from './test/harness';

vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), warning: vi.fn(), success: vi.fn(), info: vi.fn() } }));

const LOGIN = '/base/BaseAccount/login';
const issued = { token: 'tok-1', expiresAt: '2026-01-08T10:00:00+08:00' };
/** A wrong password; `captchaRequired`: the server wants the image code from the next login on. */
const wrongPassword = (captchaRequired = true) => () =>
  refused(401, 1001, 'Incorrect user name or password', undefined, { captchaRequired });

let captchas = 0;
const createObjectURL = vi.fn(() => `blob:captcha-${createObjectURL.mock.calls.length}`);
const revokeObjectURL = vi.fn();

/** Answers the captcha with ids cap-1, cap-2, ... and the login calls with `login` in turn. */
function server(...logins: (() => Response)[]): Reply {
  return ({ url }) => {
    if (url.includes('/newVerify')) return captchaImage(`cap-${++captchas}`);
    const next = logins.shift();
    if (!next) throw new Error(`unexpected ${url}`);
    return next();
  };
}

async function fillAndSubmit(userName: string, password: string) {
  const user = userEvent.setup();
  await user.clear(screen.getByLabelText('User name, phone or e-mail'));
  await user.type(screen.getByLabelText('User name, phone or e-mail'), userName);
  await user.clear(document.querySelector<HTMLInputElement>('#accountPassword')!);
  await user.type(document.querySelector<HTMLInputElement>('#accountPassword')!, password);
  await user.click(document.querySelector<HTMLButtonElement>('button[type=submit]')!);
  return user;
}

describe('login page', () => {
  beforeAll(setUpI18n);
  beforeEach(() => {
    captchas = 0;
    createObjectURL.mockClear();
    revokeObjectURL.mockClear();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
  });
  afterEach(() => vi.restoreAllMocks());

  it('keeps the ids the end-to-end tests use', () => {
    mockFetch(server());
    renderPage(LoginPage, '/user/login');
    expect(document.querySelector('#userName')).toBeInTheDocument();
    expect(document.querySelector('#accountPassword')).toHaveAttribute('type', 'password');
    expect(document.querySelectorAll('button[type=submit]')).toHaveLength(1);
  });

  it('sends loginType 1 without captcha fields, stores the token and goes to the redirect', async () => {
    const { calls } = mockFetch(server(() => ok(issued)));
    renderPage(LoginPage, '/user/login?redirect=%2Fdevice%2Flist%3FdeviceName%3DA');
    await fillAndSubmit('alice', 'Coldchain#2026');

    expect(await screen.findByTestId('location')).toHaveTextContent('/device/list?deviceName=A');
    expect(callsTo(calls, LOGIN)).toEqual([
      { url: `/api${LOGIN}`, method: 'POST', body: { userName: 'alice', accountPassword: 'Coldchain#2026', loginType: 1 } },
    ]);
    expect(getToken()).toBe('tok-1');
  });

  it.each(['https://evil.example/steal', '//evil.example/x', 'javascript:alert(1)', '/\\evil.example'])(
    'goes to / instead of the outside redirect %s',
    async (redirect) => {
      mockFetch(server(() => ok(issued)));
      renderPage(LoginPage, `/user/login?redirect=${encodeURIComponent(redirect)}`);
      await fillAndSubmit('alice', 'Coldchain#2026');
      expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    },
  );

  it('shows the rules before calling the server', async () => {
    const { calls } = mockFetch(server());
    renderPage(LoginPage, '/user/login');
    await userEvent.setup().click(document.querySelector<HTMLButtonElement>('button[type=submit]')!);
    expect(await screen.findByText('Enter your user name, phone number or e-mail address')).toBeInTheDocument();
    expect(screen.getByText('Enter a password')).toBeInTheDocument();
    expect(screen.getByLabelText('User name, phone or e-mail')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);
  });

  it('shows the wrong-password message under the form and, as its answer asks, a captcha whose id and answer are sent', async () => {
    const { calls } = mockFetch(server(wrongPassword(), () => ok(issued)));
    renderPage(LoginPage, '/user/login?redirect=%2Fhome');
    const user = await fillAndSubmit('alice', 'wrong');

    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect user name or password');
    const image = await screen.findByRole('img', { name: 'Image code' });
    expect(image).toHaveAttribute('src', 'blob:captcha-1');
    expect(callsTo(calls, '/base/BaseAccount/newVerify')).toHaveLength(1);

    await user.type(screen.getByLabelText('Image code'), 'k7mp');
    await user.clear(document.querySelector<HTMLInputElement>('#accountPassword')!);
    await user.type(document.querySelector<HTMLInputElement>('#accountPassword')!, 'Coldchain#2026');
    await user.click(document.querySelector<HTMLButtonElement>('button[type=submit]')!);

    expect(await screen.findByTestId('location')).toHaveTextContent('/home');
    expect(callsTo(calls, LOGIN)[1]!.body).toEqual({
      userName: 'alice',
      accountPassword: 'Coldchain#2026',
      loginType: 1,
      verifyCode: 'k7mp',
      captchaId: 'cap-1',
    });
  });

  it('shows no image code after a wrong password the server does not ask it for, and sends none', async () => {
    const { calls } = mockFetch(server(wrongPassword(false), wrongPassword(false), () => ok(issued)));
    renderPage(LoginPage, '/user/login?redirect=%2Fhome');
    const user = await fillAndSubmit('alice', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect user name or password');
    await user.click(document.querySelector<HTMLButtonElement>('button[type=submit]')!);
    await waitFor(() => expect(callsTo(calls, LOGIN)).toHaveLength(2));
    expect(screen.queryByLabelText('Image code')).not.toBeInTheDocument();
    expect(screen.queryByTestId('captcha-image')).not.toBeInTheDocument();
    expect(callsTo(calls, '/base/BaseAccount/newVerify')).toHaveLength(0);

    await fillAndSubmit('alice', 'Coldchain#2026');
    expect(await screen.findByTestId('location')).toHaveTextContent('/home');
    expect(callsTo(calls, LOGIN)[2]!.body).toEqual({ userName: 'alice', accountPassword: 'Coldchain#2026', loginType: 1 });
  });

  it('keeps the image code once asked for, with a new picture after each failure', async () => {
    const { calls } = mockFetch(server(wrongPassword(true), wrongPassword(false), () => ok(issued)));
    renderPage(LoginPage, '/user/login?redirect=%2Fhome');
    const user = await fillAndSubmit('alice', 'wrong');
    await screen.findByRole('img', { name: 'Image code' });
    await user.type(screen.getByLabelText('Image code'), 'AAAA');
    await user.click(document.querySelector<HTMLButtonElement>('button[type=submit]')!);
    // a later answer without the flag (the server's window has moved on) does not hide it
    await waitFor(() => expect(screen.getByRole('img', { name: 'Image code' })).toHaveAttribute('src', 'blob:captcha-2'));
    await user.type(screen.getByLabelText('Image code'), 'BBBB');
    await user.click(document.querySelector<HTMLButtonElement>('button[type=submit]')!);
    expect(await screen.findByTestId('location')).toHaveTextContent('/home');
    expect(callsTo(calls, LOGIN).map((call) => (call.body as { captchaId?: string }).captchaId)).toEqual([undefined, 'cap-1', 'cap-2']);
  });

  it('fetches the captcha uncached and asks for the answer once it shows', async () => {
    const { spy, calls } = mockFetch(server(wrongPassword()));
    renderPage(LoginPage, '/user/login');
    const user = await fillAndSubmit('alice', 'wrong');
    await screen.findByRole('img', { name: 'Image code' });
    expect(spy).toHaveBeenCalledWith('/api/base/BaseAccount/newVerify', expect.objectContaining({ cache: 'no-store' }));

    await user.click(document.querySelector<HTMLButtonElement>('button[type=submit]')!);
    expect(await screen.findByText('Enter the characters in the image')).toBeInTheDocument();
    expect(callsTo(calls, LOGIN)).toHaveLength(1);
  });

  it('gets a new captcha after each failure and on a click, revoking the old image', async () => {
    const { calls } = mockFetch(
      server(wrongPassword(), () => refused(409, 1004, 'The image code is wrong or has expired')),
    );
    renderPage(LoginPage, '/user/login');
    const user = await fillAndSubmit('alice', 'wrong');
    expect(await screen.findByRole('img', { name: 'Image code' })).toHaveAttribute('src', 'blob:captcha-1');

    await user.type(screen.getByLabelText('Image code'), 'AAAA');
    await user.click(document.querySelector<HTMLButtonElement>('button[type=submit]')!);
    // the wrong answer shows on the captcha field, and a new picture replaces the spent one
    expect(await screen.findByText('The image code is wrong or has expired')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('img', { name: 'Image code' })).toHaveAttribute('src', 'blob:captcha-2'));
    expect(callsTo(calls, LOGIN)[1]!.body).toMatchObject({ verifyCode: 'AAAA', captchaId: 'cap-1' });
    expect(screen.getByLabelText('Image code')).toHaveValue('');
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:captcha-1');

    await user.click(screen.getByRole('button', { name: 'Show a new image code' }));
    await waitFor(() => expect(screen.getByRole('img', { name: 'Image code' })).toHaveAttribute('src', 'blob:captcha-3'));
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:captcha-2');
  });

  it('shows how long to wait after too many failures (HTTP 429)', async () => {
    mockFetch(server(() => refused(429, 429, 'Too many failed attempts, please try again in 15 minutes')));
    renderPage(LoginPage, '/user/login');
    await fillAndSubmit('alice', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many failed attempts, please try again in 15 minutes');
  });

  it('shows the image code when the server asks for it (1014) and sends it with the password', async () => {
    const { calls } = mockFetch(
      server(() => refused(409, 1014, 'Enter the characters in the image to log in'), () => ok(issued)),
    );
    renderPage(LoginPage, '/user/login?redirect=%2Fhome');
    const user = await fillAndSubmit('alice', 'Coldchain#2026');
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter the characters in the image to log in');
    await screen.findByRole('img', { name: 'Image code' });

    await user.type(screen.getByLabelText('Image code'), 'k7mp');
    await user.click(document.querySelector<HTMLButtonElement>('button[type=submit]')!);
    expect(await screen.findByTestId('location')).toHaveTextContent('/home');
    expect(callsTo(calls, LOGIN)[1]!.body).toMatchObject({ verifyCode: 'k7mp', captchaId: 'cap-1' });
  });

  it('offers a code when the account is protected (1015), sends it with the image code and logs in with it', async () => {
    const protectedAccount = () =>
      refused(409, 1015, 'This account is protected after failed logins from many places');
    const { calls } = mockFetch(server(protectedAccount, () => ok(null), () => ok(issued)));
    renderPage(LoginPage, '/user/login?redirect=%2Fhome');
    const user = await fillAndSubmit('bob', 'Tundra#Kettle42');
    expect(await screen.findByRole('alert')).toHaveTextContent('This account is protected');

    await user.click(screen.getByRole('button', { name: 'Send me a code to log in' }));
    expect(await screen.findByTestId('code-login')).toBeInTheDocument();
    expect(screen.getByLabelText('User name, phone or e-mail')).toHaveValue('bob');
    await screen.findByRole('img', { name: 'Image code' });

    // sending asks for the image code first
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Enter the characters in the image')).toBeInTheDocument();
    expect(callsTo(calls, '/base/BaseAccount/code/login')).toHaveLength(0);

    const shown = callsTo(calls, '/base/BaseAccount/newVerify').length;
    await user.type(screen.getByLabelText('Image code'), 'K7MP');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText(/If this account exists, a code is on its way/)).toBeInTheDocument();
    expect(callsTo(calls, '/base/BaseAccount/code/login')[0]!.body).toEqual({
      userName: 'bob',
      verifyCode: 'K7MP',
      captchaId: `cap-${shown}`,
    });
    // the spent image is replaced
    await waitFor(() => expect(callsTo(calls, '/base/BaseAccount/newVerify')).toHaveLength(shown + 1));

    await user.type(screen.getByLabelText('Login code'), '123456');
    await user.click(document.querySelector<HTMLButtonElement>('button[type=submit]')!);
    expect(await screen.findByTestId('location')).toHaveTextContent('/home');
    expect(callsTo(calls, LOGIN)[1]!.body).toEqual({ userName: 'bob', loginCode: '123456', loginType: 1 });
    expect(getToken()).toBe('tok-1');
  });

  it('switches to the code login and back from the link under the password', async () => {
    mockFetch(server());
    renderPage(LoginPage, '/user/login');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Log in with a code' }));
    expect(await screen.findByTestId('code-login')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Log in with a password' }));
    expect(document.querySelector('#accountPassword')).toBeInTheDocument();
  });

  it('offers registration unless the platform turns the register page away', () => {
    mockFetch(server());
    const { unmount } = renderPage(LoginPage, '/user/login');
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/user/register');
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/user/recover');
    unmount();

    write('customData', { id: 1, topDomain: 'x', title: 'Acme Cold', defaultCamp: 1, enableRegister: 1, useElitechLogo: 0, forceHttps: 0 });
    renderPage(LoginPage, '/user/login');
    expect(screen.queryByRole('link', { name: 'Create an account' })).not.toBeInTheDocument();
    expect(screen.getAllByText('Acme Cold').length).toBeGreaterThan(0);
  });
});

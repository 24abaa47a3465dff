import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setEditionConfig } from '@/lib/config';
import { notify } from '@/lib/notify';
import { setToken } from '@/lib/storage';
import BindEmailPage from './BindEmailPage';
import BindPhonePage from './BindPhonePage';
import { domestic } from './test/editions';
import { byPath, callsTo, fill, mockFetch, ok, refused, renderPage, setUpI18n } from './test/harness';

vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), warning: vi.fn(), success: vi.fn(), info: vi.fn() } }));

const BINDING = '/base/BaseAccount/binding';

describe('bind pages', () => {
  beforeAll(setUpI18n);
  afterEach(() => vi.restoreAllMocks());

  it('send a user without a session to the login page, to come back afterwards', async () => {
    mockFetch(byPath({}));
    renderPage(BindPhonePage, '/user/bind-phone?from=profile');
    expect(await screen.findByTestId('location')).toHaveTextContent(
      '/user/login?redirect=%2Fuser%2Fbind-phone%3Ffrom%3Dprofile',
    );
  });

  it('bind a phone with a code of type 3, then go home', async () => {
    setEditionConfig(domestic);
    setToken('tok');
    const { calls } = mockFetch(byPath({ '/base/BaseAccount/code/phone': () => ok(null), [BINDING]: () => ok(null) }));
    renderPage(BindPhonePage, '/user/bind-phone');
    const user = userEvent.setup();
    await fill(user, { phone: '13900139000' });
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByRole('button', { name: /Resend in/ });
    expect(calls[0]!.url).toBe('/api/base/BaseAccount/code/phone?phone=13900139000&type=3');

    await fill(user, { code: '246810' });
    await user.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(callsTo(calls, BINDING)[0]!.body).toEqual({ phone: '13900139000', code: '246810' });
    expect(notify.success).toHaveBeenCalledWith('Your phone number is linked to your account');
  });

  it('bind an e-mail address and show an address bound elsewhere on its field', async () => {
    setToken('tok');
    const answers = [
      () => refused(409, 1006, 'This phone number or e-mail address is already bound to another account'),
      () => ok(null),
    ];
    const { calls } = mockFetch(byPath({ [BINDING]: () => answers.shift()!() }));
    renderPage(BindEmailPage, '/user/bind-email');
    const user = userEvent.setup();
    await fill(user, { email: 'taken@example.com', code: '246810' });
    await user.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('This phone number or e-mail address is already bound to another account')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail address')).toHaveAttribute('aria-invalid', 'true');

    await fill(user, { email: 'free@example.com' });
    await user.click(screen.getByRole('button', { name: 'Link' }));
    await screen.findByTestId('location');
    expect(callsTo(calls, BINDING).map((c) => c.body)).toEqual([
      { email: 'taken@example.com', code: '246810' },
      { email: 'free@example.com', code: '246810' },
    ]);
  });

  it('show a refusal that is about the account as a whole above the button', async () => {
    setToken('tok');
    mockFetch(byPath({ [BINDING]: () => refused(409, 1009, 'This account already has one; change it in your account settings') }));
    renderPage(BindEmailPage, '/user/bind-email');
    const user = userEvent.setup();
    await fill(user, { email: 'ops@example.com', code: '246810' });
    await user.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This account already has one; change it in your account settings');
  });
});

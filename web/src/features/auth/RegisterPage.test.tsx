import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setEditionConfig } from '@/lib/config';
import { notify } from '@/lib/notify';
import { getToken } from '@/lib/storage';
import RegisterPage from './RegisterPage';
import { domestic, international } from './test/editions';
import { byPath, callsTo, fill, mockFetch, ok, refused, renderPage, setUpI18n } from './test/harness';

vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), warning: vi.fn(), success: vi.fn(), info: vi.fn() } }));

const REGISTER = '/base/BaseAccount/register';


const good = {
  userName: 'coldchain_ops',
  phone: '13800138000',
  code: '123456',
  accountPassword: 'Tundra#Kettle42',
  confirmPassword: 'Tundra#Kettle42',
};

describe('register page', () => {
  beforeAll(setUpI18n);
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
    setEditionConfig(domestic);
  });

  it('registers with a phone in the domestic edition, signs in and goes home', async () => {
    setEditionConfig(domestic);
    const { calls } = mockFetch(byPath({ [REGISTER]: () => ok({ token: 'tok-new', expiresAt: '2026-01-08T10:00:00+08:00' }) }));
    renderPage(RegisterPage, '/user/register');
    expect(screen.queryByLabelText('E-mail address')).not.toBeInTheDocument();
    const user = userEvent.setup();
    await fill(user, good);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(callsTo(calls, REGISTER)[0]!.body).toEqual({
      userName: 'coldchain_ops',
      phone: '13800138000',
      code: '123456',
      accountPassword: 'Tundra#Kettle42',
    });
    expect(getToken()).toBe('tok-new');
    expect(notify.success).toHaveBeenCalledWith('Your account is ready. Welcome!');
  });

  it('registers with an e-mail in the international edition', async () => {
    setEditionConfig(international);
    const { calls } = mockFetch(byPath({ [REGISTER]: () => ok({ token: 't', expiresAt: '2026-01-08T10:00:00Z' }) }));
    renderPage(RegisterPage, '/user/register');
    expect(screen.queryByLabelText('Phone number')).not.toBeInTheDocument();
    const user = userEvent.setup();
    const { phone: _phone, ...rest } = good;
    await fill(user, { ...rest, email: 'ops@example.com' });
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    await screen.findByTestId('location');
    expect(callsTo(calls, REGISTER)[0]!.body).toEqual({
      userName: 'coldchain_ops',
      email: 'ops@example.com',
      code: '123456',
      accountPassword: 'Tundra#Kettle42',
    });
  });

  it('shows the server field errors of a 422 under their fields', async () => {
    setEditionConfig(domestic);
    mockFetch(
      byPath({
        [REGISTER]: () =>
          refused(422, 422, 'Validation failed', {
            userName: ['用户名已被占用'],
            phone: ['请输入 11 位手机号'],
            code: ['请输入收到的数字验证码'],
            accountPassword: ['密码强度不足'],
          }),
      }),
    );
    renderPage(RegisterPage, '/user/register');
    const user = userEvent.setup();
    await fill(user, good);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText('用户名已被占用')).toBeInTheDocument();
    expect(screen.getByLabelText('User name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('请输入 11 位手机号')).toBeInTheDocument();
    expect(screen.getByLabelText('Phone number')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('请输入收到的数字验证码')).toBeInTheDocument();
    expect(screen.getByText('密码强度不足')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
  });

  it('puts a wrong code and an existing user on their fields', async () => {
    setEditionConfig(domestic);
    const answers = [
      () => refused(409, 1003, 'The verification code is wrong or has expired'),
      () => refused(409, 1005, 'User already exists'),
    ];
    mockFetch(byPath({ [REGISTER]: () => answers.shift()!() }));
    renderPage(RegisterPage, '/user/register');
    const user = userEvent.setup();
    await fill(user, good);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('The verification code is wrong or has expired')).toBeInTheDocument();
    expect(screen.getByLabelText('Verification code')).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('User already exists')).toBeInTheDocument();
    expect(screen.getByLabelText('User name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('checks the rules before calling the server', async () => {
    setEditionConfig(domestic);
    const { calls } = mockFetch(byPath({}));
    renderPage(RegisterPage, '/user/register');
    const user = userEvent.setup();
    await fill(user, { ...good, userName: '_ops', phone: '2380013800', accountPassword: 'weakpassword', confirmPassword: 'other' });
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('User name must be 6 to 50 characters')).toBeInTheDocument();
    expect(screen.getByText('Enter an 11-digit mobile phone number')).toBeInTheDocument();
    expect(screen.getByText('Weak password: use digits, upper-case and lower-case letters and a symbol')).toBeInTheDocument();
    expect(screen.getByText('The two passwords do not match')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('drops an emoji typed in the middle of the user name and goes on where the caret was', async () => {
    setEditionConfig(domestic);
    mockFetch(byPath({}));
    renderPage(RegisterPage, '/user/register');
    const user = userEvent.setup();
    const name = screen.getByLabelText<HTMLInputElement>('User name');
    await user.type(name, 'coldops');
    name.setSelectionRange(4, 4); // "cold|ops"
    await user.keyboard('_★x');
    expect(name).toHaveValue('cold_xops');
    expect(name.selectionStart).toBe(6);
  });

  it('sends the code (type 1) only to a valid phone, then counts down 60 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setEditionConfig(domestic);
    const { calls } = mockFetch(byPath({ '/base/BaseAccount/code/phone': () => ok(null) }));
    renderPage(RegisterPage, '/user/register');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

    await fill(user, { phone: '1380013' });
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Enter an 11-digit mobile phone number')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await fill(user, { phone: '13800138000' });
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    const button = await screen.findByRole('button', { name: 'Resend in 60 s' });
    expect(button).toBeDisabled();
    expect(calls[0]!.url).toBe('/api/base/BaseAccount/code/phone?phone=13800138000&type=1');
    expect(screen.getByText('Code sent to 13800138000. It is valid for 10 minutes.')).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByRole('button', { name: 'Resend in 59 s' })).toBeDisabled();
    act(() => vi.advanceTimersByTime(58_000));
    expect(screen.getByRole('button', { name: 'Resend in 1 s' })).toBeDisabled();
    act(() => vi.advanceTimersByTime(1_000));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Resend' })).toBeEnabled());
  });

  it("shows the server's message when a code is asked for too soon, and waits what it says", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setEditionConfig(domestic);
    mockFetch(
      byPath({
        '/base/BaseAccount/code/phone': () =>
          refused(409, 1007, 'A code was sent recently, please wait 42 seconds before asking again'),
      }),
    );
    renderPage(RegisterPage, '/user/register');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await fill(user, { phone: '13800138000' });
    await user.click(screen.getByRole('button', { name: 'Send code' }));

    expect(await screen.findByText('A code was sent recently, please wait 42 seconds before asking again')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend in 42 s' })).toBeDisabled();
  });

  it('marks a phone already bound to another account on the phone field', async () => {
    setEditionConfig(domestic);
    mockFetch(
      byPath({
        '/base/BaseAccount/code/phone': () =>
          refused(409, 1006, 'This phone number or e-mail address is already bound to another account'),
      }),
    );
    renderPage(RegisterPage, '/user/register');
    const user = userEvent.setup();
    await fill(user, { phone: '13800138000' });
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('This phone number or e-mail address is already bound to another account')).toBeInTheDocument();
    expect(screen.getByLabelText('Phone number')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Send code' })).toBeEnabled();
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setEditionConfig } from '@/lib/config';
import { notify } from '@/lib/notify';
import RecoverPage from './RecoverPage';
import { domestic, international } from './test/editions';
import { byPath, callsTo, fill, mockFetch, ok, refused, renderPage, setUpI18n } from './test/harness';

vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), warning: vi.fn(), success: vi.fn(), info: vi.fn() } }));

const FORGOT = '/base/BaseAccount/forgot';
const password = { accountPassword: 'Tundra#Kettle43', confirmPassword: 'Tundra#Kettle43' };

describe('recover page', () => {
  beforeAll(setUpI18n);
  afterEach(() => {
    vi.restoreAllMocks();
    setEditionConfig(domestic);
  });

  it('resets by phone in the domestic edition, says so and goes to the login page', async () => {
    setEditionConfig(domestic);
    const { calls } = mockFetch(byPath({ '/base/BaseAccount/code/phone': () => ok(null), [FORGOT]: () => ok(null) }));
    renderPage(RecoverPage, '/user/recover');
    expect(screen.getByRole('radio', { name: 'Phone' })).toBeChecked();
    const user = userEvent.setup();
    await fill(user, { phone: '13800138000' });
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByRole('button', { name: /Resend in/ });
    expect(calls[0]!.url).toBe('/api/base/BaseAccount/code/phone?phone=13800138000&type=2');

    await fill(user, { code: '654321', ...password });
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/user/login');
    expect(callsTo(calls, FORGOT)[0]!.body).toEqual({ phone: '13800138000', code: '654321', accountPassword: 'Tundra#Kettle43' });
    expect(notify.success).toHaveBeenCalledWith('Your password has been changed. Please log in with the new one.');
  });

  it('starts with e-mail in the international edition', async () => {
    setEditionConfig(international);
    const { calls } = mockFetch(byPath({ '/base/BaseAccount/code/email': () => ok(null), [FORGOT]: () => ok(null) }));
    renderPage(RecoverPage, '/user/recover');
    expect(screen.getByRole('radio', { name: 'E-mail' })).toBeChecked();
    const user = userEvent.setup();
    await fill(user, { email: 'ops@example.com' });
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByRole('button', { name: /Resend in/ });
    expect(calls[0]!.url).toBe('/api/base/BaseAccount/code/email?email=ops%40example.com&type=2');
    await fill(user, { code: '654321', ...password });
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await screen.findByTestId('location');
    expect(callsTo(calls, FORGOT)[0]!.body).toEqual({ email: 'ops@example.com', code: '654321', accountPassword: 'Tundra#Kettle43' });
  });

  it('switches between phone and e-mail in either edition', async () => {
    setEditionConfig(domestic);
    const { calls } = mockFetch(byPath({ [FORGOT]: () => ok(null) }));
    renderPage(RecoverPage, '/user/recover');
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'E-mail' }));
    expect(screen.queryByLabelText('Phone number')).not.toBeInTheDocument();
    await fill(user, { email: 'ops@example.com', code: '1234', ...password });
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await screen.findByTestId('location');
    expect(callsTo(calls, FORGOT)[0]!.body).toEqual({ email: 'ops@example.com', code: '1234', accountPassword: 'Tundra#Kettle43' });
  });

  it('shows a wrong code on the code field and stays', async () => {
    setEditionConfig(domestic);
    mockFetch(byPath({ [FORGOT]: () => refused(409, 1003, 'The verification code is wrong or has expired') }));
    renderPage(RecoverPage, '/user/recover');
    const user = userEvent.setup();
    await fill(user, { phone: '13800138000', code: '111111', ...password });
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('The verification code is wrong or has expired')).toBeInTheDocument();
    expect(screen.getByLabelText('Verification code')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
  });

  it('needs the confirmation to match the new password (after trimming)', async () => {
    setEditionConfig(domestic);
    const { calls } = mockFetch(byPath({ [FORGOT]: () => ok(null) }));
    renderPage(RecoverPage, '/user/recover');
    const user = userEvent.setup();
    await fill(user, { phone: '13800138000', code: '111111', accountPassword: 'Tundra#Kettle43', confirmPassword: 'Tundra#Kettle44' });
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('The two passwords do not match')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await fill(user, { confirmPassword: ' Tundra#Kettle43 ' });
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await screen.findByTestId('location');
    expect(callsTo(calls, FORGOT)[0]!.body).toMatchObject({ accountPassword: 'Tundra#Kettle43' });
  });
});

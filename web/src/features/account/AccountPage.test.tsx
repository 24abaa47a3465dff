import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn, type Call } from '@/test/harness';
import { changeLanguage } from '@/lib/i18n';
import { session } from '@/lib/session';
import AccountPage from './AccountPage';

beforeAll(setUpI18n);
afterEach(async () => {
  session.clear();
  vi.restoreAllMocks();
  if (i18next.language !== 'en-US') await act(() => changeLanguage('en-US'));
});

const DICT = [{ dataCode: '1', dataValue: 'Owner', label: 'Business owner or executive' }, { dataCode: '5', dataValue: 'Cold', label: 'Cold-chain logistics' }];
const CHANNELS = [
  { kind: 'expiry', email: true, phone: true }, { kind: 'payment', email: true, phone: false },
  { kind: 'export', email: false, phone: false }, { kind: 'invitation', email: true, phone: false },
];

function server(extra: Record<string, (call: Call) => Response> = {}) {
  const info = accountInfo({ elitechIdentity: '1', elitechIndustry: '5' }, { permissionRoutes: ['home', 'consumer.info'] });
  return fakeServer({
    'GET /base/BaseDict/queryByType': () => envelope(DICT),
    'GET /base/BaseMessage/channels': () => envelope(CHANNELS),
    'GET /base/BaseAccount/accountInfo': () => envelope(info),
    'GET /base/BaseAccount/getScenePermissionList': () => envelope(['home', 'consumer.info']),
    'POST /base/BaseAccount/modifyBaseInfo': () => envelope(null),
    'POST /base/BaseUserProfile/update': () => envelope(null),
    'POST /base/BaseAccount/modifyPreferences': () => envelope(null),
    'POST /base/BaseMessage/channels': (call) => envelope((call.body as { channels: unknown }).channels),
    ...extra,
  });
}

function open() {
  signIn(accountInfo({ elitechIdentity: '1', elitechIndustry: '5' }, { permissionRoutes: ['home', 'consumer.info'] }), ['home']);
  return renderApp(<AccountPage />, '/consumer/info');
}

describe('the account page', () => {
  it('saves the real name and company', async () => {
    const api = server();
    open();
    const form = within(screen.getByTestId('profile-form'));
    await userEvent.type(form.getByLabelText('Real name'), 'Alice Chen');
    await userEvent.type(form.getByLabelText('Company'), 'Cold Co');
    await userEvent.click(form.getByTestId('profile-save'));
    await waitFor(() => expect(api.callsTo('POST /base/BaseAccount/modifyBaseInfo')).toHaveLength(1));
    expect(api.callsTo('POST /base/BaseAccount/modifyBaseInfo')[0]!.body).toEqual({ realName: 'Alice Chen', company: 'Cold Co' });
  });

  it('refuses a picture that is not a JPG or PNG before sending it', async () => {
    const api = server();
    open();
    const input = screen.getByTestId('photo-input') as HTMLInputElement;
    await userEvent.upload(input, new File(['GIF89a'], 'me.gif', { type: 'image/gif' }), { applyAccept: false });
    expect(await screen.findByText('Choose a JPG or PNG picture')).toBeInTheDocument();
    expect(api.callsTo('POST /base/BaseAccount/uploadHeadPhoto')).toHaveLength(0);
  });

  it('shows the server\'s reason when it refuses a picture', async () => {
    server({ 'POST /base/BaseAccount/uploadHeadPhoto': () =>
      envelope(null, 422, 422, 'Invalid input', { file: ['Upload a JPG or PNG picture'] }) });
    open();
    const input = screen.getByTestId('photo-input') as HTMLInputElement;
    await userEvent.upload(input, new File(['PK'], 'me.png', { type: 'image/png' }));
    expect(await screen.findByText('Upload a JPG or PNG picture')).toBeInTheDocument();
  });

  it('saves language and time zone, and the console switches language', async () => {
    const api = server();
    open();
    const form = within(screen.getByTestId('preferences-form'));
    await userEvent.selectOptions(form.getByLabelText('Language'), 'ru-RU');
    await userEvent.selectOptions(form.getByLabelText('Time zone'), 'Europe/Moscow');
    await userEvent.click(form.getByTestId('preferences-save'));
    await waitFor(() => expect(i18next.language).toBe('ru-RU'));
    expect(api.callsTo('POST /base/BaseAccount/modifyPreferences')[0]!.body).toEqual({ language: 'ru-RU', timeZone: 'Europe/Moscow' });
    expect(await screen.findByText('Мой аккаунт')).toBeInTheDocument();
  });

  it('puts an unknown time zone refused by the server under its field', async () => {
    server({ 'POST /base/BaseAccount/modifyPreferences': () =>
      envelope(null, 422, 422, 'Invalid input', { timeZone: ['Choose a time zone from the list'] }) });
    open();
    const form = within(screen.getByTestId('preferences-form'));
    await userEvent.click(form.getByTestId('preferences-save'));
    expect(await form.findByText('Choose a time zone from the list')).toBeInTheDocument();
  });

  it('changes the phone only with the code sent to the new number and the current password', async () => {
    const api = server({
      'GET /base/BaseAccount/code/phone': () => envelope(null),
      'POST /base/BaseAccount/modifyPhoneAndPassword': () => envelope(null, 1003, 409, 'Wrong verification code'),
    });
    open();
    await userEvent.click(screen.getByRole('tab', { name: 'Phone' }));
    const form = within(screen.getByTestId('credentials-phone'));
    await userEvent.type(form.getByLabelText('New phone number'), '13912345678');
    await userEvent.click(form.getByTestId('send-code'));
    await waitFor(() => expect(api.callsTo('GET /base/BaseAccount/code/phone')).toHaveLength(1));
    expect(api.callsTo('GET /base/BaseAccount/code/phone')[0]!.params.get('type')).toBe('3');
    await userEvent.type(form.getByLabelText('Verification code'), '123456');
    await userEvent.type(form.getByLabelText('Current password'), 'Demo#Pass2026');
    await userEvent.click(form.getByTestId('save-phone'));
    expect(await form.findByText('Wrong verification code')).toBeInTheDocument();
    expect(api.callsTo('POST /base/BaseAccount/modifyPhoneAndPassword')[0]!.body).toEqual({
      accountPassword: 'Demo#Pass2026', phone: '13912345678', code: '123456' });
  });

  it('saves which system messages also go by e-mail or SMS', async () => {
    const api = server();
    open();
    const form = within(await screen.findByTestId('notifications-form'));
    await userEvent.click(form.getByLabelText('Service expiry reminders: SMS'));
    await userEvent.click(form.getByTestId('notifications-save'));
    await waitFor(() => expect(api.callsTo('POST /base/BaseMessage/channels')).toHaveLength(1));
    const sent = (api.callsTo('POST /base/BaseMessage/channels')[0]!.body as { channels: typeof CHANNELS }).channels;
    expect(sent.find((c) => c.kind === 'expiry')).toEqual({ kind: 'expiry', email: true, phone: false });
  });
});

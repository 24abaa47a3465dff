import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderRoute, setUpI18n, type Routes } from '@/test/harness';
import { session } from '@/lib/session';
import type { DeviceDetail } from '@/lib/api/devices';
import { signatureNeeds } from '@/lib/api/fda';
import { ALL_DEVICE_PERMISSIONS } from '@/test/devices';
import { detail, signInWith } from '@/test/devices';
import type { AlarmRule, PushSetting } from '../api/alarmRules';
import DeviceDetailPage from '../DeviceDetailPage';

const PATTERN = '/device/detail/:deviceId';
/** Typing a form through user-event takes seconds on a busy machine. */
const SLOW = 20_000;

function rule(overrides: Partial<AlarmRule> = {}): AlarmRule {
  return {
    id: 5, deviceId: 1, deviceName: 'Cold room A logger', deviceGuid: 'RCW360A0000001', probe: 't', name: 'Cold room',
    upperLimit: 8, lowerLimit: 2, delaySeconds: 90, level1Minutes: 0, level2Minutes: 30, level3Minutes: null, enabled: true,
    recipients: [{ level: 1, name: 'Alice', phone: '13800138000', email: null, voice: true, language: null }],
    createdAt: '2026-11-20T10:00:00+08:00', updatedAt: '2026-11-20T10:00:00+08:00',
    ...overrides,
  };
}

const PUSH_DEFAULTS: PushSetting = {
  deviceId: 1, smsKinds: [1, 2], voiceKinds: [1, 2], emailKinds: [1, 2], quietStart: null, quietEnd: null, timeZone: 'UTC',
  stored: false, access: 2,
};

function server(device: DeviceDetail = detail(), rules: AlarmRule[] = [rule()], extra: Routes = {}) {
  return fakeServer({
    'GET /device/Device/get': () => envelope(device),
    'POST /device/DeviceAlarmRule/page': () => envelope({ start: 1, pageSize: 10, totalCount: rules.length, data: rules }),
    'GET /device/DeviceAlarmPushSetting/get': () => envelope(PUSH_DEFAULTS),
    ...extra,
  });
}

async function openTab(device = detail()) {
  renderRoute(<DeviceDetailPage />, PATTERN, `/device/detail/${device.deviceId}?tab=push`);
  return screen.findByTestId('alarm-settings');
}

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  signatureNeeds.forget();
  vi.restoreAllMocks();
});

describe('AlarmSettings', () => {
  it('shows each probe\'s rule in the device\'s unit, and a fresh form for a probe without one', async () => {
    const device = detail({ temperatureUnit: 'F' });
    const api = server(device);
    signInWith();
    await openTab(device);
    const temperature = await screen.findByTestId('alarm-rule-t');
    expect(within(temperature).getByLabelText('Upper limit')).toHaveValue('46.4');
    expect(within(temperature).getByLabelText('Lower limit')).toHaveValue('35.6');
    expect(within(temperature).getByLabelText('Alarm delay')).toHaveValue('2');
    expect(within(temperature).getByLabelText('Level 2 after')).toHaveValue('30');
    expect(within(temperature).getByLabelText('Phone (SMS)')).toHaveValue('13800138000');
    const humidity = screen.getByTestId('alarm-rule-h');
    expect(within(humidity).getByTestId('alarm-rule-h-new')).toHaveTextContent('No rule yet');
    expect(within(humidity).getByLabelText('Rule name')).toHaveValue('Humidity');
    expect(api.callsTo('POST /device/DeviceAlarmRule/page')[0]?.body).toMatchObject({ deviceId: 1 });
  });

  it('says what is wrong as the user types: order of limits, range, graded times, recipients', async () => {
    server();
    signInWith();
    const user = userEvent.setup({ delay: null });
    await openTab();
    const card = await screen.findByTestId('alarm-rule-t');
    const upper = within(card).getByLabelText('Upper limit');
    await user.clear(upper);
    await user.type(upper, '1');
    expect(await within(card).findByText('The upper limit must be above the lower limit')).toBeInTheDocument();
    await user.clear(upper);
    await user.type(upper, '250');
    expect(await within(card).findByText('Enter a value from -200 to 200')).toBeInTheDocument();
    await user.clear(upper);
    await user.type(upper, 'abc');
    expect(await within(card).findByText('Enter a number')).toBeInTheDocument();

    const level2 = within(card).getByLabelText('Level 2 after');
    await user.clear(level2);
    await user.type(level2, '0');
    expect(await within(card).findByText(/Graded alarm times wrongly set/)).toBeInTheDocument();
  }, SLOW);

  it('says as the user types that a recipient repeats a phone or has a wrong one', async () => {
    server();
    signInWith();
    const user = userEvent.setup({ delay: null });
    await openTab();
    const card = await screen.findByTestId('alarm-rule-t');
    await user.click(within(card).getByTestId('rule-t-add-recipient'));
    const second = within(card).getByTestId('rule-t-recipient-1');
    await user.type(within(second).getByLabelText('Name'), 'Bob');
    await user.type(within(second).getByLabelText('Phone (SMS)'), '13800138000');
    expect(await within(second).findByText('This phone number is already a recipient')).toBeInTheDocument();
    await user.clear(within(second).getByLabelText('Phone (SMS)'));
    await user.type(within(second).getByLabelText('Phone (SMS)'), '123');
    expect(await within(second).findByText('Enter an 11-digit mobile number')).toBeInTheDocument();
  }, SLOW);

  it('drops an emoji typed in the middle of a recipient\'s name and goes on where the caret was', async () => {
    server();
    signInWith();
    const user = userEvent.setup({ delay: null });
    await openTab();
    const recipient = within(await screen.findByTestId('alarm-rule-t')).getByTestId('rule-t-recipient-0');
    const name = within(recipient).getByLabelText<HTMLInputElement>('Name');
    await user.click(name);
    name.setSelectionRange(2, 2); // "Al|ice"
    await user.keyboard('x😀y');
    expect(name).toHaveValue('Alxyice');
    expect(name.selectionStart).toBe(4);
  }, SLOW);

  it('refuses to save both limits empty, and sends nothing', async () => {
    const api = server(detail(), []);
    signInWith();
    const user = userEvent.setup({ delay: null });
    await openTab();
    const card = await screen.findByTestId('alarm-rule-t');
    await user.click(within(card).getByTestId('rule-t-save'));
    expect(await within(card).findByText('Set an upper limit, a lower limit or both')).toBeInTheDocument();
    expect(api.callsTo('POST /device/DeviceAlarmRule/insert')).toHaveLength(0);
  });

  it('inserts a rule for a probe without one, limits in Celsius, with its recipients', async () => {
    const device = detail({ temperatureUnit: 'F' });
    const api = server(device, [], {
      'POST /device/DeviceAlarmRule/insert': (call) => envelope(rule({ ...(call.body as Partial<AlarmRule>), id: 9 })),
    });
    signInWith();
    const user = userEvent.setup({ delay: null });
    await openTab(device);
    const card = await screen.findByTestId('alarm-rule-t');
    await user.type(within(card).getByLabelText('Upper limit'), '46.4');
    await user.type(within(card).getByLabelText('Lower limit'), '32');
    await user.clear(within(card).getByLabelText('Alarm delay'));
    await user.type(within(card).getByLabelText('Alarm delay'), '5');
    await user.type(within(card).getByLabelText('Level 2 after'), '15');
    await user.click(within(card).getByTestId('rule-t-add-recipient'));
    const recipient = within(card).getByTestId('rule-t-recipient-0');
    await user.selectOptions(within(recipient).getByLabelText('Level'), '2');
    await user.type(within(recipient).getByLabelText('Name'), ' Bob ');
    await user.type(within(recipient).getByLabelText('E-mail'), 'bob@example.com');
    expect(within(recipient).getByLabelText('Alert language')).toHaveValue(''); // the owner's, unless chosen
    await user.selectOptions(within(recipient).getByLabelText('Alert language'), 'ru-RU');
    await user.click(within(card).getByTestId('rule-t-save'));
    await waitFor(() => expect(api.callsTo('POST /device/DeviceAlarmRule/insert')).toHaveLength(1));
    expect(api.callsTo('POST /device/DeviceAlarmRule/insert')[0]?.body).toEqual({
      deviceId: 1, probe: 't', name: 'Temperature', upperLimit: 8, lowerLimit: 0, delaySeconds: 300,
      level1Minutes: 0, level2Minutes: 15, level3Minutes: null, enabled: true,
      recipients: [{ level: 2, name: 'Bob', phone: null, email: 'bob@example.com', voice: false, language: 'ru-RU' }],
    });
  }, SLOW);

  it('updates a rule, keeping an unchanged delay\'s seconds, and shows the server\'s refusal under its field', async () => {
    const api = server(detail(), [rule()], {
      'PUT /device/DeviceAlarmRule/update': () =>
        envelope(null, 422, 422, 'Ungültige Eingabe', { 'recipients.0.phone': ['Telefonnummer ungültig'] }),
    });
    signInWith();
    const user = userEvent.setup({ delay: null });
    await openTab();
    const card = await screen.findByTestId('alarm-rule-t');
    await user.click(within(card).getByLabelText('Alarm on'));
    await user.click(within(card).getByTestId('rule-t-save'));
    expect(await within(card).findByText('Telefonnummer ungültig')).toBeInTheDocument();
    expect(api.callsTo('PUT /device/DeviceAlarmRule/update')[0]?.body).toMatchObject({
      id: 5, enabled: false, delaySeconds: 90, upperLimit: 8, lowerLimit: 2,
      recipients: [{ level: 1, name: 'Alice', phone: '13800138000', email: null, voice: true, language: null }],
    });
  });

  it('shows a read-only device\'s rules disabled, and offers no save', async () => {
    const device = detail({ access: 1, isOwner: false });
    const api = server(device);
    signInWith();
    await openTab(device);
    const card = await screen.findByTestId('alarm-rule-t');
    expect(screen.getByTestId('alarm-settings-read-only')).toHaveTextContent('Read-only');
    expect(within(card).getByLabelText('Upper limit')).toBeDisabled();
    expect(within(card).queryByTestId('rule-t-save')).toBeNull();
    expect(within(card).queryByTestId('rule-t-add-recipient')).toBeNull();
    expect(api.calls.filter((c) => c.method !== 'GET' && !c.path.endsWith('/page'))).toHaveLength(0);
  });

  it('deletes a rule once confirmed, and offers no deletion for a probe without one', async () => {
    const api = server(detail(), [rule()], { 'DELETE /device/DeviceAlarmRule/delete': () => envelope(null) });
    const user = userEvent.setup();
    signInWith();
    await openTab();
    expect(within(await screen.findByTestId('alarm-rule-h')).queryByTestId('rule-h-delete')).toBeNull();
    await user.click(screen.getByTestId('rule-t-delete'));
    expect(await screen.findByTestId('rule-t-delete-confirm')).toHaveTextContent('Cold room');
    expect(api.callsTo('DELETE /device/DeviceAlarmRule/delete')).toEqual([]);
    const confirm = screen.getByTestId('rule-t-delete-confirm').closest('.bp6-alert');
    await user.click(within(confirm as HTMLElement).getByRole('button', { name: 'Delete rule' }));
    await waitFor(() => expect(api.callsTo('DELETE /device/DeviceAlarmRule/delete')).toHaveLength(1));
    expect(api.callsTo('DELETE /device/DeviceAlarmRule/delete')[0]?.params.get('id')).toBe('5');
  });

  describe('where FDA mode is on for the device', () => {
    const FDA = [...ALL_DEVICE_PERMISSIONS, 'fda', 'fda:query'];
    const fda = (enabled: boolean): Routes => ({
      'GET /device/FdaRecord/status': () => envelope({ subjects: [
        { accountId: 7, organizationId: null, name: 'alice', enabled, changeable: true },
      ] }),
      'GET /device/FdaRecord/signingState': () =>
        envelope({ needsUserName: false, locked: false, lockedUntil: null, reauthMinutes: 15, userName: 'alice' }),
    });
    const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;

    it('signs a change of the limits before it is sent, with the rule named', async () => {
      const api = server(detail(), [rule()], { ...fda(true), 'PUT /device/DeviceAlarmRule/update': () => envelope(rule({ upperLimit: 7 })) });
      signInWith(FDA);
      const user = userEvent.setup({ delay: null });
      await openTab();
      await waitFor(() => expect(api.callsTo('GET /device/FdaRecord/status')).toHaveLength(1));
      const card = await screen.findByTestId('alarm-rule-t');
      await user.clear(within(card).getByLabelText('Upper limit'));
      await user.type(within(card).getByLabelText('Upper limit'), '7');
      await user.click(within(card).getByTestId('rule-t-save'));
      const dialog = await screen.findByTestId('signature-dialog');
      expect(api.callsTo('PUT /device/DeviceAlarmRule/update')).toEqual([]);
      expect(within(dialog).getByTestId('signature-label')).toHaveTextContent('Cold room A logger · Cold room');
      await user.type(within(dialog).getByTestId('signature-password'), 'pw');
      await user.type(within(dialog).getByTestId('signature-reason-input'), 'Tighter limit for vaccines');
      await user.click(within(dialog).getByTestId('signature-submit'));
      await waitFor(() => expect(api.callsTo('PUT /device/DeviceAlarmRule/update')).toHaveLength(1));
      expect(api.callsTo('PUT /device/DeviceAlarmRule/update')[0]?.body).toMatchObject({ id: 5, upperLimit: 7,
        signature: { password: 'pw', meaning: 'approved', reason: 'Tighter limit for vaccines', timeZone: TZ } });
    }, SLOW);

    it('deletes a rule with a signature in the body of the DELETE; a refused signature keeps it and the session', async () => {
      let tries = 0;
      const api = server(detail(), [rule()], { ...fda(true), 'DELETE /device/DeviceAlarmRule/delete': () => {
        tries += 1;
        return tries === 1 ? envelope(null, 403, 403, 'Wrong user name or password: 4 tries left') : envelope(null);
      } });
      const user = userEvent.setup();
      signInWith(FDA);
      await openTab();
      await waitFor(() => expect(api.callsTo('GET /device/FdaRecord/status')).toHaveLength(1));
      await user.click(await screen.findByTestId('rule-t-delete'));
      const confirm = (await screen.findByTestId('rule-t-delete-confirm')).closest('.bp6-alert');
      await user.click(within(confirm as HTMLElement).getByRole('button', { name: 'Delete rule' }));
      const dialog = await screen.findByTestId('signature-dialog');
      expect(within(dialog).getByTestId('signature-label')).toHaveTextContent('Delete rule · Cold room');
      await user.type(within(dialog).getByTestId('signature-password'), 'wrong');
      await user.type(within(dialog).getByTestId('signature-reason-input'), 'Probe removed');
      await user.click(within(dialog).getByTestId('signature-submit'));
      expect(await within(dialog).findByTestId('signature-error')).toHaveTextContent('4 tries left');
      expect(session.get().info).not.toBeNull();
      await user.type(within(dialog).getByTestId('signature-password'), 'pw');
      await user.click(within(dialog).getByTestId('signature-submit'));
      await waitFor(() => expect(api.callsTo('DELETE /device/DeviceAlarmRule/delete')).toHaveLength(2));
      const sent = api.callsTo('DELETE /device/DeviceAlarmRule/delete')[1]!;
      expect(sent.params.get('id')).toBe('5');
      expect(sent.body).toEqual({ signature: { password: 'pw', meaning: 'approved', reason: 'Probe removed', timeZone: TZ } });
    }, SLOW);

    it('changes unsigned where the switch is off', async () => {
      const api = server(detail(), [rule()], { ...fda(false), 'PUT /device/DeviceAlarmRule/update': () => envelope(rule()) });
      signInWith(FDA);
      const user = userEvent.setup({ delay: null });
      await openTab();
      await waitFor(() => expect(api.callsTo('GET /device/FdaRecord/status')).toHaveLength(1));
      const card = await screen.findByTestId('alarm-rule-t');
      await user.click(within(card).getByLabelText('Alarm on'));
      await user.click(within(card).getByTestId('rule-t-save'));
      await waitFor(() => expect(api.callsTo('PUT /device/DeviceAlarmRule/update')).toHaveLength(1));
      expect(api.callsTo('PUT /device/DeviceAlarmRule/update')[0]?.body).not.toHaveProperty('signature');
      expect(screen.queryByTestId('signature-dialog')).toBeNull();
    }, SLOW);
  });

  it('shows the limits in force in the basic info', async () => {
    server(detail({ temperatureUnit: 'F', displayPrecision: 1 }));
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1?tab=info');
    expect(await screen.findByTestId('info-limits-t')).toHaveTextContent('Temperature: 35.6 °F to 46.4 °F');
    expect(screen.queryByTestId('info-limits-h')).toBeNull();
  });

  it('saves who gets what and quiet hours, saying as the user types that both bounds are needed', async () => {
    const api = server(detail(), [rule()], {
      'PUT /device/DeviceAlarmPushSetting/update': (call) => envelope({ ...(call.body as PushSetting), stored: true, access: 2 }),
    });
    signInWith();
    const user = userEvent.setup({ delay: null });
    await openTab();
    const card = await screen.findByTestId('push-settings');
    expect(within(card).getByLabelText('Time zone')).toHaveValue(Intl.DateTimeFormat().resolvedOptions().timeZone);
    await user.click(within(card).getByLabelText('Below the lower limit: Voice call'));
    await user.type(within(card).getByLabelText('From'), '22:00');
    expect(within(card).getByLabelText('From')).toHaveValue('22:00');
    expect(await within(card).findByText('Set both the start and the end of the quiet hours, or neither')).toBeInTheDocument();
    await user.type(within(card).getByLabelText('Until'), '07:00');
    await user.clear(within(card).getByLabelText('Time zone'));
    await user.type(within(card).getByLabelText('Time zone'), 'Asia/Shanghai');
    await user.click(within(card).getByTestId('push-save'));
    await waitFor(() => expect(api.callsTo('PUT /device/DeviceAlarmPushSetting/update')).toHaveLength(1));
    expect(api.callsTo('PUT /device/DeviceAlarmPushSetting/update')[0]?.body).toEqual({
      deviceId: 1, smsKinds: [1, 2], voiceKinds: [1], emailKinds: [1, 2], quietStart: '22:00', quietEnd: '07:00',
      timeZone: 'Asia/Shanghai',
    });
  }, SLOW);

  it('shows a read-only device\'s push settings disabled', async () => {
    const device = detail({ access: 1, isOwner: false });
    server(device);
    signInWith();
    await openTab(device);
    const card = await screen.findByTestId('push-settings');
    expect(within(card).getByLabelText('From')).toBeDisabled();
    expect(within(card).queryByTestId('push-save')).toBeNull();
  });
});

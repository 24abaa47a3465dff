import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, renderApp, setUpI18n, signIn } from '@/test/harness';
import { changeLanguage } from '@/lib/i18n';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import MessageListPage from './MessageListPage';
import { alarm, alarmServer, HANDLER, READER } from '@/test/alarms';

beforeAll(setUpI18n);
afterEach(async () => {
  session.clear();
  vi.restoreAllMocks();
  if (i18next.language !== 'en-US') await act(() => changeLanguage('en-US'));
});

const ALARMS = [
  alarm({ id: 3, level: 3, value: 9.1, extremeValue: 12.4 }),
  alarm({ id: 2, deviceId: 1, deviceName: 'Cold room A', deviceGuid: 'RCW360A0000001', kind: 2, limitValue: 2, value: 1.6,
    extremeValue: 0.4, level: 1, endedAt: '2026-05-01T07:30:00+08:00' }),
  alarm({ id: 1, state: 1, handling: 1, result: 'Door closed, goods checked', handledAt: '2026-04-30T10:00:00+08:00',
    handledBy: 'bob', endedAt: '2026-04-30T09:40:00+08:00' }),
];

function open(permissions: string[] = HANDLER, path = '/message/list') {
  signIn(accountInfo({}, { permissionRoutes: permissions }), permissions);
  return renderApp(<MessageListPage />, path);
}

const READ_ONLY_REASON = 'Read-only: you are a member of the organization that owns this device';
const rows = () => screen.getAllByTestId('alarm-row');
const row = (id: number) => rows().find((r) => r.getAttribute('data-alarm-id') === String(id))!;

describe('the message centre', () => {
  it('lists the alarm messages with their device, excursion, values, level, times and state', async () => {
    const api = alarmServer(ALARMS);
    open();
    await waitFor(() => expect(rows()).toHaveLength(3));
    const first = within(row(3));
    expect(first.getByText('Vaccine fridge logger')).toBeInTheDocument();
    expect(first.getByText('RCW360A0000003')).toBeInTheDocument();
    expect(first.getByText('Temperature')).toBeInTheDocument();
    expect(first.getByTestId('alarm-kind')).toHaveTextContent('Above upper limit');
    expect(first.getByText('9.1 °C')).toBeInTheDocument();
    expect(first.getByText('8.0 °C')).toBeInTheDocument();
    expect(first.getByText('12.4 °C')).toBeInTheDocument();
    expect(first.getByTestId('alarm-level')).toHaveTextContent('Level 3');
    expect(first.getByText('Ongoing')).toBeInTheDocument();
    expect(first.getByTestId('alarm-state')).toHaveTextContent('Untreated');
    expect(within(row(2)).getByTestId('alarm-kind')).toHaveTextContent('Below lower limit');
    expect(within(row(2)).getByTestId('alarm-level')).toHaveTextContent('Level 1');

    const treated = within(row(1));
    expect(treated.getByTestId('alarm-state')).toHaveTextContent('Treated');
    expect(treated.getByTestId('alarm-handled')).toHaveTextContent('Approved');
    expect(treated.getByTestId('alarm-handled')).toHaveTextContent('Door closed, goods checked');
    expect(treated.getByTestId('alarm-handled')).toHaveTextContent(/Handled \d/);
    expect(treated.getByTestId('alarm-handled-by')).toHaveTextContent('By bob');
    expect(treated.queryByTestId('alarm-deal')).toBeNull();
    expect(within(row(3)).queryByTestId('alarm-handled-by')).toBeNull();

    expect(api.callsTo('POST /device/DeviceAlarm/page')[0]?.body).toEqual({ start: 1, pageSize: 10 });
    expect(await screen.findByRole('tab', { name: /Alarm messages/ })).toHaveTextContent('2');
    expect(screen.getByTestId('message-subtitle')).toHaveTextContent(/^Alarm messages of your devices/);
  });

  it('shows temperatures in the device’s unit and decimals, humidity as it is', async () => {
    alarmServer([
      alarm({ id: 5, temperatureUnit: 'F', displayPrecision: 2, value: 8.6, limitValue: 8, extremeValue: 11.7 }),
      alarm({ id: 4, probe: 'h', temperatureUnit: 'F', displayPrecision: 0, value: 81.4, limitValue: 80, extremeValue: 86.6 }),
      alarm({ id: 3, temperatureUnit: 'C', displayPrecision: 3, value: 8.6, limitValue: 8, extremeValue: 11.7 }),
    ]);
    open();
    await waitFor(() => expect(rows()).toHaveLength(3));
    const cells = (id: number) =>
      ['alarm-value', 'alarm-limit', 'alarm-extreme'].map((cell) => within(row(id)).getByTestId(cell).textContent);
    expect(cells(5)).toEqual(['47.48 °F', '46.40 °F', '53.06 °F']);
    expect(cells(4)).toEqual(['81 %RH', '80 %RH', '87 %RH']);
    expect(cells(3)).toEqual(['8.600 °C', '8.000 °C', '11.700 °C']);

    await userEvent.setup().click(within(row(5)).getByTestId('alarm-deal'));
    const summary = within(await screen.findByTestId('deal-summary'));
    expect(summary.getByText('47.48 °F')).toBeInTheDocument();
    expect(summary.getByText('46.40 °F')).toBeInTheDocument();
    expect(summary.getByText('53.06 °F')).toBeInTheDocument();
  });

  it('filters by state, device and days, through the address', async () => {
    const api = alarmServer(ALARMS);
    const user = userEvent.setup();
    open();
    await waitFor(() => expect(rows()).toHaveLength(3));

    await user.click(screen.getByRole('radio', { name: 'Untreated' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(api.callsTo('POST /device/DeviceAlarm/page').at(-1)?.body).toEqual({ start: 1, pageSize: 10, state: 0 });
    expect(screen.getByTestId('location')).toHaveTextContent('/message/list?state=0');

    await user.click(screen.getByTestId('device-filter'));
    const option = await screen.findByRole('option', { name: /Cold room A/ });
    await user.click(within(option).getByText('Cold room A'));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.callsTo('POST /device/DeviceAlarm/page').at(-1)?.body).toEqual({ start: 1, pageSize: 10, state: 0, deviceId: 1 });
    expect(screen.getByTestId('device-filter')).toHaveTextContent('Cold room A');

    await user.type(screen.getByTestId('from-filter'), '2026-05-01');
    await waitFor(() =>
      expect(api.callsTo('POST /device/DeviceAlarm/page').at(-1)?.body).toMatchObject({ startTime: '2026-05-01T00:00:00' }),
    );
    await user.click(screen.getByTestId('filters-reset'));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/message\/list$/);
  });

  it('opens filtered from an address', async () => {
    const api = alarmServer(ALARMS);
    open(HANDLER, '/message/list?state=1&deviceId=3&device=Vaccine%20fridge%20logger');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.callsTo('POST /device/DeviceAlarm/page')[0]?.body).toEqual({ start: 1, pageSize: 10, state: 1, deviceId: 3 });
    expect(screen.getByTestId('device-filter')).toHaveTextContent('Vaccine fridge logger');
    expect(screen.getByRole('radio', { name: 'Treated' })).toBeChecked();
  });

  it('does not ask with a backwards range', async () => {
    const api = alarmServer(ALARMS);
    open(HANDLER, '/message/list?from=2026-05-03&to=2026-05-01');
    expect((await screen.findAllByText('The start date is after the end date.')).length).toBeGreaterThan(0);
    expect(api.callsTo('POST /device/DeviceAlarm/page')).toHaveLength(0);
  });

  it('pages with the shared pager and offers 10-40 rows a page', async () => {
    const many = Array.from({ length: 23 }, (_, i) => alarm({ id: 100 - i }));
    const api = alarmServer(many);
    const user = userEvent.setup();
    open();
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(screen.getByText('23 in total')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(api.callsTo('POST /device/DeviceAlarm/page').at(-1)?.body).toEqual({ start: 2, pageSize: 10 }));
    await user.selectOptions(screen.getByTestId('page-size'), '20');
    await waitFor(() => expect(api.callsTo('POST /device/DeviceAlarm/page').at(-1)?.body).toEqual({ start: 1, pageSize: 20 }));
    await waitFor(() => expect(rows()).toHaveLength(20));
  });

  it('says when there is nothing, and when nothing matches', async () => {
    alarmServer([]);
    const { unmount } = open();
    expect(await screen.findByTestId('messages-empty')).toHaveTextContent('When a device stays outside');
    unmount();
    open(HANDLER, '/message/list?state=0');
    expect(await screen.findByTestId('messages-empty')).toHaveTextContent('No alarm message matches these filters.');
  });

  it('asks nothing without the permission to read messages', () => {
    const api = alarmServer(ALARMS);
    open(['home', 'message.list']);
    expect(screen.getByTestId('messages-no-permission')).toHaveTextContent('No access to alarm messages');
    // The caller's own system messages need no permission: only their unread count is asked for.
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /base/BaseMessage/unreadCount']);
  });

  it('leaves out the device filter without the device list permission', async () => {
    const api = alarmServer(ALARMS);
    open(['home', 'message.list', 'message.list:query']);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.queryByTestId('device-filter')).toBeNull();
    expect(api.callsTo('POST /device/Device/page')).toHaveLength(0);
  });

  it('offers no handling of an alarm of a device the caller may only read, and says why', async () => {
    const api = alarmServer([
      alarm({ id: 5, deviceId: 8, deviceName: 'Warehouse 1 cold room', deviceGuid: 'CR2B000000001', access: 1 }),
      ...ALARMS,
    ]);
    const user = userEvent.setup();
    open();
    await waitFor(() => expect(rows()).toHaveLength(4));
    const deal = within(row(5)).getByTestId('alarm-deal');
    expect(deal).toHaveAttribute('aria-disabled', 'true');
    await user.click(deal);
    expect(screen.queryByTestId('deal-dialog')).toBeNull();
    await user.hover(deal);
    expect((await screen.findByText(READ_ONLY_REASON)).closest('.bp6-tooltip')).not.toBeNull();
    expect(within(row(5)).getByTestId('read-only')).toHaveTextContent('Read-only');
    // the caller's own alarms stay handled as before
    expect(within(row(3)).getByTestId('alarm-deal')).toBeEnabled();
    expect(within(row(3)).queryByTestId('read-only')).toBeNull();
    expect(api.callsTo('POST /device/DeviceAlarm/deal')).toHaveLength(0);
  });

  it('greys out handling without the edit permission', async () => {
    alarmServer(ALARMS);
    open(READER);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(within(row(3)).getByTestId('alarm-deal')).toBeDisabled();
    expect(within(row(3)).getByTestId('permit-greyed')).toBeInTheDocument();
  });
});

describe('handling an alarm', () => {
  async function openDialog(id = 3) {
    const user = userEvent.setup();
    await waitFor(() => expect(rows().length).toBeGreaterThan(0));
    await user.click(within(row(id)).getByTestId('alarm-deal'));
    return { user, dialog: await screen.findByTestId('deal-dialog') };
  }

  it('approves with a result; the row turns treated and the count drops', async () => {
    const api = alarmServer(ALARMS);
    const success = vi.spyOn(notify, 'success').mockImplementation(() => {});
    open();
    await waitFor(() => expect(screen.getByRole('tab', { name: /Alarm messages/ })).toHaveTextContent('2'));
    const { user, dialog } = await openDialog();
    expect(within(dialog).getByTestId('deal-summary')).toHaveTextContent('Vaccine fridge logger');
    await user.click(within(dialog).getByRole('radio', { name: 'Approve' }));
    await user.type(within(dialog).getByTestId('deal-result'), '  Door closed ');
    expect(within(dialog).getByTestId('deal-counter')).toHaveTextContent('11 / 50');
    await user.click(within(dialog).getByTestId('deal-submit'));

    await waitFor(() => expect(screen.queryByTestId('deal-dialog')).toBeNull());
    expect(api.callsTo('POST /device/DeviceAlarm/deal')[0]?.body).toEqual({ id: 3, handling: 1, result: 'Door closed' });
    expect(success).toHaveBeenCalledWith('The alarm has been handled');
    await waitFor(() => expect(within(row(3)).getByTestId('alarm-state')).toHaveTextContent('Treated'));
    expect(within(row(3)).getByTestId('alarm-handled')).toHaveTextContent('Door closed');
    expect(within(row(3)).getByTestId('alarm-handled-by')).toHaveTextContent('By alice');
    await waitFor(() => expect(screen.getByRole('tab', { name: /Alarm messages/ })).toHaveTextContent(/^Alarm messages1$/));
    expect(api.callsTo('GET /device/DeviceAlarm/count').length).toBeGreaterThanOrEqual(2);
  });

  it('goes back a page when handling empties the last one', async () => {
    const api = alarmServer(Array.from({ length: 11 }, (_, i) => alarm({ id: 100 - i })));
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    open(HANDLER, '/message/list?state=0&start=2');
    await waitFor(() => expect(rows()).toHaveLength(1));
    const { user, dialog } = await openDialog(90);
    await user.click(within(dialog).getByRole('radio', { name: 'Approve' }));
    await user.click(within(dialog).getByTestId('deal-submit'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/message\/list\?state=0$/));
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(api.callsTo('POST /device/DeviceAlarm/page').at(-1)?.body).toEqual({ start: 1, pageSize: 10, state: 0 });
  });

  it('needs a handling, and refuses a result over 50 characters without asking', async () => {
    const api = alarmServer(ALARMS);
    open();
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByTestId('deal-submit'));
    expect(await within(dialog).findByText('Choose how to handle the alarm')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'Defer' }));
    await user.type(within(dialog).getByTestId('deal-result'), 'x'.repeat(51));
    await user.click(within(dialog).getByTestId('deal-submit'));
    expect(await within(dialog).findByText('The result can be at most 50 characters long')).toBeInTheDocument();
    expect(within(dialog).getByTestId('deal-counter')).toHaveTextContent('51 / 50');
    expect(api.callsTo('POST /device/DeviceAlarm/deal')).toHaveLength(0);
  });

  it('says a result is too long as it is typed, before any submit, and drops emoji from it', async () => {
    const api = alarmServer(ALARMS);
    open();
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByTestId('deal-result'), 'Door 🚪 closed ✅');
    expect(within(dialog).getByTestId('deal-result')).toHaveValue('Door  closed ');
    await user.type(within(dialog).getByTestId('deal-result'), 'x'.repeat(40));
    expect(await within(dialog).findByText('The result can be at most 50 characters long')).toBeInTheDocument();
    expect(api.callsTo('POST /device/DeviceAlarm/deal')).toHaveLength(0);
  });

  it('says it in the user’s language, and again after a switch', async () => {
    alarmServer(ALARMS);
    await act(() => changeLanguage('zh-CN'));
    open();
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('radio', { name: '同意' }));
    await user.type(within(dialog).getByTestId('deal-result'), '冷'.repeat(51));
    await user.click(within(dialog).getByTestId('deal-submit'));
    expect(await within(dialog).findByText('处理结果最多 50 个字符')).toBeInTheDocument();
    await act(() => changeLanguage('de-DE'));
    expect(await within(dialog).findByText('Das Ergebnis darf höchstens 50 Zeichen lang sein')).toBeInTheDocument();
  });

  it('names who handled it in the user’s language', async () => {
    alarmServer(ALARMS);
    await act(() => changeLanguage('zh-CN'));
    open();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(within(row(1)).getByTestId('alarm-handled-by')).toHaveTextContent('处理人：bob');
    await act(() => changeLanguage('ru-RU'));
    expect(within(row(1)).getByTestId('alarm-handled-by')).toHaveTextContent('Кто обработал: bob');
  });

  it('shows the server’s 422 under its field', async () => {
    alarmServer(ALARMS, {
      'POST /device/DeviceAlarm/deal': () =>
        envelope(null, 422, 422, 'Invalid input', { result: ['Longer than maximum length 50.'] }),
    });
    open();
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('radio', { name: 'Refuse' }));
    await user.type(within(dialog).getByTestId('deal-result'), 'False alarm');
    await user.click(within(dialog).getByTestId('deal-submit'));
    expect(await within(dialog).findByText('Longer than maximum length 50.')).toBeInTheDocument();
    expect(within(dialog).getByTestId('deal-result')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByTestId('deal-error')).toBeNull();
  });

  it('shows a 409 with its message and handles no more; the list is asked again', async () => {
    const api = alarmServer(ALARMS);
    open();
    const { user, dialog } = await openDialog();
    api.alarms[0]!.state = 1; // someone else was quicker
    api.alarms[0]!.handling = 2;
    await user.click(within(dialog).getByRole('radio', { name: 'Approve' }));
    await user.click(within(dialog).getByTestId('deal-submit'));
    expect(await within(dialog).findByTestId('deal-error')).toHaveTextContent('This alarm has already been handled');
    expect(within(dialog).getByTestId('deal-submit')).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(within(row(3)).getByTestId('alarm-handled')).toHaveTextContent('Refused'));
  });
});

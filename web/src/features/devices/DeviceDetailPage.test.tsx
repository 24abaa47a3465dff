import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, setUpI18n, type Call, type Routes } from '@/test/harness';
import { session } from '@/lib/session';
import type { Alarm } from '@/lib/api/alarms';
import { alarm } from '@/test/alarms';
import type { DeviceDetail } from '@/lib/api/devices';
import type { HistoryQuery } from './api/history';
import type { ChartOption } from '@/components/chart/chartOption';
import DeviceDetailPage from './DeviceDetailPage';
import { detail, signInWith } from '@/test/devices';
import { renderRoute } from '@/test/harness';

// jsdom draws no canvas: the chart shows what it was given instead.
vi.mock('@/components/chart/EChart', () => ({
  default: ({ option }: { option: ChartOption }) => (
    <div data-testid="history-chart-canvas" data-series={(option.series as { name: string }[]).map((s) => s.name).join(',')} />
  ),
}));

const PATTERN = '/device/detail/:deviceId';
const READ_ONLY_REASON = 'Read-only: you are a member of the organization that owns this device';

const ALARM = alarm({
  id: 11,
  deviceId: 1,
  deviceName: 'Cold room A logger',
  deviceGuid: 'RCW360A0000001',
  ruleId: 1,
  value: 8.3,
  startedAt: '2026-11-20T23:39:05+08:00',
  raisedAt: '2026-11-20T23:44:05+08:00',
  temperatureUnit: 'F',
});
const HANDLED: Alarm = {
  ...ALARM,
  id: 10,
  kind: 2,
  limitValue: 2,
  value: 1.7,
  extremeValue: 0.6,
  endedAt: '2026-11-20T22:19:00+08:00',
  state: 1,
  handling: 1,
  result: 'Door closed, compressor reset',
  handledAt: '2026-11-21T08:00:00+08:00',
  handledBy: 'alice',
  displayPrecision: 2,
};

function server(device: DeviceDetail = detail(), extra: Routes = {}) {
  return fakeServer({
    'GET /device/Device/get': () => envelope(device),
    'POST /device/Device/history': () =>
      envelope({
        points: [
          { ts: '2026-11-22T10:00:00+08:00', temperature: 3.5, humidity: 74 },
          { ts: '2026-11-22T10:05:00+08:00', temperature: 3.7, humidity: 74.5 },
        ],
        downsampled: false,
        total: 2,
      }),
    'POST /device/DeviceAlarm/page': () => envelope({ start: 1, pageSize: 10, totalCount: 2, data: [ALARM, HANDLED] }),
    ...extra,
  });
}

const historyCalls = (api: ReturnType<typeof server>) =>
  api.callsTo('POST /device/Device/history').map((call) => call.body as HistoryQuery);

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('DeviceDetailPage', () => {
  it('shows each probe\'s last reading against its limits, in the device\'s unit and precision', async () => {
    server(detail({ temperatureUnit: 'F', displayPrecision: 2, temperature: 9, lastReadingAt: '2026-11-22T11:20:00+08:00' }));
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1');
    expect(await screen.findByTestId('device-name')).toHaveTextContent('Cold room A logger');
    const temperature = screen.getByTestId('probe-t');
    expect(within(temperature).getByTestId('probe-t-value')).toHaveTextContent('48.20 °F');
    expect(temperature).toHaveAttribute('data-state', 'above');
    expect(temperature).toHaveTextContent('46.40 °F'); // the 8 °C upper limit
    expect(temperature).toHaveTextContent('35.60 °F'); // the 2 °C lower limit
    expect(screen.getByTestId('probe-h')).toHaveTextContent('Not set');
    expect(screen.getByTestId('device-connection')).toHaveTextContent('Online');
    expect(screen.getByTestId('device-detail-recharge')).toHaveAttribute('href', '/consumer/recharge?deviceIds=1');
  });

  it('tags a device that renews itself, and opens its current service from the tag', async () => {
    const api = server(detail({ agreementStatus: 1 }), {
      'GET /payment/PayOrder/selectCurrentService': () =>
        envelope({ deviceId: 1, levelName: 'Pro', totalFee: 39_900, currency: 'CNY', nextExecutionTime: '2027-03-02T00:00:00+08:00' }),
    });
    const user = userEvent.setup();
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1');
    await user.click(await screen.findByTestId('auto-renew-tag'));
    expect(await screen.findByTestId('current-service')).toHaveTextContent('Cold room A logger');
    expect(api.callsTo('GET /payment/PayOrder/selectCurrentService')[0]?.params.get('deviceId')).toBe('1');
  });

  it('has no auto-renew tag for a device that does not renew itself', async () => {
    server(detail({ agreementStatus: 0 }));
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1');
    await screen.findByTestId('device-name');
    expect(screen.queryByTestId('auto-renew-tag')).toBeNull();
  });

  it('asks for the latest values every 10 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = server();
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1');
    await screen.findByTestId('device-realtime');
    expect(api.callsTo('GET /device/Device/get')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(api.callsTo('GET /device/Device/get')).toHaveLength(2));
    expect(api.callsTo('GET /device/Device/get')[1]?.params.get('deviceId')).toBe('1');
  });

  it('says when the device is not there, without a notice', async () => {
    fakeServer({ 'GET /device/Device/get': () => envelope(null, 404, 404, 'Device not found') });
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/99');
    expect(await screen.findByTestId('device-not-found')).toHaveTextContent('Device not found');
  });

  it('asks nothing for an address that is not a device id, or without the detail permission', async () => {
    const api = server();
    signInWith();
    const { unmount } = renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/abc');
    expect(screen.getByTestId('device-not-found')).toBeInTheDocument();
    unmount();
    signInWith(['home', 'device.list']);
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1');
    expect(screen.getByText('Your account may not view device details.')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('draws the last 24 hours, and asks again for another range', async () => {
    const api = server();
    const user = userEvent.setup();
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1?tab=chart');
    expect(await screen.findByTestId('history-chart-canvas')).toHaveAttribute('data-series', 'Temperature,Humidity');
    const [first] = historyCalls(api);
    expect(first).toMatchObject({ deviceId: 1, maxPoints: 400 });
    expect(Date.parse(first!.endTime) - Date.parse(first!.startTime)).toBe(24 * 3_600_000);
    expect(first!.startTime).toMatch(/[+-]\d{2}:\d{2}$/);
    expect(screen.getByTestId('history-summary')).toHaveTextContent('2 readings');

    await user.click(screen.getByTestId('range-7d'));
    await waitFor(() => expect(historyCalls(api)).toHaveLength(2));
    const second = historyCalls(api)[1]!;
    expect(Date.parse(second.endTime) - Date.parse(second.startTime)).toBe(7 * 86_400_000);
    expect(screen.getByTestId('range-7d')).toHaveAttribute('aria-pressed', 'true');
  });

  it('says when a range holds no readings', async () => {
    server(detail(), { 'POST /device/Device/history': () => envelope({ points: [], downsampled: false, total: 0 }) });
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1?tab=chart');
    expect(await screen.findByTestId('history-empty')).toHaveTextContent('No readings in this time range');
  });

  it('lists the device\'s alarms, filtered by it, in its unit', async () => {
    const api = server(detail({ temperatureUnit: 'F' }));
    const user = userEvent.setup();
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1');
    await user.click(await screen.findByRole('tab', { name: /Alarm records/ }));
    const [row, handled] = await screen.findAllByTestId('alarm-row');
    expect(row).toHaveTextContent('Above upper limit');
    expect(row).toHaveTextContent('52.2 °F'); // extreme 11.2 °C
    expect(row).toHaveTextContent('Level 2');
    expect(row).toHaveTextContent('Ongoing');
    expect(row).toHaveTextContent('Untreated');
    expect(handled).toHaveTextContent('Below lower limit');
    expect(handled).toHaveTextContent('33.08 °F'); // extreme 0.6 °C, in the alarm's own decimals
    expect(handled).toHaveTextContent('Treated');
    expect(within(handled!).getByTestId('alarm-handling')).toHaveTextContent('Approved · aliceDoor closed, compressor reset');
    expect(api.callsTo('POST /device/DeviceAlarm/page')[0]?.body).toEqual({ deviceId: 1, start: 1, pageSize: 10 });
    expect(screen.getByTestId('location')).toHaveTextContent('/device/detail/1?tab=alarms');

    await user.selectOptions(screen.getByTestId('alarm-state-filter'), '1');
    await waitFor(() =>
      expect(api.callsTo('POST /device/DeviceAlarm/page').at(-1)?.body).toEqual({ deviceId: 1, start: 1, pageSize: 10, state: 1 }),
    );
  });

  it('does not ask for alarms without the message centre\'s permission (the server would end the session)', async () => {
    const api = server();
    signInWith(['home', 'device.list', 'device.detail']);
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1?tab=alarms');
    expect(await screen.findByText('Your account may not view alarm records.')).toBeInTheDocument();
    expect(api.callsTo('POST /device/DeviceAlarm/page')).toHaveLength(0);
  });

  it('shows the basic information', async () => {
    server(detail({ simIccid: '89860012345678900001', jcIccidStatus: 1, serviceExpiredDate: '2026-12-12', vipInfo: { state: 1 } }));
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1?tab=info');
    expect(await screen.findByTestId('info-guid')).toHaveTextContent('RCW360A0000001');
    expect(screen.getByTestId('info-sim')).toHaveTextContent('89860012345678900001Data plan active');
    expect(screen.getByTestId('info-owner')).toHaveTextContent('alice');
    expect(screen.getByTestId('info-level')).toHaveTextContent('Basic');
    expect(within(screen.getByTestId('info-expiry')).getByTestId('service-state')).toHaveAttribute('data-state', 'expiring');
    expect(screen.getByTestId('info-precision')).toHaveTextContent('1 decimal (0.0)');
    expect(screen.getByTestId('info-unit')).toHaveTextContent('Celsius (°C)');
    expect(screen.getByTestId('info-countryCode')).toHaveTextContent('+86');
  });

  it('edits the name, remark, precision and unit, and shows the server\'s refusals by field', async () => {
    let attempt = 0;
    const api = server(detail(), {
      'PUT /device/Device/update': (call: Call) => {
        attempt += 1;
        if (attempt === 1) {
          return envelope(null, 422, 422, 'Invalid input', { deviceName: ['Name taken by the server'] });
        }
        const body = call.body as Record<string, unknown>;
        return envelope(detail({ deviceName: body.deviceName as string, remark: body.remark as string, temperatureUnit: 'F' }));
      },
    });
    const user = userEvent.setup();
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1?tab=info');
    await user.click(await screen.findByTestId('device-edit'));
    const form = await screen.findByTestId('device-edit-form');
    const name = within(form).getByLabelText(/Device name/);
    await user.clear(name);
    await user.click(within(form).getByTestId('device-edit-save'));
    expect(await within(form).findByText('Please enter a device name')).toBeInTheDocument();
    expect(api.callsTo('PUT /device/Device/update')).toHaveLength(0);

    await user.type(name, 'Dock logger');
    await user.type(within(form).getByLabelText(/Remark/), 'By the door');
    await user.click(within(form).getByRole('radio', { name: 'Fahrenheit (°F)' }));
    await user.click(within(form).getByTestId('device-edit-save'));
    expect(await within(form).findByText('Name taken by the server')).toBeInTheDocument();
    expect(api.callsTo('PUT /device/Device/update')[0]?.body).toEqual({
      deviceId: 1,
      deviceName: 'Dock logger',
      remark: 'By the door',
      displayPrecision: 1,
      temperatureUnit: 'F',
    });

    await user.click(within(form).getByTestId('device-edit-save'));
    await waitFor(() => expect(screen.queryByTestId('device-edit-form')).toBeNull());
    expect(screen.getByTestId('device-name')).toHaveTextContent('Dock logger');
    expect(screen.getByTestId('info-remark')).toHaveTextContent('By the door');
  });

  it('offers no change of a device the caller may only read: no edit, no recharge, no cancelling its renewal', async () => {
    const api = server(detail({ access: 1, isOwner: false, ownerName: 'acme', organizationName: 'Acme Cold Chain', agreementStatus: 1 }), {
      'GET /payment/PayOrder/selectCurrentService': () =>
        envelope({ deviceId: 1, levelName: 'Pro', totalFee: 39_900, currency: 'CNY', nextExecutionTime: '2027-03-02T00:00:00+08:00' }),
    });
    const user = userEvent.setup();
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1?tab=info');
    const edit = await screen.findByTestId('device-edit');
    expect(edit).toHaveAttribute('aria-disabled', 'true');
    await user.click(edit);
    expect(screen.queryByTestId('device-edit-form')).toBeNull();
    await user.hover(edit);
    expect((await screen.findByText(READ_ONLY_REASON)).closest('.bp6-tooltip')).not.toBeNull();

    expect(screen.getByTestId('read-only')).toHaveTextContent('Read-only');
    const recharge = screen.getByTestId('device-detail-recharge');
    expect(recharge).toHaveAttribute('aria-disabled', 'true');
    expect(recharge).not.toHaveAttribute('href');
    await user.click(recharge);
    expect(screen.queryByTestId('recharge-drawer')).toBeNull();

    await user.click(screen.getByTestId('auto-renew-tag'));
    expect(await screen.findByTestId('current-service')).toHaveTextContent('Pro');
    expect(screen.getByTestId('cancel-auto-renew')).toHaveAttribute('aria-disabled', 'true');
    expect(api.calls.filter((call) => call.method !== 'GET' && call.path !== '/device/DeviceAlarm/page')).toEqual([]);
  });

  it('offers no recharge of a scrapped device in its header, and says why', async () => {
    server(detail({ scrappedAt: '2026-11-01T08:00:00+08:00' }));
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1');
    const recharge = await screen.findByTestId('device-detail-recharge');
    expect(recharge).toHaveAttribute('aria-disabled', 'true');
    expect(recharge).not.toHaveAttribute('href');
    expect(recharge.parentElement).toHaveAttribute('title', 'Scrapped: restore it to recharge it');
  });

  it('offers the changes of a device the caller may change, though another account owns it', async () => {
    server(detail({ access: 2, isOwner: false, ownerName: 'acme', organizationName: 'Acme Cold Chain' }));
    signInWith();
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1?tab=info');
    expect(await screen.findByTestId('device-edit')).not.toHaveAttribute('aria-disabled');
    expect(screen.getByTestId('device-detail-recharge')).toHaveAttribute('href', '/consumer/recharge?deviceIds=1');
    expect(screen.queryByTestId('read-only')).toBeNull();
  });

  it('offers no edit without the edit permission', async () => {
    server();
    signInWith(['home', 'device.list', 'device.detail']);
    renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1?tab=info');
    await screen.findByTestId('info-guid');
    expect(screen.queryByTestId('device-edit')).toBeNull();
  });
});

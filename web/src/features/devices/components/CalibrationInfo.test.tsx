import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderRoute, setUpI18n, type Call } from '@/test/harness';
import { session } from '@/lib/session';
import { detail, signInWith } from '@/test/devices';
import type { DeviceCalibration } from '../api/calibration';
import DeviceDetailPage from '../DeviceDetailPage';

const PATTERN = '/device/detail/:deviceId';
const SLOW = 20_000;

function calibration(overrides: Partial<DeviceCalibration> = {}): DeviceCalibration {
  return { deviceId: 1, calibratedOn: '2025-12-01', dueOn: '2026-12-01', certificate: 'CAL-2025-000042', intervalMonths: 12,
    ownIntervalMonths: null, changeable: true, ...overrides };
}

function openInfo(known: DeviceCalibration | null, saved?: (call: Call) => Response | Promise<Response>) {
  const api = fakeServer({
    'GET /device/Device/get': () => envelope(detail()),
    'GET /calibration/Device/calibration': () => (known ? envelope(known) : envelope(null, 404, 404, 'Not found')),
    ...(saved ? { 'POST /calibration/Device/interval': saved } : {}),
  });
  renderRoute(<DeviceDetailPage />, PATTERN, '/device/detail/1?tab=info');
  return api;
}

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the device\'s calibration', () => {
  it('shows the dates, the certificate, whether it is due and the interval in force', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-20T10:00:00') });
    signInWith();
    openInfo(calibration());
    const section = await screen.findByTestId('device-calibration');
    expect(within(section).getByTestId('calibration-calibratedOn')).toHaveTextContent('2025-12-01');
    expect(within(section).getByTestId('calibration-dueOn')).toHaveTextContent('2026-12-01Due soon');
    expect(within(section).getByTestId('calibration-certificate')).toHaveTextContent('CAL-2025-000042');
    expect(within(section).getByTestId('calibration-interval')).toHaveTextContent("12 months (the device type's)");
  });

  it('offers no change to who may only see the device, and is left out where the server shows nothing', async () => {
    signInWith();
    openInfo(calibration({ changeable: false, calibratedOn: null, dueOn: null, certificate: null }));
    const section = await screen.findByTestId('device-calibration');
    expect(section).toHaveTextContent('Not calibrated through the console yet');
    expect(within(section).queryByTestId('calibration-interval-edit')).toBeNull();
  });

  it('hides the section when the device\'s calibration is not found', async () => {
    signInWith();
    const api = openInfo(null);
    await screen.findByTestId('info-guid');
    await waitFor(() => expect(api.callsTo('GET /calibration/Device/calibration')).toHaveLength(1));
    expect(screen.queryByTestId('device-calibration')).toBeNull();
  });

  it('sets the device\'s own interval within 1 to 120 months, and its type\'s again', async () => {
    const bodies: unknown[] = [];
    signInWith();
    const api = openInfo(calibration(), (call) => {
      bodies.push(call.body);
      const months = (call.body as { intervalMonths: number | null }).intervalMonths;
      return envelope(calibration({ ownIntervalMonths: months, intervalMonths: months ?? 12, dueOn: '2026-06-01' }));
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('calibration-interval-edit'));
    const form = await screen.findByTestId('calibration-interval-form');
    await user.click(within(form).getByTestId('calibration-interval-of-type'));
    const months = within(form).getByLabelText(/Months/);
    await user.clear(months);
    await user.type(months, '121');
    await user.click(within(form).getByTestId('calibration-interval-save'));
    expect(await within(form).findByText('An interval is 1 to 120 months')).toBeInTheDocument();
    expect(api.callsTo('POST /calibration/Device/interval')).toHaveLength(0);
    await user.clear(months);
    await user.type(months, '6');
    await user.click(within(form).getByTestId('calibration-interval-save'));
    await waitFor(() => expect(screen.getByTestId('calibration-interval')).toHaveTextContent("6 months (this device's own)"));
    expect(screen.getByTestId('calibration-dueOn')).toHaveTextContent('2026-06-01');
    await user.click(screen.getByTestId('calibration-interval-edit'));
    const again = await screen.findByTestId('calibration-interval-form');
    expect(within(again).getByLabelText(/Months/)).toHaveValue('6');
    await user.click(within(again).getByTestId('calibration-interval-of-type'));
    await user.click(within(again).getByTestId('calibration-interval-save'));
    await waitFor(() => expect(screen.getByTestId('calibration-interval')).toHaveTextContent("12 months (the device type's)"));
    expect(bodies).toEqual([{ deviceId: 1, intervalMonths: 6 }, { deviceId: 1, intervalMonths: null }]);
  }, SLOW);
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n } from '@/test/harness';
import { session } from '@/lib/session';
import { ALL_DEVICE_PERMISSIONS, device, page, signInWith } from '@/test/devices';
import DeviceListPage from '../DeviceListPage';

const PLACED = { lat: 31.23, lon: 121.47, acc: 10, ts: '2026-11-20T10:00:00+08:00' };

function server() {
  return fakeServer({
    'POST /device/Device/page': () =>
      envelope(page([
        device({ deviceId: 1, deviceName: 'Cold room A logger', position: PLACED, alarmState: 1, temperature: 9.4 }),
        device({ deviceId: 2, deviceName: 'Pharmacy freezer', position: null, temperature: -20.5 }),
      ])),
    'POST /device/Device/markers': () => envelope({
      markers: [{ deviceId: 1, deviceName: 'Cold room A logger', lat: PLACED.lat, lon: PLACED.lon, status: 1, online: 1, alarmState: 1, activatedAt: '2026-01-01T00:00:00+08:00', scrappedAt: null }],
      total: 1, truncated: false,
    }),
  });
}

vi.setConfig({ testTimeout: 20_000 });
beforeAll(setUpI18n);
afterEach(() => session.clear());

describe('the device list modes', () => {
  it('shows a card per device with its live value, state and alarm colour in board mode', async () => {
    server();
    signInWith(ALL_DEVICE_PERMISSIONS);
    renderApp(<DeviceListPage />, '/device/list?mode=board');
    const cards = await screen.findAllByTestId('board-card');
    expect(cards).toHaveLength(2);
    expect(cards[0]?.getAttribute('data-state')).toBe('alarm');
    expect(cards[0]?.className).toContain('jc-board-alarm');
    expect(cards[0]?.textContent).toContain('9.4');
    expect(cards[1]?.textContent).toContain('-20.5');
    expect(screen.queryByTestId('device-table')).toBeNull();
    expect(screen.getByTestId('device-mode-board').getAttribute('aria-pressed')).toBe('true');
  });

  it('draws the map from its own markers call, counting the devices with a one-row page', async () => {
    const api = server();
    signInWith(ALL_DEVICE_PERMISSIONS);
    renderApp(<DeviceListPage />, '/device/list?mode=map&start=3');
    expect((await screen.findByTestId('device-map-summary')).textContent).toContain('1 of 2 devices has a position');
    expect(api.callsTo('POST /device/Device/markers').map((call) => call.body)).toEqual([{ scene: 1 }]);
    const bodies = api.callsTo('POST /device/Device/page').map((call) => call.body as { scene: number; start: number; pageSize: number });
    expect(bodies.filter((body) => body.scene === 1).every((body) => body.start === 1 && body.pageSize === 1)).toBe(true);
    expect(screen.queryByTestId('pager')).toBeNull();
  });

  it('switches mode through the address, keeping the filters', async () => {
    server();
    signInWith(ALL_DEVICE_PERMISSIONS);
    const user = userEvent.setup();
    renderApp(<DeviceListPage />, '/device/list?status=alarm');
    await screen.findAllByTestId('device-row');
    await user.click(screen.getByTestId('device-mode-board'));
    await waitFor(() => expect(screen.getAllByTestId('board-card')).toHaveLength(2));
    expect(within(screen.getByTestId('device-list-page')).queryByTestId('device-row')).toBeNull();
    expect(window.location.search === '' || window.location.search.includes('mode=board')).toBe(true);
  });
});

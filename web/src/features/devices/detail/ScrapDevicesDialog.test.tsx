import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n } from '@/test/harness';
import { session } from '@/lib/session';
import { ALL_DEVICE_PERMISSIONS, device, page, signInWith } from '@/test/devices';
import DeviceListPage from '../DeviceListPage';

function server() {
  return fakeServer({
    'POST /device/Device/page': () => envelope(page([
      device({ isOwner: true }),
      device({ deviceId: 2, deviceName: 'Fridge 2', isOwner: true }),
      device({ deviceId: 3, deviceName: 'Not mine', isOwner: false }),
      device({ deviceId: 4, deviceName: 'Retired logger', isOwner: true, scrappedAt: '2026-11-20T09:00:00+08:00' }),
    ])),
    'POST /device/Device/scrap': () => envelope({ scrapped: 2 }),
  });
}

vi.setConfig({ testTimeout: 20_000 });
beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

describe('scrapping devices from the list', () => {
  it('tags a scrapped device and scraps the selected ones the caller owns, with the reason, once confirmed', async () => {
    const api = server();
    signInWith(ALL_DEVICE_PERMISSIONS);
    const user = userEvent.setup();
    renderApp(<DeviceListPage />, '/device/list');
    const rows = await screen.findAllByTestId('device-row');
    expect(rows.map((row) => row.querySelector('[data-testid="device-state"]')?.getAttribute('data-state'))).toEqual([
      'online', 'online', 'online', 'scrapped']);
    const boxes = screen.getAllByTestId('device-select');
    await user.click(boxes[0] as HTMLElement);
    await user.click(boxes[1] as HTMLElement);
    await user.click(screen.getByTestId('device-scrap-selected'));
    const dialog = await screen.findByTestId('scrap-devices-dialog');
    expect(dialog.textContent).toContain('Scrap these 2 devices?');
    await user.type(screen.getByTestId('scrap-reason'), 'Site closed');
    expect(api.callsTo('POST /device/Device/scrap')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Scrap 2 devices' }));
    await waitFor(() => expect(api.callsTo('POST /device/Device/scrap')).toHaveLength(1));
    expect(api.callsTo('POST /device/Device/scrap')[0]?.body).toEqual({ deviceIds: [1, 2], reason: 'Site closed' });
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import { ALL_DEVICE_PERMISSIONS, device, page, signInWith } from '@/test/devices';
import DeviceListPage from '../DeviceListPage';

const TYPES = [
  { typeId: 1, typeName: 'RCW-360 Wi-Fi Logger', typeCode: '0x8001', seriesName: null, addType: 0, scenes: [1], probes: ['t', 'h'] },
  { typeId: 2, typeName: 'App-only tag', typeCode: '0x8002', seriesName: null, addType: 1, scenes: [1], probes: ['t'] },
];
const CONNECTION = {
  host: 'mqtt.example.com',
  port: 8883,
  tls: true,
  topics: { telemetry: 'devices/{guid}/telemetry', status: 'devices/{guid}/status', commands: 'devices/{guid}/commands', acks: 'devices/{guid}/acks' },
  examplePayload: '{"ts": "2026-05-01T08:00:00+08:00", "t": 4.5}',
};
const NEW = device({ deviceId: 9, deviceName: 'Dock fridge', deviceGuid: 'NEWLOGGER0001', isOwner: true });

function server(insert = () => envelope({ device: { ...NEW, lastSeenAt: null, lastReading: null, probes: [] }, credentials: { username: 'NEWLOGGER0001', password: 'once-only-password-123456' } })) {
  return fakeServer({
    'POST /device/Device/page': () => envelope(page([device({ isOwner: true }), device({ deviceId: 2, deviceName: 'Not mine', isOwner: false })])),
    'GET /device/DeviceType/selectTypeList': () => envelope(TYPES),
    'GET /device/Device/connection': () => envelope(CONNECTION),
    'POST /device/Device/insert': insert,
    'POST /device/Device/batchDelete': () => envelope({ deleted: 1 }),
  });
}

// Typing into several fields of a dialog takes a while on a busy machine.
vi.setConfig({ testTimeout: 20_000 });
beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

async function openAdd() {
  const user = userEvent.setup();
  renderApp(<DeviceListPage />, '/device/list');
  await user.click(await screen.findByTestId('device-add'));
  const form = await screen.findByTestId('device-add-form');
  return { user, form };
}

describe('adding a device', () => {
  it('says what is wrong as the user types, and offers only the types addable here', async () => {
    server();
    signInWith([...ALL_DEVICE_PERMISSIONS, 'device.list:add']);
    const { user, form } = await openAdd();
    await user.type(within(form).getByTestId('add-deviceGuid'), 'ab-1');
    expect(await within(form).findByText('A GUID is 8 to 32 letters and digits')).toBeTruthy();
    await user.type(within(form).getByTestId('add-remark'), 'x'.repeat(121));
    expect(await within(form).findByText('A remark has at most 120 characters')).toBeTruthy();
    const options = within(within(form).getByTestId('add-typeId')).getAllByRole('option').map((o) => o.textContent);
    await waitFor(() => expect(within(within(form).getByTestId('add-typeId')).getAllByRole('option')).toHaveLength(2));
    expect(options.join()).not.toContain('App-only');
  });

  it('adds by GUID and shows the login once with the connection settings', async () => {
    const api = server();
    signInWith([...ALL_DEVICE_PERMISSIONS, 'device.list:add']);
    const { user, form } = await openAdd();
    await user.type(within(form).getByTestId('add-deviceGuid'), 'NEWLOGGER0001');
    await user.type(within(form).getByTestId('add-deviceName'), 'Dock fridge');
    await waitFor(() => expect(within(form).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(within(form).getByTestId('add-typeId'), '1');
    await user.click(within(form).getByTestId('add-submit'));
    expect(((await screen.findByTestId('login-password')) as HTMLInputElement).value).toBe('once-only-password-123456');
    expect(api.callsTo('POST /device/Device/insert').map((call) => call.body)).toEqual([{ deviceGuid: 'NEWLOGGER0001', deviceName: 'Dock fridge', typeId: 1 }]);
    expect(screen.getByTestId('login-once-warning').textContent).toContain('shown only this once');
    const settings = await screen.findByTestId('login-connection');
    expect(settings.textContent).toContain('mqtt.example.com');
    expect(settings.textContent).toContain('devices/NEWLOGGER0001/telemetry');
    expect(settings.textContent).toContain('devices/NEWLOGGER0001/commands');
    await user.click(screen.getByTestId('login-done'));
    await waitFor(() => expect(screen.queryByTestId('login-password')).toBeNull());
  });

  it('puts "already added" under the GUID', async () => {
    server(() => envelope(null, 1012, 409, 'This device has already been added'));
    signInWith([...ALL_DEVICE_PERMISSIONS, 'device.list:add']);
    const { user, form } = await openAdd();
    await user.type(within(form).getByTestId('add-deviceGuid'), 'NEWLOGGER0001');
    await user.type(within(form).getByTestId('add-deviceName'), 'Dock fridge');
    await waitFor(() => expect(within(form).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(within(form).getByTestId('add-typeId'), '1');
    await user.click(within(form).getByTestId('add-submit'));
    expect(await within(form).findByText('This device has already been added')).toBeTruthy();
    expect(screen.queryByTestId('login-password')).toBeNull();
  });

  it('has no add button without the permission', async () => {
    server();
    signIn(accountInfo({}, { permissionRoutes: ['home', 'device.list'] }), ALL_DEVICE_PERMISSIONS);
    renderApp(<DeviceListPage />, '/device/list');
    await screen.findAllByTestId('device-row');
    expect(screen.queryByTestId('device-add')).toBeNull();
  });
});

describe('deleting devices', () => {
  it('deletes the selected devices the caller owns after a confirmation', async () => {
    const api = server();
    signInWith([...ALL_DEVICE_PERMISSIONS, 'device.list:delete']);
    const user = userEvent.setup();
    renderApp(<DeviceListPage />, '/device/list');
    const boxes = await screen.findAllByTestId('device-select');
    // Not the caller's: only its owner deletes it, though it may be ticked for a batch recharge.
    const other = boxes[1] as HTMLInputElement;
    if (!other.disabled) await user.click(other);
    await user.click(screen.getAllByTestId('device-select')[0] as HTMLElement);
    expect(screen.getByTestId('device-delete-selected').textContent).toContain('1');
    await user.click(screen.getByTestId('device-delete-selected'));
    const dialog = await screen.findByTestId('delete-devices-dialog');
    expect(dialog.textContent).toContain('Cold room A logger');
    expect(api.callsTo('POST /device/Device/batchDelete')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Delete device' }));
    await waitFor(() => expect(api.callsTo('POST /device/Device/batchDelete')).toHaveLength(1));
    expect(api.callsTo('POST /device/Device/batchDelete').map((call) => call.body)).toEqual([{ deviceIds: [1] }]);
  });
});

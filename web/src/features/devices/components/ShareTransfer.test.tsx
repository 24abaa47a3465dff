import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n, type Routes } from '@/test/harness';
import { ALL_DEVICE_PERMISSIONS, device, page, signInWith } from '@/test/devices';
import { everyElement } from '@/lib/access';
import type { Device } from '@/lib/api/devices';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import DeviceListPage from '../DeviceListPage';
import { shareFormSchema } from './ShareDevicesDialog';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const PERMISSIONS = [...ALL_DEVICE_PERMISSIONS, 'device.list:delete', 'consumer.sharer'];
const TEMPLATES = [
  { id: 1, name: 'View only', builtIn: true, permissions: everyElement(false), shares: 0 },
  { id: 2, name: 'Full control', builtIn: true, permissions: everyElement(true), shares: 0 },
];
const ROOM_B = device({ deviceId: 2, deviceName: 'Cold room B logger', deviceGuid: 'RCW360A0000002' });
const SHARED = device({ deviceId: 5, deviceName: 'Alice\'s freezer', ownerName: 'alice', ownerId: 3, isOwner: false, access: 1,
  sharedWithMe: true, permissions: everyElement(false) });

function server(devices: Device[], extra: Routes = {}) {
  return fakeServer({
    'POST /device/Device/page': () => envelope(page(devices)),
    'POST /device/DevicePermissionModel/list': () => envelope({ list: TEMPLATES }),
    ...extra,
  });
}

async function tickAll(user: ReturnType<typeof userEvent.setup>) {
  for (const box of await screen.findAllByTestId('device-select')) {
    if (!(box as HTMLInputElement).disabled) await user.click(box);
  }
}

describe('sharing from the device list', () => {
  it('checks the person named and the end time as the server does', () => {
    const schema = shareFormSchema(i18n.t.bind(i18n) as never);
    const ok = (account: string, endTime = '') => schema.safeParse({ account, templateId: '1', endTime }).success;
    expect(ok('bob')).toBe(true);
    expect(ok(' b ')).toBe(false);
    expect(ok('x'.repeat(20))).toBe(true);
    expect(ok('x'.repeat(21))).toBe(false);
    expect(ok('bob', '2020-01-01T10:00')).toBe(false);
    expect(ok('bob', '2999-01-01T10:00')).toBe(true);
  });

  it('shows who shared a device, and offers to share only the devices the caller owns', async () => {
    // an organization's administrator changes the organization's devices but does not give them away
    const administered = device({ deviceId: 8, deviceName: 'Warehouse 1 door logger', ownerName: 'acme', isOwner: false, access: 2,
      organizationName: 'Acme Cold Chain' });
    server([device(), SHARED, administered]);
    const user = userEvent.setup();
    signInWith(PERMISSIONS);
    renderApp(<DeviceListPage />, '/device/list');
    const [own, shared, admin] = await screen.findAllByTestId('device-row');
    await user.click(within(admin!).getByTestId('device-select'));
    expect(screen.queryByTestId('device-share-selected')).toBeNull();
    expect(screen.queryByTestId('device-transfer-selected')).toBeNull();
    expect(within(shared!).getByTestId('shared-by')).toHaveTextContent('Shared by alice');
    expect(within(shared!).getByTestId('device-select')).toBeDisabled();
    expect(within(own!).queryByTestId('shared-by')).toBeNull();
    await user.click(within(own!).getByTestId('device-select'));
    expect(screen.getByTestId('device-share-selected')).toHaveTextContent('Share (1)');
  });

  it('shares the ticked devices with a person under a template, and says so', async () => {
    const api = server([device(), ROOM_B], {
      'POST /device/Device/share': () => envelope({ shared: 2, account: { id: 8, userName: 'bob' } }),
    });
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    signInWith(PERMISSIONS);
    renderApp(<DeviceListPage />, '/device/list');
    await tickAll(user);
    await user.click(screen.getByTestId('device-share-selected'));
    const dialog = await screen.findByTestId('share-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('share-template')).toHaveValue('1'));
    expect(within(dialog).getByTestId('share-manage-templates')).toHaveAttribute('href', '/consumer/sharer?tab=templates');
    await user.type(within(dialog).getByTestId('share-account'), 'b');
    expect(await within(dialog).findByText('Between 2 and 20 characters')).toBeInTheDocument();
    await user.click(within(dialog).getByTestId('share-confirm'));
    expect(api.callsTo('POST /device/Device/share')).toEqual([]);
    await user.type(within(dialog).getByTestId('share-account'), 'ob');
    await user.selectOptions(within(dialog).getByTestId('share-template'), 'Full control');
    await user.click(within(dialog).getByTestId('share-end-30'));
    await user.click(within(dialog).getByTestId('share-end-never'));
    await user.click(within(dialog).getByTestId('share-confirm'));
    await waitFor(() => expect(api.callsTo('POST /device/Device/share')).toHaveLength(1));
    expect(api.callsTo('POST /device/Device/share')[0]?.body).toEqual({ deviceIds: [1, 2], account: 'bob', templateId: 2, endTime: null });
    expect(success).toHaveBeenCalledWith('Shared 2 devices with bob');
    await waitFor(() => expect(screen.queryByTestId('share-dialog')).toBeNull());
  });

  it('keeps the dialog open with the server\'s word when there is no such person', async () => {
    server([device()], {
      'POST /device/Device/share': () => envelope(null, 404, 404, 'There is no user of that name, phone or e-mail'),
    });
    const user = userEvent.setup();
    signInWith(PERMISSIONS);
    renderApp(<DeviceListPage />, '/device/list');
    await tickAll(user);
    await user.click(screen.getByTestId('device-share-selected'));
    const dialog = await screen.findByTestId('share-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('share-template')).toHaveValue('1'));
    await user.type(within(dialog).getByTestId('share-account'), 'nobody');
    await user.click(within(dialog).getByTestId('share-end-7'));
    await user.click(within(dialog).getByTestId('share-confirm'));
    expect(await within(dialog).findByTestId('share-error')).toHaveTextContent('There is no user of that name, phone or e-mail');
  });
});

describe('transferring from the device list', () => {
  it('shows what the transfer drops and sends it only once understood', async () => {
    let devices = [device(), ROOM_B];
    const api = server(devices, {
      'POST /device/Device/page': () => envelope(page(devices)),
      'POST /device/Device/transferPreview': () => envelope({ devices: 2, shares: 3, projects: 1, organizations: 0 }),
      'POST /device/Device/transfer': () => {
        devices = [];
        return envelope({ transferred: 2, sharesDropped: 3, account: { id: 9, userName: 'acme' } });
      },
    });
    const user = userEvent.setup();
    signInWith(PERMISSIONS);
    renderApp(<DeviceListPage />, '/device/list');
    await tickAll(user);
    await user.click(screen.getByTestId('device-transfer-selected'));
    const dialog = await screen.findByTestId('transfer-dialog');
    expect(await within(dialog).findByTestId('transfer-shares')).toHaveTextContent('3 shares of them will be dropped');
    expect(within(dialog).getByTestId('transfer-preview')).toHaveTextContent('You lose access to them at once');
    expect(api.callsTo('POST /device/Device/transferPreview')[0]?.body).toEqual({ deviceIds: [1, 2] });
    const confirm = within(dialog).getByTestId('transfer-confirm');
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByTestId('transfer-account'), 'acme');
    expect(confirm).toBeDisabled();
    await user.click(within(dialog).getByTestId('transfer-understand'));
    await user.click(confirm);
    await waitFor(() => expect(api.callsTo('POST /device/Device/transfer')[0]?.body).toEqual({ deviceIds: [1, 2], account: 'acme' }));
    expect(await screen.findByTestId('device-list-empty')).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, renderRoute, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import { device, page as devices } from '@/test/devices';
import type { AssetDetail } from './api/assets';
import AssetsPage from './AssetsPage';
import AssetDetailPage from './AssetDetailPage';
import { assetFormSchema } from './assetForm';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const PERMITTED = ['home', 'device.list', 'asset.list', 'asset.list:add', 'asset.list:edit', 'asset.list:delete',
  'asset.list:enable', 'asset.list:disable'];
const page = <T,>(rows: T[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });
const FRIDGE = { deviceId: 3, deviceName: 'Vaccine fridge logger', deviceGuid: 'RCW360A0000003', deviceTypeName: 'RCW-360',
  online: true, alarming: false, enabled: true };

function asset(change: Partial<AssetDetail> = {}): AssetDetail {
  return { id: 7, assetName: 'Pharmacy vaccine store', assetType: 'Vaccine refrigerator', assetNumber: 'PH-001',
    brand: 'Haier', model: 'HYC-290', volume: '290 L', customs: [{ key: 'Location', value: 'Back room' }],
    remark: null, enabled: true, createdAt: '2026-11-01T08:00:00+08:00', deviceCount: 1, devices: [FRIDGE],
    organizationId: null, organizationName: null, changeable: true, ...change };
}

const blank = { assetName: 'Fridge', assetType: '', assetNumber: '', brand: '', model: '', volume: '',
  customs: [] as { key: string; value: string }[], remark: '' };

describe('assets', () => {
  it('checks the form as the server does', () => {
    const schema = assetFormSchema(i18n.t.bind(i18n) as never);
    const ok = (change: Partial<typeof blank>) => schema.safeParse({ ...blank, ...change }).success;
    expect(ok({})).toBe(true);
    expect(ok({ assetName: 'x'.repeat(100), volume: '2-8 °C', assetNumber: '№ 2' })).toBe(true);
    expect(ok({ assetName: '  ' })).toBe(false);
    expect(ok({ assetName: 'x'.repeat(101) })).toBe(false);
    expect(ok({ assetName: 'Ice 🧊' })).toBe(false);
    expect(ok({ brand: 'b'.repeat(51) })).toBe(false);
    expect(ok({ remark: 'r'.repeat(201) })).toBe(false);
    expect(ok({ customs: [{ key: 'Door', value: '1' }, { key: 'door ', value: '2' }] })).toBe(false);
    expect(ok({ customs: [{ key: '', value: '1' }] })).toBe(false);
    expect(ok({ customs: Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, value: '' })) })).toBe(false);
  });

  it('makes an asset with a custom attribute, showing the server\'s refusal under its field, then opens it', async () => {
    let rows: AssetDetail[] = [];
    const server = fakeServer({
      'POST /device/Asset/page': () => page(rows),
      'POST /device/Asset/insert': (call) => {
        const body = call.body as { assetName: string; customs: { key: string; value: string }[] };
        if (body.assetName === 'Refused') {
          return envelope(null, 422, 422, 'Invalid input', { assetNumber: ['At most 50 characters'] });
        }
        rows = [asset({ id: 9, assetName: body.assetName, customs: body.customs, deviceCount: 0, devices: [] })];
        return envelope(rows[0]);
      },
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<AssetsPage />, '/asset/list');
    expect(await screen.findByText('No assets yet')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('asset-add'));
    await user.type(screen.getByTestId('asset-assetName'), 'Refused');
    await user.click(screen.getByTestId('asset-save'));
    expect(await screen.findByText('At most 50 characters')).toBeInTheDocument();
    await user.clear(screen.getByTestId('asset-assetName'));
    await user.type(screen.getByTestId('asset-assetName'), ' Fridge 2 ');
    await user.click(screen.getByTestId('asset-custom-add'));
    await user.type(screen.getByTestId('asset-custom-key'), 'Shelves');
    await user.type(screen.getByTestId('asset-custom-value'), '4');
    await user.click(screen.getByTestId('asset-custom-add'));
    await user.click(screen.getAllByTestId('asset-custom-remove')[1]!);
    await user.click(screen.getByTestId('asset-save'));
    await waitFor(() => expect(server.callsTo('POST /device/Asset/insert')).toHaveLength(2));
    expect(server.callsTo('POST /device/Asset/insert')[1]?.body).toEqual({
      assetName: 'Fridge 2', assetType: null, assetNumber: null, brand: null, model: null, volume: null,
      customs: [{ key: 'Shelves', value: '4' }], remark: null, organizationId: null,
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/asset/detail/9'));
  });

  it('switches an asset off from the list and deletes one after confirming', async () => {
    let rows = [asset()];
    const server = fakeServer({
      'POST /device/Asset/page': () => page(rows),
      'PUT /device/Asset/disable': () => {
        rows = [asset({ enabled: false, devices: [{ ...FRIDGE, enabled: false }] })];
        return envelope(rows[0]);
      },
      'DELETE /device/Asset/delete': () => {
        rows = [];
        return envelope({ released: 1 });
      },
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<AssetsPage />, '/asset/list');
    const row = await screen.findByTestId('asset-row');
    expect(row).toHaveTextContent('1 of 5 devices');
    const user = userEvent.setup();
    await user.click(within(row).getByTestId('asset-state'));
    await waitFor(() => expect(server.callsTo('PUT /device/Asset/disable')).toHaveLength(1));
    expect(server.callsTo('PUT /device/Asset/disable')[0]?.body).toEqual({ id: 7 });
    expect(await within(await screen.findByTestId('asset-row')).findByText('Disabled')).toBeInTheDocument();
    await user.click(within(screen.getByTestId('asset-row')).getByTestId('asset-delete'));
    expect(await screen.findByTestId('asset-delete-confirm')).toHaveTextContent('Delete the asset Pharmacy vaccine store?');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No assets yet')).toBeInTheDocument();
    expect(server.callsTo('DELETE /device/Asset/delete')).toHaveLength(1);
  });

  it('shows an organization\'s asset read-only to a read-only member: tagged, no edit, delete or switch', async () => {
    const theirs = asset({ organizationId: 5, organizationName: 'Acme Cold Chain', changeable: false });
    const server = fakeServer({ 'POST /device/Asset/page': () => page([theirs]) });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<AssetsPage />, '/asset/list');
    const row = await screen.findByTestId('asset-row');
    expect(within(row).getByTestId('asset-organization')).toHaveTextContent('Acme Cold Chain');
    expect(within(row).getByTestId('asset-read-only')).toHaveTextContent('Read only');
    expect(within(row).queryByTestId('asset-edit')).toBeNull();
    expect(within(row).queryByTestId('asset-delete')).toBeNull();
    expect(within(row).getByTestId('asset-state')).toBeDisabled();
    expect(server.callsTo('PUT /device/Asset/disable')).toHaveLength(0);
  });

  it('shows an asset\'s devices, unbinds one, and says the server\'s limit when binding', async () => {
    let current = asset();
    const server = fakeServer({
      'GET /device/Asset/get': () => envelope(current),
      'POST /device/Asset/unbindDevice': () => {
        current = asset({ deviceCount: 0, devices: [] });
        return envelope(current);
      },
      'POST /device/Asset/bindDevice': () => envelope(null, 1821, 409, 'Asset limit of five devices'),
      'POST /device/Device/page': () => envelope(devices([device({ deviceId: 11, deviceName: 'Dock cold room' })])),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderRoute(<AssetDetailPage />, '/asset/detail/:id', '/asset/detail/7');
    expect(await screen.findByTestId('asset-title')).toHaveTextContent('Pharmacy vaccine store');
    expect(screen.getByTestId('asset-customs-list')).toHaveTextContent('Back room');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('asset-unbind'));
    await waitFor(() => expect(server.callsTo('POST /device/Asset/unbindDevice')[0]?.body).toEqual({ id: 7, deviceIds: [3] }));
    expect(await screen.findByText('No devices bound')).toBeInTheDocument();
    await user.click(screen.getByTestId('asset-bind'));
    await user.click(await within(await screen.findByTestId('asset-picker-list')).findByText('Dock cold room'));
    await user.click(screen.getByTestId('asset-bind-save'));
    expect(await screen.findByTestId('asset-bind-error')).toHaveTextContent('Asset limit of five devices');
  });
});

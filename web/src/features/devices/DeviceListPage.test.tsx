import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n, type Call, type Routes } from '@/test/harness';
import { session } from '@/lib/session';
import type { DeviceQuery } from '@/lib/api/devices';
import DeviceListPage from './DeviceListPage';
import { device, page, signInWith } from '@/test/devices';

const FRIDGE = device({
  deviceId: 3,
  deviceName: 'Vaccine fridge logger',
  deviceGuid: 'RCW360A0000003',
  online: 0,
  serviceExpiredDate: '2020-01-01',
  vipInfo: { state: 2 },
  temperatureUnit: 'F',
  temperature: 5,
  humidity: 45,
});
const ROOM = device();
const READ_ONLY_REASON = 'Read-only: you are a member of the organization that owns this device';

/** Answers the list from the body: the scene-1 devices, one in each other tab. */
function server(list = [FRIDGE, ROOM], more: Routes = {}) {
  return fakeServer({
    ...more,
    'POST /device/Device/page': (call: Call) => {
      const body = call.body as DeviceQuery;
      if (body.scene !== 1) return envelope(page([], 1, 1, body.pageSize));
      const named = list.filter((d) => !body.deviceName || d.deviceName.toLowerCase().includes(body.deviceName.toLowerCase()));
      return envelope(page(named, body.pageSize === 1 || named.length === 0 ? named.length : named.length + 20, body.start, body.pageSize));
    },
  });
}

/** The requests for the table itself (the tab counts ask for one-row pages). */
const tableCalls = (api: ReturnType<typeof server>) =>
  api.callsTo('POST /device/Device/page').map((c) => c.body as DeviceQuery).filter((b) => b.pageSize !== 1);

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

describe('DeviceListPage', () => {
  it('lists the tab\'s devices with their state, latest reading, level and expiry', async () => {
    const api = server();
    signInWith();
    renderApp(<DeviceListPage />, '/device/list');
    const rows = await screen.findAllByTestId('device-row');
    expect(rows).toHaveLength(2);
    const fridge = rows[0]!;
    expect(within(fridge).getByTestId('device-state')).toHaveTextContent('Offline');
    expect(fridge).toHaveTextContent('41.0 °F'); // 5 °C in the device's unit
    expect(fridge).toHaveTextContent('45.0 %RH');
    expect(within(fridge).getByTestId('service-state')).toHaveAttribute('data-state', 'expired');
    expect(within(rows[1]!).getByTestId('service-state')).toHaveTextContent('Lifelong');
    expect(tableCalls(api)[0]).toEqual({ scene: 1, start: 1, pageSize: 10 });
  });

  it('draws the map from the markers of the list\'s filters and says when it leaves some out', async () => {
    const api = server([FRIDGE, ROOM], {
      'POST /device/Device/markers': () => envelope({
        markers: [{ deviceId: 1, deviceName: 'Cold room A logger', lat: 31.2, lon: 121.5, status: 1, online: 1, alarmState: 0, activatedAt: '2026-01-01T00:00:00+08:00', scrappedAt: null }],
        total: 2, truncated: true,
      }),
    });
    signInWith();
    renderApp(<DeviceListPage />, '/device/list?mode=map&status=online');
    expect(await screen.findByTestId('device-map-summary')).toHaveTextContent(
      '2 of 2 devices have a position (the map shows the first 1; narrow the filters to see the rest)');
    expect(api.callsTo('POST /device/Device/markers').map((c) => c.body)).toEqual([{ scene: 1, online: 1 }]);
    expect(tableCalls(api)).toEqual([]); // the page only counts
  });

  it('offers no recharge of a scrapped device until it is restored, and says why', async () => {
    server([device({ deviceId: 9, deviceName: 'Retired logger', scrappedAt: '2026-11-01T08:00:00+08:00' }), ROOM]);
    signInWith();
    renderApp(<DeviceListPage />, '/device/list');
    const [scrapped, own] = await screen.findAllByTestId('device-row');
    const recharge = within(scrapped!).getByTestId('device-recharge');
    expect(recharge).toHaveAttribute('aria-disabled', 'true');
    expect(recharge.parentElement).toHaveAttribute('title', 'Scrapped: restore it to recharge it');
    expect(within(own!).getByTestId('device-recharge')).toHaveAttribute('href', '/consumer/recharge?deviceIds=1');
  });

  it('links each device to its detail page and to the recharge screen', async () => {
    server();
    signInWith();
    renderApp(<DeviceListPage />, '/device/list');
    const row = (await screen.findAllByTestId('device-row'))[1]!;
    expect(within(row).getByRole('link', { name: 'Cold room A logger' })).toHaveAttribute('href', '/device/detail/1');
    expect(within(row).getByTestId('device-recharge')).toHaveAttribute('href', '/consumer/recharge?deviceIds=1');
  });

  it('offers no recharge of a device the caller may only read, and says why', async () => {
    const warehouse = device({
      deviceId: 8,
      deviceName: 'Warehouse 1 door logger',
      ownerName: 'acme',
      isOwner: false,
      organizationName: 'Acme Cold Chain',
      access: 1,
      agreementStatus: 1,
    });
    server([warehouse, ROOM]);
    const user = userEvent.setup();
    signInWith();
    renderApp(<DeviceListPage />, '/device/list');
    const [readOnly, own] = await screen.findAllByTestId('device-row');
    const recharge = within(readOnly!).getByTestId('device-recharge');
    expect(recharge).toHaveAttribute('aria-disabled', 'true');
    expect(recharge).not.toHaveAttribute('href');
    const tag = within(readOnly!).getByTestId('read-only');
    expect(tag).toHaveTextContent('Read-only');
    expect(tag).toHaveAccessibleName(READ_ONLY_REASON);
    await user.hover(recharge);
    expect((await screen.findByText(READ_ONLY_REASON)).closest('.bp6-tooltip')).not.toBeNull();
    // its detail still opens: reading is what the caller may do
    expect(within(readOnly!).getByRole('link', { name: 'Warehouse 1 door logger' })).toHaveAttribute('href', '/device/detail/8');
    expect(within(own!).getByTestId('device-recharge')).toHaveAttribute('href', '/consumer/recharge?deviceIds=1');
    expect(within(own!).queryByTestId('read-only')).toBeNull();
  });

  it('shows a read-only device\'s auto-renewal without offering to cancel it', async () => {
    const warehouse = device({ deviceId: 8, deviceName: 'Warehouse 1 cold room', access: 1, agreementStatus: 1 });
    const api = fakeServer({
      'POST /device/Device/page': (call: Call) => {
        const body = call.body as DeviceQuery;
        return envelope(page(body.scene === 1 ? [warehouse] : [], body.scene === 1 ? 1 : 0, 1, body.pageSize));
      },
      'GET /payment/PayOrder/selectCurrentService': () =>
        envelope({ deviceId: 8, levelName: 'Pro', totalFee: 39_900, currency: 'CNY', nextExecutionTime: '2027-03-02T00:00:00+08:00' }),
    });
    const user = userEvent.setup();
    signInWith();
    renderApp(<DeviceListPage />, '/device/list');
    await user.click(await screen.findByTestId('auto-renew-tag'));
    expect(await screen.findByTestId('current-service')).toHaveTextContent('Pro');
    const cancel = screen.getByTestId('cancel-auto-renew');
    expect(cancel).toHaveAttribute('aria-disabled', 'true');
    await user.click(cancel);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.callsTo('GET /payment/PayOrder/unAgreement')).toHaveLength(0);
  });

  it('hides what the account may not open', async () => {
    server();
    signInWith(['home', 'device.list']);
    renderApp(<DeviceListPage />, '/device/list');
    const row = (await screen.findAllByTestId('device-row'))[0]!;
    expect(within(row).queryByRole('link')).toBeNull();
    expect(within(row).queryByTestId('device-recharge')).toBeNull();
  });

  it('searches by name, sent as deviceName, and keeps it in the address', async () => {
    const api = server();
    const user = userEvent.setup();
    signInWith();
    renderApp(<DeviceListPage />, '/device/list');
    await screen.findAllByTestId('device-row');
    await user.type(screen.getByTestId('device-search'), '  fridge ');
    await user.click(screen.getByTestId('device-search-submit'));
    await waitFor(() => expect(screen.getAllByTestId('device-row')).toHaveLength(1));
    expect(tableCalls(api).at(-1)).toEqual({ scene: 1, start: 1, pageSize: 10, deviceName: 'fridge' });
    expect(screen.getByTestId('location')).toHaveTextContent('/device/list?deviceName=fridge');
  });

  it('opens filtered by the address, as the expired dialog links it', async () => {
    const api = server();
    signInWith();
    renderApp(<DeviceListPage />, '/device/list?deviceName=Vaccine%20fridge%20logger&status=offline&service=expired');
    await screen.findAllByTestId('device-row');
    expect(screen.getByTestId('device-search')).toHaveValue('Vaccine fridge logger');
    expect(tableCalls(api)[0]).toEqual({
      scene: 1,
      start: 1,
      pageSize: 10,
      deviceName: 'Vaccine fridge logger',
      online: 0,
      vipState: 2,
    });
  });

  it('filters by status and service, each time from page 1', async () => {
    const api = server();
    const user = userEvent.setup();
    signInWith();
    renderApp(<DeviceListPage />, '/device/list?start=2');
    await screen.findAllByTestId('device-row');
    await user.selectOptions(screen.getByTestId('device-status-filter'), 'alarm');
    await waitFor(() => expect(tableCalls(api).at(-1)).toEqual({ scene: 1, start: 1, pageSize: 10, alarm: 1 }));
    await user.selectOptions(screen.getByTestId('device-service-filter'), 'expiring');
    await waitFor(() => expect(tableCalls(api).at(-1)).toEqual({ scene: 1, start: 1, pageSize: 10, alarm: 1, vipState: 1 }));
  });

  it('pages with the pager and changes the page size', async () => {
    const api = server();
    const user = userEvent.setup();
    signInWith();
    renderApp(<DeviceListPage />, '/device/list');
    await screen.findAllByTestId('device-row');
    expect(screen.getByText('22 in total')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(tableCalls(api).at(-1)).toMatchObject({ start: 2, pageSize: 10 }));
    await user.selectOptions(screen.getByLabelText('Rows per page'), '20');
    await waitFor(() => expect(tableCalls(api).at(-1)).toMatchObject({ start: 1, pageSize: 20 }));
  });

  it('counts each tab\'s matches and switches tabs by route, keeping the search', async () => {
    const api = server();
    const user = userEvent.setup();
    signInWith();
    renderApp(<DeviceListPage />, '/device/list?deviceName=fridge');
    await screen.findAllByTestId('device-row');
    const freezers = screen.getByRole('tab', { name: /Smart freezers/ });
    await waitFor(() => expect(freezers).toHaveTextContent('Smart freezers1'));
    const counts = api.callsTo('POST /device/Device/page').map((c) => c.body as DeviceQuery).filter((b) => b.pageSize === 1);
    expect(counts.map((b) => [b.scene, b.deviceName])).toEqual([[2, 'fridge'], [3, 'fridge']]);
    await user.click(freezers);
    expect(screen.getByTestId('location')).toHaveTextContent('/device/list/freezer?deviceName=fridge');
  });

  it('says when nothing matches', async () => {
    server([]);
    signInWith();
    renderApp(<DeviceListPage />, '/device/list');
    expect(await screen.findByTestId('device-list-empty')).toHaveTextContent('No devices found');
  });

  it('tags a device that renews itself; cancelling auto-renew there drops the tag', async () => {
    let renewing = true;
    const freezer = () => device({ deviceId: 5, deviceName: 'Pharmacy freezer', agreementStatus: renewing ? 1 : 0 });
    const api = fakeServer({
      'POST /device/Device/page': (call: Call) => {
        const body = call.body as DeviceQuery;
        return envelope(page(body.scene === 1 ? [freezer(), ROOM] : [], body.scene === 1 ? 2 : 0, 1, body.pageSize));
      },
      'GET /payment/PayOrder/selectCurrentService': () =>
        envelope(renewing ? { deviceId: 5, levelName: 'Pro', totalFee: 39_900, currency: 'CNY', nextExecutionTime: '2027-03-02T00:00:00+08:00' } : null),
      'GET /payment/PayOrder/unAgreement': () => {
        renewing = false;
        return envelope(null);
      },
    });
    const user = userEvent.setup();
    signInWith();
    renderApp(<DeviceListPage />, '/device/list');
    const [row, other] = await screen.findAllByTestId('device-row');
    expect(within(other!).queryByTestId('auto-renew-tag')).toBeNull();
    await user.click(within(row!).getByTestId('auto-renew-tag'));
    const service = await screen.findByTestId('current-service');
    expect(service).toHaveTextContent('Pro');
    expect(service).toHaveTextContent('¥399');
    await user.click(screen.getByRole('button', { name: 'Cancel auto-renew' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel auto-renew' }));
    await waitFor(() => expect(api.callsTo('GET /payment/PayOrder/unAgreement')).toHaveLength(1));
    expect(api.callsTo('GET /payment/PayOrder/unAgreement')[0]!.params.get('deviceId')).toBe('5');
    await screen.findByText('Automatic renewal cancelled');
    await waitFor(() => expect(screen.queryByTestId('current-service')).toBeNull());
    await waitFor(() => expect(within(screen.getAllByTestId('device-row')[0]!).queryByTestId('auto-renew-tag')).toBeNull());
  });

  it('moves selected devices into a project and filters by project, for whoever has projects', async () => {
    const projects = { start: 1, pageSize: 200, totalCount: 1, data: [{ id: 4, projectName: 'Warehouse 1', remark: null,
      createdAt: '2026-11-01T08:00:00+08:00', deviceCount: 0, onlineCount: 0, alarmCount: 0, organizationId: null, organizationName: null, changeable: true }] };
    const api = server([FRIDGE, device({ ...ROOM, projectId: 4, projectName: 'Warehouse 1' })], {
      'POST /device/Project/page': () => envelope(projects),
      'POST /device/Device/changeProject': () => envelope({ moved: 1 }),
    });
    const user = userEvent.setup();
    signInWith(['home', 'device.list', 'device.detail', 'project.list', 'project.list:edit']);
    renderApp(<DeviceListPage />, '/device/list');
    const rows = await screen.findAllByTestId('device-row');
    expect(within(rows[1]!).getByTestId('device-project')).toHaveTextContent('Warehouse 1');
    await user.click(within(rows[0]!).getByTestId('device-select'));
    await user.click(screen.getByTestId('device-move-selected'));
    const dialog = await screen.findByTestId('move-project-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('move-project-target')).toHaveValue('4'));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Move device' }));
    await waitFor(() => expect(api.callsTo('POST /device/Device/changeProject')).toHaveLength(1));
    expect(api.callsTo('POST /device/Device/changeProject')[0]?.body).toEqual({ deviceIds: [3], projectId: 4 });
    await user.selectOptions(screen.getByTestId('device-project-filter'), '0');
    await waitFor(() => expect(tableCalls(api).at(-1)).toEqual({ scene: 1, start: 1, pageSize: 10, projectId: 0 }));
    expect(screen.getByTestId('location')).toHaveTextContent('/device/list?project=0');
  });

  it('finds the projects to filter on by name on the server, and names a chosen one it did not find', async () => {
    const project = (id: number, projectName: string) => ({ id, projectName, remark: null, createdAt: '2026-11-01T08:00:00+08:00',
      deviceCount: 0, onlineCount: 0, alarmCount: 0, organizationId: null, organizationName: null, changeable: true });
    const api = server([FRIDGE], {
      'POST /device/Project/page': (call) => {
        const name = (call.body as { projectName?: string }).projectName;
        const data = name ? [project(250, 'Dock 250')] : [project(4, 'Warehouse 1')];
        return envelope({ start: 1, pageSize: 50, totalCount: data.length, data });
      },
      'GET /device/Project/get': () => envelope(project(7, 'Truck 7')),
    });
    signInWith(['home', 'device.list', 'device.detail', 'project.list']);
    renderApp(<DeviceListPage />, '/device/list?project=7');
    const filter = await screen.findByTestId('device-project-filter');
    await waitFor(() => expect(within(filter).getByRole('option', { name: 'Truck 7' })).toBeInTheDocument());
    expect(filter).toHaveValue('7');
    const user = userEvent.setup();
    await user.type(screen.getByTestId('device-project-search'), 'dock');
    await waitFor(() => expect(within(filter).getByRole('option', { name: 'Dock 250' })).toBeInTheDocument());
    expect(api.callsTo('POST /device/Project/page').map((c) => (c.body as { projectName?: string }).projectName))
      .not.toContain('d');  // debounced: not a call per key
    await user.selectOptions(filter, '250');
    await waitFor(() => expect(tableCalls(api).at(-1)).toEqual({ scene: 1, start: 1, pageSize: 10, projectId: 250 }));
  });

  it('offers neither the project filter nor the move without projects', async () => {
    server();
    signInWith();
    renderApp(<DeviceListPage />, '/device/list');
    await screen.findAllByTestId('device-row');
    expect(screen.queryByTestId('device-project-filter')).toBeNull();
    expect(screen.queryByTestId('device-move-selected')).toBeNull();
  });
});

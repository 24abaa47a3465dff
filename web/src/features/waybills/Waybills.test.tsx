import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, renderRoute, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import { device, page as devices } from '@/test/devices';
import type { OwnerTrip, ShareLink, WaybillDetail } from './api/waybills';
import { ShareDialog } from './components/ShareDialog';
import { tripChartOption } from '@/components/chart/tripChart';
import { TripReport } from './components/TripReport';
import { WaybillDrawer } from './components/WaybillDrawer';
import WaybillDetailPage from './WaybillDetailPage';
import { toFields, toForm, waybillFormSchema, type WaybillForm } from './waybillForm';
import WaybillsPage from './WaybillsPage';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const PERMITTED = ['home', 'device.list', 'waybill.list', 'waybill.list:add', 'waybill.list:edit', 'waybill.list:delete',
  'waybill.list:detail', 'waybill.list:export'];
const page = <T,>(rows: T[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });

const fence = (id: number, name: string) => ({ id, name, areas: [], createdAt: '2026-10-01T08:00:00+08:00', deviceCount: 1,
  organizationId: null, organizationName: null, changeable: true });
const FENCES = [fence(7, 'Shanghai depot'), fence(9, 'Hangzhou clinic')];

function waybill(change: Partial<WaybillDetail> = {}): WaybillDetail {
  return {
    id: 4, orderNum: 'WB-001', goodsName: 'Vaccines', expressNumber: null, coolerCode: null, upperLimit: 8, lowerLimit: 2,
    senderName: null, senderPhone: null, senderAddress: null, receiverName: null, receiverPhone: null, receiverAddress: null,
    alarmContacts: [], startTime: null, stopTime: null, originFenceId: null, destinationFenceId: null, state: 1,
    startedAt: '2026-11-01T08:00:00+08:00', finishedAt: null, createdAt: '2026-11-01T07:00:00+08:00', organizationId: null,
    changeable: true, devices: [{ deviceId: 3, deviceName: 'Truck logger', deviceGuid: 'RCW360A0000003' }],
    corrected: false, spanStart: null, spanEnd: null, alarmCount: 0, ...change,
  };
}

describe('the waybill form', () => {
  const schema = waybillFormSchema(i18n.t.bind(i18n) as never);
  const blank = toForm(null);
  const ok = (change: Partial<WaybillForm>) => schema.safeParse({ ...blank, ...change }).success;

  it('checks the fields as the server does', () => {
    expect(ok({})).toBe(true);
    expect(ok({ orderNum: 'x'.repeat(20), goodsName: 'g'.repeat(20), coolerCode: 'c'.repeat(20) })).toBe(true);
    expect(ok({ orderNum: 'x'.repeat(21) })).toBe(false);
    expect(ok({ goodsName: 'g'.repeat(21) })).toBe(false);
    expect(ok({ coolerCode: 'c'.repeat(21) })).toBe(false);
    expect(ok({ senderName: 'n'.repeat(21) })).toBe(false);
    expect(ok({ expressNumber: 'e'.repeat(100) })).toBe(true);
    expect(ok({ expressNumber: 'e'.repeat(101) })).toBe(false);
    expect(ok({ goodsName: 'Ice 🧊' })).toBe(false);
    expect(ok({ senderPhone: '+86 138-0000' })).toBe(true);
    expect(ok({ senderPhone: 'call me' })).toBe(false);
  });

  it('wants the upper limit above the lower one and the planned start not after the stop', () => {
    expect(ok({ lowerLimit: '2', upperLimit: '8' })).toBe(true);
    expect(ok({ lowerLimit: '8', upperLimit: '8' })).toBe(false);
    expect(ok({ lowerLimit: '8', upperLimit: '2' })).toBe(false);
    expect(ok({ upperLimit: '201' })).toBe(false);
    expect(ok({ startTime: '2026-12-01T08:00', stopTime: '2026-12-01T08:00' })).toBe(true);
    expect(ok({ startTime: '2026-12-02T08:00', stopTime: '2026-12-01T08:00' })).toBe(false);
  });

  it('wants each alarm contact named and reachable, at most ten', () => {
    const contact = { name: 'Ann', phone: '123', email: '' };
    expect(ok({ alarmContacts: [contact] })).toBe(true);
    expect(ok({ alarmContacts: [{ ...contact, name: ' ' }] })).toBe(false);
    expect(ok({ alarmContacts: [{ ...contact, phone: '' }] })).toBe(false);
    expect(ok({ alarmContacts: [{ ...contact, phone: '', email: 'ann@example.com' }] })).toBe(true);
    expect(ok({ alarmContacts: Array.from({ length: 11 }, () => contact) })).toBe(false);
  });

  it('sends trimmed text, null for empty, numbers for the limits', () => {
    const fields = toFields({ ...blank, orderNum: ' WB-9 ', upperLimit: '8', lowerLimit: '-2.5', startTime: '2026-12-01T08:00',
      originFenceId: '7' });
    expect(fields).toMatchObject({ orderNum: 'WB-9', goodsName: null, upperLimit: 8, lowerLimit: -2.5, stopTime: null,
      originFenceId: 7, destinationFenceId: null });
    expect(new Date(fields.startTime ?? '').getTime()).toBe(new Date('2026-12-01T08:00').getTime());
  });
});

describe('the waybill list', () => {
  it('filters by keyword and state, restarts at page 1, and exports what it shows', async () => {
    const server = fakeServer({
      'POST /device/Waybill/page': () => page([waybill()]),
      'GET /device/Waybill/alarmCount': () => envelope({ alarmCount: 2 }),
      'POST /device/Waybill/export': () => new Response(new Blob(['xlsx']), { status: 200,
        headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename="waybills.xlsx"' } }),
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<WaybillsPage />, '/waybill/list');
    const row = await screen.findByTestId('waybill-row');
    expect(row).toHaveTextContent('WB-001');
    expect(row).toHaveTextContent('Vaccines');
    expect(row).toHaveTextContent('In progress');
    expect(row).toHaveTextContent('Truck logger');
    expect(await within(row).findByTestId('waybill-alarms')).toHaveTextContent('2');
    expect(server.callsTo('POST /device/Waybill/page')[0]?.body).toEqual({ start: 1, pageSize: 10 });
    const user = userEvent.setup();
    await user.selectOptions(screen.getByTestId('waybill-state-filter'), '1');
    await user.type(screen.getByTestId('waybill-search'), ' WB ');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(server.callsTo('POST /device/Waybill/page').at(-1)?.body)
      .toEqual({ start: 1, pageSize: 10, keyword: 'WB', state: 1 }));
    await user.click(screen.getByTestId('waybill-export'));
    await waitFor(() => expect(server.callsTo('POST /device/Waybill/export')).toHaveLength(1));
    expect(server.callsTo('POST /device/Waybill/export')[0]?.body).toEqual({ keyword: 'WB', state: 1 });
  });

  it('shows no edit, delete, add or export without the button permissions', async () => {
    const only = ['home', 'waybill.list'];
    fakeServer({
      'POST /device/Waybill/page': () => page([waybill()]),
      'GET /device/Waybill/alarmCount': () => envelope({ alarmCount: 0 }),
    });
    signIn(accountInfo({}, { permissionRoutes: only }), only);
    renderApp(<WaybillsPage />, '/waybill/list');
    const row = await screen.findByTestId('waybill-row');
    expect(within(row).queryByTestId('waybill-edit')).toBeNull();
    expect(within(row).queryByTestId('waybill-delete')).toBeNull();
    expect(screen.queryByTestId('waybill-add')).toBeNull();
    expect(screen.queryByTestId('waybill-export')).toBeNull();
  });
});

describe('the share dialog', () => {
  it('shows a new link once, lists the links with their opens and revokes one', async () => {
    let links: ShareLink[] = [];
    const link = (change: Partial<ShareLink>): ShareLink => ({ shareId: 1, createdAt: '2026-11-01T08:00:00+08:00',
      expiresAt: '2026-11-02T08:00:00+08:00', revokedAt: null, active: true, opens: [], ...change });
    const server = fakeServer({
      'GET /device/Waybill/shareList': () => envelope(links),
      'POST /device/Waybill/share': () => {
        links = [link({ opens: [{ at: '2026-11-01T09:00:00+08:00', address: '10.0.0.1' }] })];
        return envelope({ ...links[0], token: 'tok-en' });
      },
      'POST /device/Waybill/shareRevoke': () => {
        links = [link({ active: false, revokedAt: '2026-11-01T10:00:00+08:00' })];
        return envelope(null);
      },
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<ShareDialog waybillId={4} isOpen onClose={() => undefined} />, '/waybill/detail/4');
    expect(await screen.findByTestId('waybill-share-none')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByTestId('waybill-share-validity'), 'custom');
    expect(screen.getByTestId('waybill-share-create')).toBeDisabled();
    await user.selectOptions(screen.getByTestId('waybill-share-validity'), '3d');
    await user.click(screen.getByTestId('waybill-share-create'));
    await waitFor(() => expect(server.callsTo('POST /device/Waybill/share')[0]?.body).toEqual({ id: 4, validity: '3d' }));
    expect(await screen.findByTestId('waybill-share-url')).toHaveValue(`${window.location.origin}/mobileQuick/query/detail?share=tok-en`);
    expect(await screen.findByTestId('waybill-share-opens')).toHaveTextContent('1');
    await user.click(screen.getByTestId('waybill-share-revoke'));
    await waitFor(() => expect(server.callsTo('POST /device/Waybill/shareRevoke')[0]?.body).toEqual({ shareId: 1 }));
    await waitFor(() => expect(screen.queryByTestId('waybill-share-revoke')).toBeNull());
    expect(screen.getByTestId('waybill-share-link')).toHaveTextContent('Expired or revoked');
  });
});

describe('the trip report', () => {
  const trip: OwnerTrip = {
    orderNum: 'WB-001', goodsName: 'Vaccines', state: 2, upperLimit: 8, lowerLimit: 2, startedAt: null, finishedAt: null,
    corrected: false, spanStart: null, spanEnd: null, alarmCount: 1, deltaH: 83144, verificationCode: '1-ABC',
    devices: [{ deviceName: 'Truck logger', count: 3, minimum: 3, maximum: 9.5, mean: 5.2, mkt: 5.83, outOfRangeSeconds: 3720,
      excursions: [{ above: true, start: '2026-11-01T09:00:00+08:00', end: '2026-11-01T10:02:00+08:00', seconds: 3720, extreme: 9.5 }],
      points: [{ ts: '2026-11-01T08:00:00+08:00', t: 3 }, { ts: '2026-11-01T09:30:00+08:00', t: 9.5 }], route: [] }],
    waybill: waybill(),
  };
  const route = [{ ts: '2026-11-01T08:00:00+08:00', lat: 31.23, lon: 121.47, acc: 12 },
    { ts: '2026-11-01T09:30:00+08:00', lat: 30.27, lon: 120.15, acc: null }];

  it('draws the readings with the limits as mark lines', () => {
    const option = tripChartOption(trip, { upper: 'Upper', lower: 'Lower' });
    const series = option.series as { data: unknown[]; markLine?: { data: { yAxis: number; name: string }[] } }[];
    expect(series[0]?.data).toEqual([['2026-11-01T08:00:00+08:00', 3], ['2026-11-01T09:30:00+08:00', 9.5]]);
    expect(series[0]?.markLine?.data).toEqual([{ yAxis: 8, name: 'Upper' }, { yAxis: 2, name: 'Lower' }]);
    expect(tripChartOption({ ...trip, upperLimit: null, lowerLimit: null }, { upper: 'U', lower: 'L' }).series)
      .not.toHaveProperty('0.markLine');
  });

  it('shows each device\'s figures with MKT and time out of range, and the excursions', async () => {
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<TripReport trip={trip} />, '/waybill/detail/4');
    const row = await screen.findByTestId('waybill-figure-row');
    expect(row).toHaveTextContent('Truck logger');
    expect(within(row).getByTestId('waybill-mkt')).toHaveTextContent('5.8');
    expect(row).toHaveTextContent('1 h 2 min');
    expect(screen.getByTestId('waybill-excursions')).toHaveTextContent('Above');
    expect(screen.getByTestId('waybill-excursions')).toHaveTextContent('9.5');
  });

  it('shows the devices\' routes on a map after the chart, each device named in the legend', async () => {
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    const second = { ...trip.devices[0]!, deviceName: 'Door logger', route: [] };
    renderApp(<TripReport trip={{ ...trip, devices: [{ ...trip.devices[0]!, route }, second] }} />, '/waybill/detail/4');
    const legend = await screen.findByTestId('route-legend');
    expect(legend).toHaveTextContent('Truck logger');
    expect(legend).not.toHaveTextContent('Door logger');
    expect(screen.getByRole('img', { name: 'Route' })).toBeInTheDocument();
    expect(await screen.findAllByTestId('track-end')).toHaveLength(1);
    expect(screen.queryByTestId('route-empty')).toBeNull();
  });

  it('says no position was recorded when no device has a route', async () => {
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<TripReport trip={trip} />, '/waybill/detail/4');
    expect(await screen.findByTestId('route-empty')).toHaveTextContent('No positions were recorded on this trip');
    expect(screen.queryByTestId('route-map')).toBeNull();
  });
});

describe('the waybill drawer', () => {
  it('puts the server\'s refusal of a field under that field, then saves and binds the devices chosen', async () => {
    let refuse = true;
    const server = fakeServer({
      'POST /device/WaybillTemplate/page': () => page([]),
      'POST /device/Device/page': () => envelope(devices([device({ deviceId: 11, deviceName: 'Dock cold room' })])),
      'POST /device/Waybill/batchBind': () => envelope(waybill({ state: 0 })),
      'POST /device/Waybill/insert': () => {
        if (refuse) return envelope(null, 422, 422, 'Invalid input', { goodsName: ['Refused goods'] });
        return envelope(waybill({ state: 0, devices: [] }));
      },
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    const saved = vi.fn();
    renderApp(<WaybillDrawer waybill="new" onClose={() => undefined} onSaved={saved} />, '/waybill/list');
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('waybill-orderNum'), 'WB-001');
    await user.type(screen.getByTestId('waybill-goodsName'), 'Vaccines');
    await user.click(screen.getByTestId('waybill-save'));
    expect(await screen.findByText('Refused goods')).toBeInTheDocument();
    expect(server.callsTo('POST /device/Waybill/insert')[0]?.body).toMatchObject({ orderNum: 'WB-001', goodsName: 'Vaccines',
      upperLimit: null, alarmContacts: [] });
    refuse = false;
    await user.type(screen.getByTestId('waybill-goodsName'), ' 2');
    await user.click(await within(await screen.findByTestId('waybill-picker-list')).findByText('Dock cold room'));
    await user.click(screen.getByTestId('waybill-save'));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(server.callsTo('POST /device/Waybill/batchBind')[0]?.body).toEqual({ id: 4, deviceIds: [11] });
  });
});

describe('the waybill\'s fences', () => {
  const WITH_FENCES = [...PERMITTED, 'waybill.geofence'];

  it('offers the caller\'s fences as origin and destination and sends the ids chosen', async () => {
    const server = fakeServer({
      'POST /device/WaybillTemplate/page': () => page([]),
      'POST /device/DeviceFence/page': () => page(FENCES),
      'POST /device/Device/page': () => envelope(devices([])),
      'POST /device/Waybill/insert': () => envelope(waybill({ state: 0, devices: [], originFenceId: 7 })),
    });
    signIn(accountInfo({}, { permissionRoutes: WITH_FENCES }), WITH_FENCES);
    const saved = vi.fn();
    renderApp(<WaybillDrawer waybill="new" onClose={() => undefined} onSaved={saved} />, '/waybill/list');
    const user = userEvent.setup();
    const origin = await screen.findByTestId('waybill-originFenceId');
    await waitFor(() => expect(origin).toBeEnabled());
    expect([...origin.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['None', 'Shanghai depot', 'Hangzhou clinic']);
    expect(origin).toHaveValue('');
    expect(screen.getByText(/starts when its devices leave the origin fence/)).toBeInTheDocument();
    await user.type(screen.getByTestId('waybill-orderNum'), 'WB-002');
    await user.selectOptions(origin, 'Shanghai depot');
    await user.click(screen.getByTestId('waybill-save'));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(server.callsTo('POST /device/Waybill/insert')[0]?.body).toMatchObject({
      orderNum: 'WB-002', originFenceId: 7, destinationFenceId: null });
  });

  it('shows a waybill\'s fences when editing it and sends a fence taken off as null', async () => {
    const server = fakeServer({
      'POST /device/WaybillTemplate/page': () => page([]),
      'POST /device/DeviceFence/page': () => page(FENCES),
      'POST /device/Device/page': () => envelope(devices([])),
      'PUT /device/Waybill/update': () => envelope(waybill({ originFenceId: 7 })),
    });
    signIn(accountInfo({}, { permissionRoutes: WITH_FENCES }), WITH_FENCES);
    const saved = vi.fn();
    renderApp(<WaybillDrawer waybill={waybill({ state: 0, originFenceId: 7, destinationFenceId: 9 })}
      onClose={() => undefined} onSaved={saved} />, '/waybill/list');
    const destination = await screen.findByTestId('waybill-destinationFenceId');
    await waitFor(() => expect(destination).toBeEnabled());
    expect(screen.getByTestId('waybill-originFenceId')).toHaveValue('7');
    expect(destination).toHaveValue('9');
    await userEvent.setup().selectOptions(destination, 'None');
    await userEvent.setup().click(screen.getByTestId('waybill-save'));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(server.callsTo('PUT /device/Waybill/update')[0]?.body).toMatchObject({ id: 4, originFenceId: 7, destinationFenceId: null });
  });

  it('keeps a waybill\'s fences, without offering them, to a user who may not list fences', async () => {
    const server = fakeServer({
      'POST /device/WaybillTemplate/page': () => page([]),
      'POST /device/Device/page': () => envelope(devices([])),
      'PUT /device/Waybill/update': () => envelope(waybill({ originFenceId: 7 })),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    const saved = vi.fn();
    renderApp(<WaybillDrawer waybill={waybill({ state: 0, originFenceId: 7, destinationFenceId: 9 })}
      onClose={() => undefined} onSaved={saved} />, '/waybill/list');
    await userEvent.setup().click(await screen.findByTestId('waybill-save'));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(screen.queryByTestId('waybill-originFenceId')).toBeNull();
    expect(server.callsTo('POST /device/DeviceFence/page')).toHaveLength(0);
    expect(server.callsTo('PUT /device/Waybill/update')[0]?.body).toMatchObject({ originFenceId: 7, destinationFenceId: 9 });
  });

  it('names the fences among the particulars of the detail page', async () => {
    fakeServer({
      'GET /device/Waybill/get': () => envelope(waybill({ originFenceId: 7, destinationFenceId: 12 })),
      'GET /device/Waybill/report': () => envelope(null, 500, 500, 'later'),
      'POST /device/DeviceFence/page': () => page(FENCES),
    });
    const withFences = [...PERMITTED, 'waybill.geofence'];
    signIn(accountInfo({}, { permissionRoutes: withFences }), withFences);
    renderRoute(<WaybillDetailPage />, '/waybill/detail/:waybillPk', '/waybill/detail/4');
    const origin = await screen.findByText('Origin fence');
    await waitFor(() => expect(origin.nextElementSibling).toHaveTextContent('Shanghai depot'));
    // a fence deleted since (or not the caller's to list) by its number
    expect(screen.getByText('Destination fence').nextElementSibling).toHaveTextContent('Fence #12');
  });
});

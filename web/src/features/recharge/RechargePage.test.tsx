import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, renderApp, setUpI18n, signIn, type Call } from '@/test/harness';
import { device, page, signInWith, ALL_DEVICE_PERMISSIONS } from '@/test/devices';
import type { Device } from '@/lib/api/devices';
import { setEditionConfig } from '@/lib/config';
import { session } from '@/lib/session';
import { rechargeKeys } from './api/levels';
import type { MyOrder } from './api/myOrders';
import { MAX_BATCH_DEVICES, parseDeviceIds, toggleSelection, canSelect, emptySelection } from '@/lib/batchSelection';
import RechargePage from './RechargePage';
import { deposit, DOMESTIC, INTERNATIONAL, rechargeServer } from './test/levelFixtures';

const ROOM_A = device({ deviceId: 1, serviceExpiredDate: '2027-06-12', smsCount: 120, voiceCount: 30 });
const ROOM_B = device({
  deviceId: 2,
  deviceName: 'Cold room B logger',
  deviceGuid: 'RCW360A0000002',
  serviceExpiredDate: '2020-01-01',
  vipInfo: { state: 2 },
  smsCount: 40,
  voiceCount: 10,
});
const TRUCK = device({
  deviceId: 4,
  deviceName: 'Truck 12 tracker',
  deviceGuid: 'LOGET8A0000001',
  typeId: 2,
  deviceTypeName: 'LogEt 8 4G Logger',
  levelName: 'Professional',
  serviceExpiredDate: '2099-12-31',
  smsCount: 800,
  voiceCount: 200,
  countryCode: '1',
});
const DEVICES = [ROOM_A, ROOM_B, TRUCK];
/** A device of an organization the caller is a member of: read only. */
const WAREHOUSE = device({
  deviceId: 8,
  deviceName: 'Warehouse 1 door logger',
  deviceGuid: 'RCW360B0000001',
  ownerName: 'acme',
  isOwner: false,
  organizationName: 'Acme Cold Chain',
  access: 1,
});
const READ_ONLY_REASON = 'Read-only: you are a member of the organization that owns this device';

function order(overrides: Partial<MyOrder> = {}): MyOrder {
  return {
    orderId: 11,
    orderCode: 'A2026112400011',
    orderFee: 15920,
    payFee: 15920,
    payStatus: 2,
    applyFlag: 0,
    invoiceStatus: 0,
    gmtCreate: '2026-11-24T10:15:00+08:00',
    payTime: '2026-11-24T10:16:00+08:00',
    payType: 1,
    orderDescription: 'Professional',
    deviceCount: 2,
    currency: 'CNY',
    devices: [],
    expireTime: null,
    closeReason: null,
    couponCode: null,
    couponFee: 0,
    refundFee: 0,
    ...overrides,
  };
}

const ORDERS = [
  order(),
  order({ orderId: 10, orderCode: 'A2026112400010', orderFee: 9999, payFee: null, payStatus: 1, payTime: null, payType: 2,
    orderDescription: 'SMS 500 (+86)', deviceCount: 1, applyFlag: 1 }),
  order({ orderId: 9, orderCode: 'A2026112400009', orderFee: 4500, payStatus: 3, applyFlag: 1, invoiceStatus: 1, deviceCount: 1 }),
  order({ orderId: 8, orderCode: 'A2026112400008', orderFee: 1000, payFee: null, payStatus: 4, payTime: null, deviceCount: 1 }),
];

/** The page's calls (devices, orders) beside the recharge drawer's (deposit info, levels, ...). */
function server({ devices = DEVICES, orders = ORDERS }: { devices?: Device[]; orders?: MyOrder[] } = {}) {
  const store = { orders: [...orders] };
  const api = rechargeServer(
    [deposit(), deposit({ deviceId: 2, deviceName: 'Cold room B logger', deviceGuid: 'RCW360A0000002' })],
    {
      'POST /device/Device/page': (call: Call) => {
        const body = call.body as { start: number; pageSize: number; deviceName?: string };
        const named = devices.filter((d) => !body.deviceName || d.deviceName.toLowerCase().includes(body.deviceName.toLowerCase()));
        return envelope(page(named.slice((body.start - 1) * body.pageSize, body.start * body.pageSize), named.length, body.start, body.pageSize));
      },
      'POST /payment/PayOrder/selectMyOrderList': (call: Call) => {
        const body = call.body as { start: number; pageSize: number; payStatus?: number };
        const rows = store.orders.filter((o) => body.payStatus === undefined || o.payStatus === body.payStatus);
        return envelope({ start: body.start, pageSize: body.pageSize, totalCount: rows.length, data: rows });
      },
      'GET /payment/PaySmsPackages/selectSmsPackage': () => envelope({ smsList: [], voiceList: [] }),
    },
  );
  return { ...api, store };
}

function open(path = '/consumer/recharge', permissions?: string[]) {
  if (permissions) signIn(accountInfo({}, { permissionRoutes: permissions }), permissions);
  else signInWith(ALL_DEVICE_PERMISSIONS);
  return renderApp(<RechargePage />, path);
}

const row = (name: string) => screen.getAllByTestId('recharge-device-row').find((r) => r.dataset.deviceName === name)!;
const check = (name: string) => within(row(name)).getByRole('checkbox');
const location = () => screen.getByTestId('location').textContent;

beforeAll(setUpI18n);
afterEach(() => {
  setEditionConfig(DOMESTIC);
  session.clear();
  vi.restoreAllMocks();
});

describe('the batch selection rules', () => {
  it('keeps to one type and to 200 devices', () => {
    const a = { typeId: 1 };
    let selection = toggleSelection(emptySelection<{ typeId: number }>(), 1, a);
    expect(canSelect(selection, 2, { typeId: 2 })).toBe(false);
    expect(toggleSelection(selection, 2, { typeId: 2 })).toBe(selection);
    expect(canSelect(selection, 3, { typeId: 1 })).toBe(true);
    selection = toggleSelection(selection, 1, a);
    expect(selection.size).toBe(0);
    expect(canSelect(selection, 2, { typeId: 2 })).toBe(true);
    const full = new Map(Array.from({ length: MAX_BATCH_DEVICES }, (_, i) => [i + 1, a] as const));
    expect(canSelect(full, 999, a)).toBe(false);
    expect(canSelect(full, 1, a)).toBe(true); // a chosen one may still be un-chosen
  });

  it('reads ?deviceIds= as positive integers, each once, at most 200', () => {
    expect(parseDeviceIds('1,2')).toEqual([1, 2]);
    expect(parseDeviceIds(' 3 , 3,4')).toEqual([3, 4]);
    for (const bad of [null, '', 'abc', '0', '-1', '1,,2', '1.5', '1e3', '2,x', '99999999999999999']) {
      expect(parseDeviceIds(bad)).toBeNull();
    }
    expect(parseDeviceIds(Array.from({ length: 200 }, (_, i) => i + 1).join(','))).toHaveLength(200);
    expect(parseDeviceIds(Array.from({ length: 201 }, (_, i) => i + 1).join(','))).toBeNull();
  });
});

describe('RechargePage: devices', () => {
  it('lists the devices of every scene with type, GUID, level, expiry and the SMS and voice left', async () => {
    const api = server();
    open();
    await waitFor(() => expect(screen.getAllByTestId('recharge-device-row')).toHaveLength(3));
    expect(api.callsTo('POST /device/Device/page')[0]!.body).toEqual({ start: 1, pageSize: 10 });
    const a = within(row('Cold room A logger'));
    expect(a.getByTestId('recharge-device-type')).toHaveTextContent('RCW-360 Wi-Fi Logger');
    expect(row('Cold room A logger')).toHaveTextContent('RCW360A0000001');
    expect(row('Cold room A logger')).toHaveTextContent('Basic');
    expect(a.getByTestId('recharge-device-expiry')).toHaveTextContent('2027-06-12');
    expect(within(row('Cold room B logger')).getByTestId('service-state')).toHaveAttribute('data-state', 'expired');
    expect(within(row('Truck 12 tracker')).getByTestId('service-state')).toHaveTextContent('Lifelong');
    expect(screen.getByRole('columnheader', { name: 'Voice calls left' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Country code' })).toBeNull();
    expect(row('Truck 12 tracker')).toHaveTextContent('800');
  });

  it('hides the voice count and shows the country code internationally', async () => {
    setEditionConfig(INTERNATIONAL);
    server();
    open();
    await screen.findAllByTestId('recharge-device-row');
    expect(screen.queryByRole('columnheader', { name: 'Voice calls left' })).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'Country code' })).toBeInTheDocument();
    expect(row('Truck 12 tracker')).toHaveTextContent('+1');
  });

  it('keeps the buttons disabled until a device is chosen, and a choice to one type', async () => {
    server();
    open();
    await screen.findAllByTestId('recharge-device-row');
    const user = userEvent.setup();
    expect(screen.getByTestId('recharge-open')).toBeDisabled();
    expect(screen.getByTestId('recharge-buy-alerts')).toBeDisabled();
    expect(check('Truck 12 tracker')).toBeEnabled();

    await user.click(check('Cold room A logger'));
    expect(screen.getByTestId('recharge-open')).toBeEnabled();
    expect(screen.getByTestId('recharge-buy-alerts')).toBeEnabled();
    expect(check('Truck 12 tracker')).toBeDisabled();
    expect(row('Truck 12 tracker')).toHaveAttribute('title', 'Only devices of the type RCW-360 Wi-Fi Logger can join this recharge');
    expect(check('Cold room B logger')).toBeEnabled();

    // a click on the row chooses it too
    await user.click(within(row('Cold room B logger')).getByText('RCW360A0000002'));
    expect(check('Cold room B logger')).toBeChecked();
    expect(screen.getByTestId('recharge-selected')).toHaveTextContent('2 devices chosen · RCW-360 Wi-Fi Logger');
    expect(screen.getByTestId('recharge-open')).toHaveTextContent('Recharge 2 devices');
    // a disabled row's click does nothing
    await user.click(within(row('Truck 12 tracker')).getByText('LOGET8A0000001'));
    expect(check('Truck 12 tracker')).not.toBeChecked();

    await user.click(screen.getByTestId('recharge-clear-selection'));
    expect(check('Truck 12 tracker')).toBeEnabled();
    expect(screen.getByTestId('recharge-open')).toBeDisabled();
  });

  it('offers no device the caller may only read, and says why', async () => {
    server({ devices: [WAREHOUSE, ROOM_A] });
    open();
    await screen.findAllByTestId('recharge-device-row');
    const user = userEvent.setup();
    expect(check('Warehouse 1 door logger')).toBeDisabled();
    expect(row('Warehouse 1 door logger')).toHaveAttribute('title', READ_ONLY_REASON);
    expect(within(row('Warehouse 1 door logger')).getByTestId('read-only')).toHaveTextContent('Read-only');
    // neither the checkbox nor the row chooses it, even of the type already chosen
    await user.click(within(row('Warehouse 1 door logger')).getByText('RCW360B0000001'));
    await user.click(check('Cold room A logger'));
    await user.click(within(row('Warehouse 1 door logger')).getByText('RCW360B0000001'));
    expect(check('Warehouse 1 door logger')).not.toBeChecked();
    expect(screen.getByTestId('recharge-selected')).toHaveTextContent('1 device chosen');
    expect(within(row('Cold room A logger')).queryByTestId('read-only')).toBeNull();
  });

  it('keeps the choice through a search', async () => {
    const api = server();
    open();
    await screen.findAllByTestId('recharge-device-row');
    const user = userEvent.setup();
    await user.click(check('Cold room A logger'));
    await user.type(screen.getByTestId('recharge-search'), 'truck');
    await user.click(screen.getByTestId('recharge-search-submit'));
    await waitFor(() => expect(screen.getAllByTestId('recharge-device-row')).toHaveLength(1));
    expect(api.callsTo('POST /device/Device/page').at(-1)!.body).toEqual({ start: 1, pageSize: 10, deviceName: 'truck' });
    expect(check('Truck 12 tracker')).toBeDisabled();
    expect(screen.getByTestId('recharge-selected')).toHaveTextContent('1 device chosen');
  });

  it('opens the batch recharge drawer for the chosen devices', async () => {
    server();
    open();
    await screen.findAllByTestId('recharge-device-row');
    const user = userEvent.setup();
    await user.click(check('Cold room A logger'));
    await user.click(check('Cold room B logger'));
    await user.click(screen.getByTestId('recharge-open'));
    expect(await screen.findByText('Batch recharge · 2 devices')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('batch-row')).toHaveLength(2));
    // opened from the page, the address keeps no devices
    expect(location()).toBe('/consumer/recharge');
  });

  it('opens the SMS/voice drawer for the chosen devices', async () => {
    const api = server();
    open();
    await screen.findAllByTestId('recharge-device-row');
    const user = userEvent.setup();
    await user.click(check('Cold room A logger'));
    await user.click(screen.getByTestId('recharge-buy-alerts'));
    expect(await screen.findByTestId('sms-devices')).toHaveTextContent('Cold room A logger');
    expect(screen.queryByTestId('recharge-drawer')).toBeNull();
    expect(api.callsTo('GET /payment/PayServicePackages/selectDeviceDepositInfo')[0]!.params.get('deviceId')).toBe('1');
  });

  it('asks nothing of the device list without its permission', async () => {
    const api = server();
    open('/consumer/recharge', ['home', 'consumer.recharge']);
    expect(await screen.findByTestId('recharge-devices-forbidden')).toBeInTheDocument();
    expect(api.callsTo('POST /device/Device/page')).toHaveLength(0);
  });
});

describe('RechargePage: ?deviceIds=', () => {
  it('opens the recharge drawer at once, and closing it takes the parameter away', async () => {
    server();
    open('/consumer/recharge?deviceIds=1,2&tab=orders');
    expect(await screen.findByText('Batch recharge · 2 devices')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('batch-row')).toHaveLength(2));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(location()).toBe('/consumer/recharge?tab=orders'));
    await waitFor(() => expect(screen.queryByTestId('recharge-drawer')).toBeNull());
  });

  it('opens the drawer of a device the caller may only read with nothing to buy', async () => {
    const api = rechargeServer([deposit({ deviceId: 8, deviceName: 'Warehouse 1 door logger', access: 1 })], {
      'POST /device/Device/page': () => envelope(page([WAREHOUSE])),
    });
    open('/consumer/recharge?deviceIds=8');
    expect(await screen.findByTestId('recharge-read-only')).toHaveTextContent(READ_ONLY_REASON);
    const user = userEvent.setup();
    for (const button of await screen.findAllByTestId('level-button')) {
      expect(button).toBeDisabled();
      await user.click(button);
    }
    expect(screen.queryByTestId('buy-alerts')).toBeNull();
    expect(screen.queryByTestId('paying-drawer')).toBeNull();
    expect(api.calls.filter((call) => call.path.startsWith('/payment/PayOrder/create'))).toEqual([]);
  });

  it('opens one device’s drawer', async () => {
    server();
    open('/consumer/recharge?deviceIds=2');
    expect(await screen.findByTestId('recharge-device')).toHaveTextContent('Cold room B logger');
  });

  const tooMany = Array.from({ length: MAX_BATCH_DEVICES + 1 }, (_, i) => i + 1).join(',');
  it.each([
    ['letters', 'abc'],
    ['zero', '0'],
    ['an empty item', '1,,2'],
    ['a negative id', '-3'],
    ['201 devices', tooMany],
  ])('ignores %s', async (_case, ids) => {
    const api = server();
    open(`/consumer/recharge?deviceIds=${ids}`);
    await screen.findAllByTestId('recharge-device-row');
    expect(screen.queryByTestId('recharge-drawer')).toBeNull();
    expect(screen.queryByText(/Batch recharge/)).toBeNull();
    expect(api.callsTo('GET /payment/PayServicePackages/selectDeviceDepositInfo')).toHaveLength(0);
  });
});

describe('RechargePage: my orders', () => {
  const orderRow = (code: string) => screen.getAllByTestId('order-row').find((r) => r.dataset.orderCode === code)!;

  it('lists the orders with whole yuan domestically, the pay method, the state and the invoice', async () => {
    const api = server();
    open('/consumer/recharge?tab=orders');
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(4));
    expect(api.callsTo('POST /payment/PayOrder/selectMyOrderList')[0]!.body).toEqual({ start: 1, pageSize: 10 });
    const paid = within(orderRow('A2026112400011'));
    expect(paid.getByTestId('order-description')).toHaveTextContent('Professional');
    expect(orderRow('A2026112400011')).toHaveTextContent('2 devices');
    expect(paid.getByTestId('order-amount')).toHaveTextContent('¥159');
    expect(paid.getByTestId('order-amount')).not.toHaveTextContent('.');
    expect(paid.getByTestId('order-method')).toHaveTextContent('WeChat Pay');
    expect(paid.getByTestId('order-status')).toHaveTextContent('Paid');
    expect(paid.getByTestId('order-paid-at')).toHaveTextContent(/\d{2}:\d{2}/);
    expect(paid.getByTestId('order-invoice')).toHaveTextContent('Not requested');

    const unpaid = within(orderRow('A2026112400010'));
    expect(unpaid.getByTestId('order-amount')).toHaveTextContent('¥99');
    expect(unpaid.getByTestId('order-method')).toHaveTextContent('Alipay');
    expect(unpaid.getByTestId('order-status')).toHaveTextContent('Unpaid');
    expect(unpaid.getByTestId('order-paid-at')).toHaveTextContent('—');
    expect(unpaid.getByTestId('order-invoice')).toHaveTextContent('Requested');
    expect(within(orderRow('A2026112400009')).getByTestId('order-status')).toHaveTextContent('Refunded');
    expect(within(orderRow('A2026112400009')).getByTestId('order-invoice')).toHaveTextContent('Issued');
    expect(within(orderRow('A2026112400008')).getByTestId('order-status')).toHaveTextContent('Closed');
  });

  it('writes amounts with two decimals and a dollar sign internationally', async () => {
    setEditionConfig(INTERNATIONAL);
    server({ orders: [order({ payType: 20, currency: 'USD' }), order({ orderId: 3, orderCode: 'A3', orderFee: 1000, payType: 30, currency: 'USD' })] });
    open('/consumer/recharge?tab=orders');
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(2));
    expect(within(orderRow('A2026112400011')).getByTestId('order-amount')).toHaveTextContent('$159.20');
    expect(within(orderRow('A2026112400011')).getByTestId('order-method')).toHaveTextContent('PayPal');
    expect(within(orderRow('A3')).getByTestId('order-amount')).toHaveTextContent('$10.00');
    expect(within(orderRow('A3')).getByTestId('order-method')).toHaveTextContent('Google Pay');
  });

  it('filters by payment state', async () => {
    const api = server();
    open('/consumer/recharge?tab=orders');
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(4));
    await userEvent.setup().click(within(screen.getByTestId('order-status-filter')).getByRole('radio', { name: 'Unpaid' }));
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(1));
    expect(api.callsTo('POST /payment/PayOrder/selectMyOrderList').at(-1)!.body).toEqual({ start: 1, pageSize: 10, payStatus: 1 });
  });

  it('says so when there are none', async () => {
    server({ orders: [] });
    open('/consumer/recharge?tab=orders');
    expect(await screen.findByTestId('my-orders-empty')).toHaveTextContent('No orders yet');
  });

  it('shows an order paid once a payment refreshes the recharge data', async () => {
    const api = server({ orders: [order({ payStatus: 1, payTime: null, payFee: null })] });
    const { queryClient } = open('/consumer/recharge?tab=orders');
    await waitFor(() => expect(screen.getByTestId('order-status')).toHaveTextContent('Unpaid'));
    api.store.orders = [order()];
    // what the paying drawer and the recharge flow's refresh invalidate once paid
    await act(() => queryClient.invalidateQueries({ queryKey: rechargeKeys.all }));
    await waitFor(() => expect(screen.getByTestId('order-status')).toHaveTextContent('Paid'));
  });

  it('switches tabs through the address', async () => {
    server();
    open();
    await screen.findAllByTestId('recharge-device-row');
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: /My orders/ }));
    await waitFor(() => expect(location()).toBe('/consumer/recharge?tab=orders'));
    await screen.findAllByTestId('order-row');
    await user.click(screen.getByRole('tab', { name: /Devices to recharge/ }));
    await waitFor(() => expect(location()).toBe('/consumer/recharge'));
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n, type Call } from '@/test/harness';
import { changeLanguage } from '@/lib/i18n';
import { notify } from '@/lib/notify';
import type { MyOrder, OrderDetail } from '../api/myOrders';
import { DOMESTIC } from '../test/levelFixtures';
import { order } from '../test/orderFixtures';
import { setEditionConfig } from '@/lib/config';
import { MyOrders } from './MyOrders';
import { orderMoney } from '../orderMoney';

const LIST = 'POST /payment/PayOrder/selectMyOrderList';
const CANCEL = 'POST /payment/PayOrder/cancelOrder';
const CONTINUE = 'POST /payment/PayOrder/continuePay';
const DETAIL = 'POST /payment/PayOrder/selectOrderDetail';
const STATUS = 'GET /payment/PayOrder/get';


const PAID_IN_DOLLARS = order({
  orderId: 20,
  orderCode: '20261120100000000020',
  orderFee: 15920,
  payFee: 15920,
  payStatus: 2,
  payTime: '2026-11-20T10:01:00+08:00',
  payType: 20,
  currency: 'USD',
  deviceCount: 7,
  devices: [1, 2, 3, 4, 5].map((id) => ({ deviceId: id, deviceName: id === 3 ? null : `Logger ${id}` })),
  expireTime: null,
});

function detail(of: MyOrder, overrides: Partial<OrderDetail> = {}): OrderDetail {
  return {
    ...of,
    closeTime: null,
    refundTime: null,
    countryCode: null,
    lines: [
      { deviceId: 1, deviceName: 'Cold room A logger', fee: 9900, levelName: 'Basic', timeLength: 12, presentationMonth: 2, smsCount: 0, voiceCount: 0 },
      { deviceId: 2, deviceName: 'Cold room B logger', fee: 9900, levelName: 'Basic', timeLength: 12, presentationMonth: 2, smsCount: 0, voiceCount: 0 },
    ],
    ...overrides,
  };
}

function server(orders: MyOrder[] = [order(), PAID_IN_DOLLARS], routes: Record<string, (call: Call) => Response> = {}) {
  const store = { orders: [...orders], status: 1 };
  const api = fakeServer({
    [LIST]: (call) => {
      const body = call.body as { start: number; pageSize: number; payStatus?: number };
      const rows = store.orders.filter((o) => body.payStatus === undefined || o.payStatus === body.payStatus);
      return envelope({ start: body.start, pageSize: body.pageSize, totalCount: rows.length, data: rows });
    },
    [CANCEL]: (call) => {
      const { orderId } = call.body as { orderId: number };
      store.orders = store.orders.map((o) => (o.orderId === orderId ? { ...o, payStatus: 4, closeReason: 'cancelled', expireTime: null } : o));
      return envelope({ orderId, orderCode: 'x', payStatus: 4, applyFlag: 0, totalFee: 19800 });
    },
    [CONTINUE]: (call) => {
      const { orderId } = call.body as { orderId: number };
      return envelope({
        orderId,
        orderCode: '20261125100000000021',
        totalFee: 19800,
        payQrCode: 'weixin://wxpay/bizpayurl?pr=again',
        payType: 1,
        orderDescription: 'Basic',
        currency: 'CNY',
        expireTime: '2026-11-25T12:00:00+08:00',
      });
    },
    [DETAIL]: (call) => {
      const { orderId } = call.body as { orderId: number };
      const found = store.orders.find((o) => o.orderId === orderId)!;
      return envelope(detail(found));
    },
    [STATUS]: (call) => envelope({ orderId: Number(call.params.get('pk')), orderCode: 'x', payStatus: store.status, applyFlag: 0, totalFee: 19800 }),
    ...routes,
  });
  return { ...api, store };
}

const rowOf = (code: string) => screen.getAllByTestId('order-row').find((r) => r.dataset.orderCode === code)!;

beforeAll(setUpI18n);
afterEach(async () => {
  setEditionConfig(DOMESTIC);
  await changeLanguage('en-US');
  vi.restoreAllMocks();
});

describe('MyOrders', () => {
  it('names the devices of each order and writes its amount in its own currency', async () => {
    server();
    renderApp(<MyOrders />);
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(2));
    const unpaid = within(rowOf('20261125100000000021'));
    expect(unpaid.getByTestId('order-devices')).toHaveTextContent('Cold room A logger, Cold room B logger');
    expect(unpaid.getByTestId('order-amount')).toHaveTextContent('¥198');
    expect(unpaid.getByTestId('order-expires')).toHaveTextContent(/Pay by .*\d{2}:\d{2}/);
    // a dollar order on the domestic console is still in dollars, cents and all
    const paid = within(rowOf('20261120100000000020'));
    expect(paid.getByTestId('order-amount')).toHaveTextContent('$159.20');
    expect(paid.getByTestId('order-devices')).toHaveTextContent('Logger 1, Logger 2, Device #3, Logger 4, Logger 5 and 2 more');
    expect(paid.queryByTestId('order-expires')).toBeNull();
  });

  it('offers Pay and Cancel on an unpaid order only, Details on every one', async () => {
    server([order(), PAID_IN_DOLLARS, order({ orderId: 19, orderCode: 'C19', payStatus: 4, closeReason: 'expired', expireTime: null })]);
    renderApp(<MyOrders />);
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(3));
    const buttons = (code: string) => ['order-pay', 'order-cancel', 'order-details'].filter((id) => within(rowOf(code)).queryByTestId(id));
    expect(buttons('20261125100000000021')).toEqual(['order-pay', 'order-cancel', 'order-details']);
    expect(buttons('20261120100000000020')).toEqual(['order-details']);
    expect(buttons('C19')).toEqual(['order-details']);
  });

  it('cancels an unpaid order once confirmed, and shows it closed', async () => {
    const api = server();
    const success = vi.spyOn(notify, 'success');
    renderApp(<MyOrders />);
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(2));
    await user.click(within(rowOf('20261125100000000021')).getByTestId('order-cancel'));
    const confirm = await screen.findByTestId('order-cancel-confirm');
    expect(confirm).toHaveTextContent('Cancel order 20261125100000000021?');
    // thinking better of it changes nothing
    await user.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(api.callsTo(CANCEL)).toHaveLength(0);

    await user.click(within(rowOf('20261125100000000021')).getByTestId('order-cancel'));
    await user.click(await screen.findByRole('button', { name: 'Cancel the order' }));
    await waitFor(() => expect(api.callsTo(CANCEL)).toHaveLength(1));
    expect(api.callsTo(CANCEL)[0]!.body).toEqual({ orderId: 21 });
    expect(success).toHaveBeenCalledWith('This order has been cancelled');
    await waitFor(() => expect(within(rowOf('20261125100000000021')).getByTestId('order-status')).toHaveTextContent('Closed'));
    expect(within(rowOf('20261125100000000021')).queryByTestId('order-pay')).toBeNull();
  });

  it('shows the server refusal of a cancellation and the order as it now is', async () => {
    const api = server(undefined, {
      [CANCEL]: () => envelope(null, 1121, 409, 'This order has been paid and can no longer be cancelled'),
    });
    const error = vi.spyOn(notify, 'error');
    renderApp(<MyOrders />);
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(2));
    const listed = api.callsTo(LIST).length;
    await user.click(within(rowOf('20261125100000000021')).getByTestId('order-cancel'));
    await user.click(await screen.findByRole('button', { name: 'Cancel the order' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('This order has been paid and can no longer be cancelled', expect.anything()));
    await waitFor(() => expect(api.callsTo(LIST).length).toBeGreaterThan(listed));
  });

  it('pays an unpaid order again in the paying drawer, with the same code, and closes it once paid', async () => {
    const api = server();
    const success = vi.spyOn(notify, 'success');
    renderApp(<MyOrders />);
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(2));
    await user.click(within(rowOf('20261125100000000021')).getByTestId('order-pay'));
    const drawer = await screen.findByTestId('resumed-payment');
    expect(api.callsTo(CONTINUE)[0]!.body).toEqual({ orderId: 21 });
    expect(await within(drawer).findByTestId('payment-qr')).toHaveAttribute('data-pay-code', 'weixin://wxpay/bizpayurl?pr=again');
    expect(within(drawer).getByTestId('payment-total')).toHaveTextContent('¥198');
    expect(within(drawer).getByTestId('resumed-devices')).toHaveTextContent('Cold room A logger, Cold room B logger');
    expect(screen.getByText('Pay for Basic')).toBeInTheDocument();
    // nothing is chosen again: no new order is placed
    expect(screen.queryByTestId('pay-type-1')).toBeNull();
    expect(api.calls.some((call) => call.path.includes('create'))).toBe(false);

    api.store.status = 2;
    await waitFor(() => expect(success).toHaveBeenCalledWith('Payment successful.'), { timeout: 5_000 });
    await waitFor(() => expect(screen.queryByTestId('resumed-payment')).toBeNull());
  });

  it('says so when the order has expired meanwhile, and refreshes the list', async () => {
    const api = server(undefined, {
      [CONTINUE]: () => envelope(null, 1123, 409, 'This order has expired, please place a new one'),
    });
    renderApp(<MyOrders />);
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(2));
    const listed = api.callsTo(LIST).length;
    await user.click(within(rowOf('20261125100000000021')).getByTestId('order-pay'));
    expect(await screen.findByTestId('payment-error')).toHaveTextContent('This order has expired, please place a new one');
    expect(screen.queryByTestId('payment-qr')).toBeNull();
    await waitFor(() => expect(api.callsTo(LIST).length).toBeGreaterThan(listed));
  });

  it('shows the details: a line per device with its level, term and amount, and the dates', async () => {
    const api = server();
    renderApp(<MyOrders />);
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(2));
    await user.click(within(rowOf('20261125100000000021')).getByTestId('order-details'));
    const details = await screen.findByTestId('order-lines');
    expect(api.callsTo(DETAIL)[0]!.body).toEqual({ orderId: 21 });
    const lines = within(details).getAllByTestId('order-line');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toHaveTextContent('Cold room A logger');
    expect(lines[0]).toHaveTextContent('Basic');
    expect(lines[0]).toHaveTextContent('1 year +2 months free');
    expect(within(lines[0]!).getByTestId('order-line-amount')).toHaveTextContent('¥99');
    expect(screen.getByTestId('order-detail-status')).toHaveTextContent('Unpaid');
    expect(screen.getByTestId('order-detail-method')).toHaveTextContent('WeChat Pay');
    expect(screen.getByTestId('order-detail-amount')).toHaveTextContent('¥198');
    expect(screen.getByTestId('order-detail-expires')).toHaveTextContent(/\d{2}:\d{2}/);
    expect(screen.getByText('Order 20261125100000000021')).toBeInTheDocument();
  });

  it('names a partially refunded order, filters by it and shows what was refunded of it, cents and all', async () => {
    const part = order({ orderId: 18, orderCode: 'P18', payStatus: 5, payFee: 19800, payTime: '2026-11-20T10:01:00+08:00',
      expireTime: null, refundFee: 4950 });
    const api = server([part, PAID_IN_DOLLARS]);
    renderApp(<MyOrders />);
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(2));
    const row = within(rowOf('P18'));
    expect(row.getByTestId('order-status')).toHaveTextContent('Partially refunded');
    expect(row.getByTestId('order-refunded')).toHaveTextContent('Refunded: ¥49.50');
    expect(within(rowOf('20261120100000000020')).queryByTestId('order-refunded')).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Partially refunded' }));
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(1));
    expect(api.callsTo(LIST).at(-1)!.body).toMatchObject({ payStatus: 5 });

    await user.click(within(rowOf('P18')).getByTestId('order-details'));
    expect(await screen.findByTestId('order-detail-refunded')).toHaveTextContent('¥49.50');
    expect(screen.getByTestId('order-detail-status')).toHaveTextContent('Partially refunded');
  });

  it('says why a closed order closed, in the reader\'s language', async () => {
    server([order({ payStatus: 4, closeReason: 'expired', expireTime: null })], {
      [DETAIL]: () => envelope(detail(order({ payStatus: 4, closeReason: 'expired', expireTime: null }), { closeTime: '2026-11-25T12:00:30+08:00' })),
    });
    await changeLanguage('zh-CN');
    renderApp(<MyOrders />);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('order-details'));
    expect(await screen.findByTestId('order-detail-reason')).toHaveTextContent('超时未支付');
    expect(screen.getByTestId('order-detail-closed-at')).toHaveTextContent(/\d{2}:\d{2}/);
    expect(screen.queryByTestId('order-detail-expires')).toBeNull();
  });
});

describe('orderMoney', () => {
  it('writes yuan whole, dollars with cents, other currencies by their code', () => {
    expect(orderMoney(15900, 'CNY')).toBe('¥159');
    expect(orderMoney(15920, 'usd')).toBe('$159.20');
    expect(orderMoney(15920, 'EUR')).toBe('EUR 159.20');
    expect(orderMoney(0, 'USD')).toBe('--');
  });
});

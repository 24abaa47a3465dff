import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import { filterBody } from './api/orders';
import OrdersPage from './OrdersPage';
import { dossier, order, page } from './test/deskFixtures';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const ALL = ['home', 'order.recharge', 'order.recharge:query', 'order.recharge:detail', 'order.recharge:export',
  'order.recharge:edit'];
const READ_ONLY = ['home', 'order.recharge', 'order.recharge:query', 'order.recharge:detail'];

describe('the order back office', () => {
  it('sends the filter as the server takes it: trimmed, days as [midnight, next midnight)', () => {
    const body = filterBody({ account: '  alice ', orderCode: '', payStatus: 2, createdFrom: '2026-11-01', createdTo: '2026-11-30' });
    expect(body).toEqual({ account: 'alice', payStatus: 2, createdFrom: new Date('2026-11-01T00:00:00').toISOString(),
      createdUntil: new Date('2026-12-01T00:00:00').toISOString() });
  });

  it('finds orders, opens one whole and handles it with a reason; a refusal says what the provider answered', async () => {
    let handled = 0;
    const server = fakeServer({
      'POST /payment/PayOrder/selectOrderList': (call) => {
        const { account } = call.body as { account?: string };
        return page(account === 'bob' ? [] : [order()]);
      },
      'GET /payment/PayOrder/selectBackOrderDetail': () => envelope(dossier({
        history: [{ at: '2026-11-27T10:20:00+08:00', kind: 'close', payStatus: 4, accountId: null, userName: null,
          reason: null, detail: null }],
        notifications: [{ provider: 'wechat', receivedAt: '2026-11-27T10:16:00+08:00', verdict: 'notPaid', amount: 9900,
          body: '<xml>...</xml>' }],
      })),
      'POST /payment/PayOrder/handlingOrder': () => {
        handled += 1;
        return handled === 1
          ? envelope({ providerAnswer: { paid: false } }, 1131, 409,
            'The provider says order 20261127101500123456 is not paid: nothing was changed')
          : envelope(order({ payStatus: 2, handleable: false }));
      },
    });
    signIn(accountInfo({}, { permissionRoutes: ALL }), ALL);
    renderApp(<OrdersPage />, '/operation/recharge');
    expect(await screen.findAllByTestId('od-row')).toHaveLength(1);
    expect(screen.getByTestId('od-total')).toHaveTextContent('1 order');
    const user = userEvent.setup();
    await user.type(screen.getByTestId('od-account'), 'bob');
    await user.click(screen.getByTestId('od-search-submit'));
    expect(await screen.findByText('No order matches the search')).toBeInTheDocument();
    expect(server.callsTo('POST /payment/PayOrder/selectOrderList').at(-1)?.body).toEqual(
      { start: 1, pageSize: 10, sortField: 'gmtCreate', sortOrder: 'desc', account: 'bob' });
    await user.click(screen.getByTestId('od-clear'));
    await user.click((await screen.findAllByTestId('od-row'))[0]!);

    const drawer = await screen.findByTestId('od-drawer');
    expect(await within(drawer).findByText('RCW360A0000001')).toBeInTheDocument();
    expect(within(drawer).getByTestId('od-payment-ref')).toHaveTextContent('wx123');
    expect(within(drawer).getByTestId('od-history')).toHaveTextContent('Closed');
    expect(within(drawer).getByTestId('od-notifications')).toHaveTextContent('notPaid');

    await user.click(screen.getByTestId('od-handle'));
    await user.click(screen.getByTestId('od-handle-submit'));
    expect(await screen.findByText('Say why the order is handled manually')).toBeInTheDocument();
    expect(server.callsTo('POST /payment/PayOrder/handlingOrder')).toHaveLength(0);
    await user.type(screen.getByTestId('od-reason'), ' Paid at WeChat, notification lost ');
    await user.click(screen.getByTestId('od-handle-submit'));
    expect(await screen.findByTestId('od-refusal')).toHaveTextContent('is not paid: nothing was changed');
    expect(server.callsTo('POST /payment/PayOrder/handlingOrder')[0]?.body).toEqual(
      { orderId: 7, reason: 'Paid at WeChat, notification lost' });
    await user.click(screen.getByTestId('od-handle-submit'));
    await waitFor(() => expect(screen.queryByTestId('od-handle-form')).not.toBeInTheDocument());
    expect(handled).toBe(2);
  });

  it('offers neither export, manual handling nor refunds to an operator without them', async () => {
    const server = fakeServer({
      'POST /payment/PayOrder/selectOrderList': () => page([order()]),
      'GET /payment/PayOrder/selectBackOrderDetail': () => envelope(dossier({ refundable: true })),
    });
    signIn(accountInfo({}, { permissionRoutes: READ_ONLY }), READ_ONLY);
    renderApp(<OrdersPage />, '/operation/recharge');
    const user = userEvent.setup();
    await user.click((await screen.findAllByTestId('od-row'))[0]!);
    expect(await screen.findByText('RCW360A0000001')).toBeInTheDocument();
    expect(screen.queryByTestId('od-handle')).not.toBeInTheDocument();
    expect(screen.queryByTestId('od-export')).not.toBeInTheDocument();
    expect(screen.queryByTestId('od-refund')).not.toBeInTheDocument();
    expect(server.callsTo('GET /payment/PayRefund/awaitingList')).toHaveLength(0);
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn, type Routes } from '@/test/harness';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import OrdersPage from './OrdersPage';
import { PAID, dossier, order, page, quote, refund, takeBack } from './test/deskFixtures';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const REFUNDER = ['home', 'order.recharge', 'order.recharge:query', 'order.recharge:detail', 'order.recharge:refund'];
const LIST = 'POST /payment/PayOrder/selectOrderList';
const DOSSIER = 'GET /payment/PayOrder/selectBackOrderDetail';
const PREVIEW = 'POST /payment/PayRefund/preview';
const REFUND = 'POST /payment/PayRefund/refundOrder';
const AWAITING = 'GET /payment/PayRefund/awaitingList';
const APPROVE = 'POST /payment/PayRefund/approve';
const REJECT = 'POST /payment/PayRefund/reject';

/** What refunding `amount` of the paid order previews: half of it takes six months back and needs approval. */
function previewOf(amount: number | undefined) {
  if (amount === undefined || amount === 9900) return quote();
  return quote({
    amount, needsApproval: amount > 3000,
    takeBacks: [takeBack({ monthsTaken: amount / 825, expireTimeAfter: '2027-07-15T12:00:00+08:00' }),
      takeBack({ deviceId: 12, deviceName: 'Freezer B', levelBefore: null, levelAfter: null, expireTimeBefore: null,
        expireTimeAfter: null, monthsTaken: 0, smsTaken: 40, smsUsed: 10 })],
  });
}

function desk(routes: Routes = {}) {
  return fakeServer({
    [LIST]: () => page([order(PAID)]),
    [DOSSIER]: () => envelope(dossier(PAID)),
    [AWAITING]: () => envelope([]),
    [PREVIEW]: (call) => envelope(previewOf((call.body as { amount?: number }).amount)),
    ...routes,
  });
}

async function openRefundDialog() {
  const user = userEvent.setup();
  renderApp(<OrdersPage />, '/operation/recharge');
  await user.click((await screen.findAllByTestId('od-row'))[0]!);
  await user.click(await screen.findByTestId('od-refund'));
  const amount = await screen.findByTestId('od-refund-amount');
  return { user, amount };
}

describe('refunds in the order back office', () => {
  it('refunds 49.50 as 4950 cents with the reason, having shown what it takes back and that it needs approval', async () => {
    let asked = 0;
    const server = desk({
      [REFUND]: () => {
        asked += 1;
        return asked === 1
          ? envelope(null, 1137, 409, 'The payment provider refused the refund of order 20261127101500123456: nothing was changed')
          : envelope(refund({ status: 1, providerReference: null, finishedAt: null, takeBacks: [] }));
      },
    });
    const info = vi.spyOn(notify, 'info');
    signIn(accountInfo({}, { permissionRoutes: REFUNDER }), REFUNDER);
    const { user, amount } = await openRefundDialog();

    // by default all that is left, previewed once (the first answer is the preview of its own amount)
    expect(amount).toHaveValue('99.00');
    expect(await screen.findByTestId('od-refund-preview')).toHaveTextContent('Months of service taken back: 12');
    expect(server.callsTo(PREVIEW).map((call) => call.body)).toEqual([{ orderId: 7 }]);
    expect(screen.queryByTestId('od-refund-approval')).not.toBeInTheDocument();

    await user.clear(amount);
    await user.type(amount, '49.50');
    await waitFor(() => expect(screen.getByTestId('od-refund-preview')).toHaveTextContent('Months of service taken back: 6'));
    expect(server.callsTo(PREVIEW).at(-1)?.body).toEqual({ orderId: 7, amount: 4950 });
    // only the settled amount is previewed, not each keystroke
    expect(server.callsTo(PREVIEW)).toHaveLength(2);
    const preview = screen.getByTestId('od-refund-preview');
    const [room, freezer] = within(preview).getAllByTestId('od-takeback');
    expect(room).toHaveTextContent('Cold room A');
    const expiry = within(room!).getByTestId('od-takeback-expiry');
    expect(expiry).toHaveAttribute('data-before', '2028-01-15T12:00:00+08:00');
    expect(expiry).toHaveAttribute('data-after', '2027-07-15T12:00:00+08:00');
    expect(expiry).toHaveTextContent(/Expiry: .*2028.* → .*2027/);
    expect(freezer).toHaveTextContent('Taken back: 40 SMS');
    expect(within(freezer!).getByTestId('od-takeback-used')).toHaveTextContent('Already used, so not taken back: 10 SMS');
    expect(screen.getByTestId('od-refund-approval')).toHaveTextContent('A second operator must approve this refund');

    await user.click(screen.getByTestId('od-refund-submit'));
    expect(await screen.findByText('Say why the order is refunded')).toBeInTheDocument();
    expect(server.callsTo(REFUND)).toHaveLength(0);
    await user.type(screen.getByTestId('od-refund-reason'), ' Half of the year was never used ');
    await user.click(screen.getByTestId('od-refund-submit'));
    expect(await screen.findByTestId('od-refund-refusal')).toHaveTextContent('refused the refund of order 20261127101500123456');
    expect(server.callsTo(REFUND)[0]?.body).toEqual({ orderId: 7, amount: 4950, reason: 'Half of the year was never used' });

    const dossiers = server.callsTo(DOSSIER).length;
    await user.click(screen.getByTestId('od-refund-submit'));
    await waitFor(() => expect(screen.queryByTestId('od-refund-form')).not.toBeInTheDocument());
    expect(info).toHaveBeenCalledWith('Refund of ¥49.50 on order 20261127101500123456 sent for approval');
    await waitFor(() => expect(server.callsTo(DOSSIER).length).toBeGreaterThan(dossiers));
  });

  it.each([
    ['100.00', 'At most ¥99.00 can be refunded'],
    ['49.555', 'At most 2 decimals'],
    ['0', 'Enter more than 0'],
    ['4x', 'Enter an amount such as 49.50'],
  ])('refuses %s (%s) and neither previews nor refunds it', async (typed, message) => {
    const server = desk({ [REFUND]: () => envelope(refund()) });
    signIn(accountInfo({}, { permissionRoutes: REFUNDER }), REFUNDER);
    const { user, amount } = await openRefundDialog();
    await screen.findByText('Months of service taken back: 12');
    await user.type(screen.getByTestId('od-refund-reason'), 'Asked by the customer');
    await user.clear(amount);
    await user.type(amount, typed);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByTestId('od-refund-submit')).toBeDisabled();
    await user.type(amount, '{Enter}');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.callsTo(PREVIEW).map((call) => call.body)).toEqual([{ orderId: 7 }]);
    expect(server.callsTo(REFUND)).toHaveLength(0);
  });

  it('refunds at once within the approval amount and says so', async () => {
    const server = desk({ [REFUND]: () => envelope(refund({ amount: 2000, requestedBy: 'alice' })) });
    const success = vi.spyOn(notify, 'success');
    signIn(accountInfo({}, { permissionRoutes: REFUNDER }), REFUNDER);
    const { user, amount } = await openRefundDialog();
    await user.clear(amount);
    await user.type(amount, '20');
    await waitFor(() => expect(server.callsTo(PREVIEW).at(-1)?.body).toEqual({ orderId: 7, amount: 2000 }));
    await user.type(screen.getByTestId('od-refund-reason'), 'Goodwill');
    await waitFor(() => expect(screen.getByTestId('od-refund-submit')).toBeEnabled());
    expect(screen.queryByTestId('od-refund-approval')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('od-refund-submit'));
    await waitFor(() => expect(success).toHaveBeenCalledWith('¥20.00 refunded on order 20261127101500123456'));
    expect(server.callsTo(REFUND)[0]?.body).toEqual({ orderId: 7, amount: 2000, reason: 'Goodwill' });
  });

  it('lists the refunds; the operator who asked for one may reject it but not approve it, another may', async () => {
    const refunds = [
      refund({ status: 5, decidedBy: 'carol', decidedAt: '2026-11-28T10:00:00+08:00', decisionNote: 'Not agreed with sales',
        providerReference: null, finishedAt: null, takeBacks: [] }),
      refund({ refundId: 32, refundCode: '20261127101500123456R2', requestedBy: 'alice' }),
      refund({ refundId: 33, refundCode: '20261127101500123456R3', status: 1, requestedBy: 'alice', providerReference: null,
        finishedAt: null, takeBacks: [] }),
      refund({ refundId: 34, refundCode: '20261127101500123456R4', status: 1, requestedBy: 'bob', providerReference: null,
        finishedAt: null, takeBacks: [] }),
    ];
    const server = desk({
      [DOSSIER]: () => envelope(dossier({ ...PAID, payStatus: 5, refundFee: 4950, refunds })),
      [APPROVE]: () => envelope(refund({ refundId: 34 })),
      [REJECT]: () => envelope(refund({ refundId: 33, status: 5 })),
    });
    signIn(accountInfo({}, { permissionRoutes: REFUNDER }), REFUNDER);
    renderApp(<OrdersPage />, '/operation/recharge');
    const user = userEvent.setup();
    expect(within((await screen.findAllByTestId('od-row'))[0]!).getByTestId('od-status')).toHaveTextContent('Paid');
    await user.click(screen.getAllByTestId('od-row')[0]!);

    const drawer = await screen.findByTestId('od-drawer');
    const items = await within(drawer).findAllByTestId('od-refund');
    expect(items).toHaveLength(4);
    expect(within(drawer).getAllByTestId('od-status')[0]).toHaveTextContent('Partially refunded');
    expect(within(drawer).getByTestId('od-refunded')).toHaveTextContent('¥49.50');
    const [rejected, done, mine, theirs] = items as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(rejected).toHaveTextContent('Rejected');
    expect(within(rejected).getByTestId('od-refund-decided')).toHaveTextContent('by carol');
    expect(rejected).toHaveTextContent('Not agreed with sales');
    expect(within(rejected).queryByTestId('od-decision')).not.toBeInTheDocument();
    expect(done).toHaveTextContent('dev-20261127101500123456R1');
    expect(within(done).getByTestId('od-takeback-expiry')).toHaveAttribute('data-after', '2027-07-15T12:00:00+08:00');
    expect(within(done).queryByTestId('od-decision')).not.toBeInTheDocument();

    expect(within(mine).getByTestId('od-refund-status')).toHaveTextContent('Awaiting approval');
    expect(within(mine).queryByTestId('od-approve')).not.toBeInTheDocument();
    expect(within(mine).getByTestId('od-decision-mine')).toHaveTextContent('another operator must approve it');
    expect(within(theirs).getByTestId('od-approve')).toBeInTheDocument();

    await user.type(within(theirs).getByTestId('od-decision-note'), ' Checked with sales ');
    await user.click(within(theirs).getByTestId('od-approve'));
    await waitFor(() => expect(server.callsTo(APPROVE)).toHaveLength(1));
    expect(server.callsTo(APPROVE)[0]?.body).toEqual({ refundId: 34, note: 'Checked with sales' });
    await user.click(within(mine).getByTestId('od-reject'));
    await waitFor(() => expect(server.callsTo(REJECT)).toHaveLength(1));
    expect(server.callsTo(REJECT)[0]?.body).toEqual({ refundId: 33 });
  });

  it('says how many refunds await approval and opens the order of one', async () => {
    const server = desk({
      [AWAITING]: () => envelope([refund({ orderId: 9, orderCode: 'A9', status: 1, amount: 60000, requestedBy: 'bob' })]),
    });
    signIn(accountInfo({}, { permissionRoutes: REFUNDER }), REFUNDER);
    renderApp(<OrdersPage />, '/operation/recharge');
    const user = userEvent.setup();
    const awaiting = await screen.findByTestId('od-awaiting');
    expect(awaiting).toHaveTextContent('1 refund awaits approval');
    expect(awaiting).toHaveTextContent('¥600.00');
    await user.click(within(awaiting).getByTestId('od-awaiting-item'));
    await screen.findByTestId('od-drawer');
    await waitFor(() => expect(server.callsTo(DOSSIER).at(-1)?.params.get('orderId')).toBe('9'));
  });
});

describe('a refund the provider accepted', () => {
  it('shows it processing at the provider until the provider tells the outcome', async () => {
    const refunds = [
      refund({ refundId: 41, status: 2, providerReference: null, finishedAt: null }),
      refund({ refundId: 42, refundCode: '20261127101500123456R2', status: 2, providerReference: '50300000000000000000000000001',
        finishedAt: null }),
    ];
    desk({ [DOSSIER]: () => envelope(dossier({ ...PAID, refunds })) });
    signIn(accountInfo({}, { permissionRoutes: REFUNDER }), REFUNDER);
    renderApp(<OrdersPage />, '/operation/recharge');
    const user = userEvent.setup();
    await user.click((await screen.findAllByTestId('od-row'))[0]!);
    const [asking, accepted] = (await screen.findAllByTestId('od-refund-status')) as [HTMLElement, HTMLElement];
    expect(asking).toHaveTextContent('In progress');
    expect(asking).not.toHaveAttribute('data-at-provider');
    expect(accepted).toHaveTextContent('Processing at the provider');
    expect(accepted).toHaveAttribute('data-at-provider', 'true');
    expect(screen.getByText('50300000000000000000000000001')).toBeInTheDocument();
  });
});

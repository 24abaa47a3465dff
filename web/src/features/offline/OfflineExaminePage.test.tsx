import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import type { Purchase, PurchaseDetail } from './api/offline';
import OfflineExaminePage from './OfflineExaminePage';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const EXAMINE = ['home', 'order.offlineExamine', 'order.offlineExamine:query', 'order.offlineExamine:edit',
  'order.offlineExamine:export', 'order.offlinebuy', 'order.offlinebuy:detail'];
const page = <T,>(rows: T[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });

function purchase(change: Partial<Purchase> = {}): Purchase {
  return {
    offlineId: 12, customerId: 3, customerName: 'alice', levelId: 21, levelName: 'Basic', levelYearId: 31, timeLength: 12,
    smsCount: 100, voiceCount: 0, amount: 198000, currency: 'CNY', payType: 60, remark: '', status: 1, createdBy: 'operator',
    gmtCreate: '2026-11-27T10:15:00+08:00', reviewedBy: null, reviewedAt: null, reviewNote: null, orderId: null,
    deviceCount: 2, rechargedCount: 0, failedCount: 0, ...change,
  };
}

function detail(change: Partial<PurchaseDetail> = {}): PurchaseDetail {
  const state = change.status === 2 ? 1 : 0;
  return {
    ...purchase(change),
    devices: ['RCW360A0000001', 'RCW360A0000002'].map((guid, i) => ({
      guid, deviceId: 11 + i, deviceName: `Cold room ${'AB'[i]} logger`, state, reason: null,
      expireTimeBefore: state ? '2027-06-01T12:00:00+08:00' : null, expireTimeAfter: state ? '2028-06-01T12:00:00+08:00' : null,
    })),
    ...change,
  };
}

describe('the review of offline purchases', () => {
  it('approves after saying how many devices it recharges; the recorder refused (1134) is told why', async () => {
    let reviews = 0;
    const approved = detail({ status: 2, rechargedCount: 2, reviewedBy: 'admin', reviewedAt: '2026-11-27T11:00:00+08:00', orderId: 99 });
    const server = fakeServer({
      'POST /payment/PayOfflineExamine/selectExamineList': () => page(reviews < 2 ? [purchase()] : []),
      'GET /payment/PayOfflineDeviceService/selectOfflineServiceList': () => envelope(reviews < 2 ? detail() : approved),
      'PUT /payment/PayOfflineExamine/updateExamine': () => {
        reviews += 1;
        return reviews === 1
          ? envelope(null, 1134, 409, 'The operator who asked for it cannot approve it: another operator must')
          : envelope(approved);
      },
    });
    signIn(accountInfo({}, { permissionRoutes: EXAMINE }), EXAMINE);
    renderApp(<OfflineExaminePage />, '/operation/offlineExamine');
    const user = userEvent.setup();
    await user.click((await screen.findAllByTestId('ol-row'))[0]!);
    // awaiting review unless another status is asked for
    expect(server.callsTo('POST /payment/PayOfflineExamine/selectExamineList')[0]?.body).toEqual({ start: 1, pageSize: 10, status: 1 });
    expect(screen.getByTestId('ol-filter-status')).toHaveValue('1');
    const drawer = await screen.findByTestId('ol-drawer');
    expect(await within(drawer).findAllByTestId('ol-device')).toHaveLength(2);
    expect(within(drawer).getByTestId('ol-summary')).toHaveTextContent('Basic · 12 months + 100 SMS messages');

    await user.click(screen.getByTestId('ol-review'));
    await user.type(screen.getByTestId('ol-note'), ' Transfer seen on the statement ');
    await user.click(screen.getByTestId('ol-approve'));
    expect(screen.getByTestId('ol-approve-confirm')).toHaveTextContent('Approving recharges 2 devices now');
    expect(server.callsTo('PUT /payment/PayOfflineExamine/updateExamine')).toHaveLength(0);
    await user.click(screen.getByTestId('ol-approve-confirmed'));
    expect(await screen.findByTestId('ol-refusal')).toHaveTextContent('cannot approve it: another operator must');
    expect(server.callsTo('PUT /payment/PayOfflineExamine/updateExamine')[0]?.body).toEqual(
      { offlineId: 12, approve: true, note: 'Transfer seen on the statement' });

    await user.click(screen.getByTestId('ol-approve'));
    await user.click(screen.getByTestId('ol-approve-confirmed'));
    expect(await screen.findByTestId('ol-review-result')).toHaveTextContent('Approved: 2 recharged, 0 failed');
    expect(within(screen.getByTestId('ol-drawer')).getByTestId('ol-status')).toHaveTextContent('Approved');
    expect(screen.queryByTestId('ol-review')).not.toBeInTheDocument();
  });

  it('rejects with a note, at once', async () => {
    const server = fakeServer({
      'POST /payment/PayOfflineExamine/selectExamineList': () => page([purchase()]),
      'GET /payment/PayOfflineDeviceService/selectOfflineServiceList': () => envelope(detail()),
      'PUT /payment/PayOfflineExamine/updateExamine': () => envelope(detail({ status: 3, reviewNote: 'No transfer received' })),
    });
    signIn(accountInfo({}, { permissionRoutes: EXAMINE }), EXAMINE);
    renderApp(<OfflineExaminePage />, '/operation/offlineExamine');
    const user = userEvent.setup();
    await user.click((await screen.findAllByTestId('ol-row'))[0]!);
    await user.click(await screen.findByTestId('ol-review'));
    await user.type(screen.getByTestId('ol-note'), 'No transfer received');
    await user.click(screen.getByTestId('ol-reject'));
    expect(await screen.findByTestId('ol-review-result')).toHaveTextContent('Rejected: nothing was recharged');
    expect(server.callsTo('PUT /payment/PayOfflineExamine/updateExamine')[0]?.body).toEqual(
      { offlineId: 12, approve: false, note: 'No transfer received' });
  });

  it('hides the review without order.offlineExamine:edit, and the devices without order.offlinebuy:detail', async () => {
    const readOnly = ['home', 'order.offlineExamine', 'order.offlineExamine:query'];
    const server = fakeServer({
      'POST /payment/PayOfflineExamine/selectExamineList': (call) =>
        page((call.body as { status: number }).status === 3 ? [purchase({ status: 3, offlineId: 9 })] : [purchase()]),
    });
    signIn(accountInfo({}, { permissionRoutes: readOnly }), readOnly);
    renderApp(<OfflineExaminePage />, '/operation/offlineExamine');
    const user = userEvent.setup();
    expect(screen.queryByTestId('ol-export')).not.toBeInTheDocument();
    await user.selectOptions(await screen.findByTestId('ol-filter-status'), '3');
    await user.click(screen.getByTestId('ol-search-submit'));
    await waitFor(() => expect(screen.getAllByTestId('ol-row')[0]).toHaveAttribute('data-offline-id', '9'));
    await user.click(screen.getAllByTestId('ol-row')[0]!);
    const drawer = await screen.findByTestId('ol-drawer');
    expect(within(drawer).getByTestId('ol-status')).toHaveTextContent('Rejected');
    expect(within(drawer).getByText(/needs the permission to see offline purchase details/)).toBeInTheDocument();
    expect(screen.queryByTestId('ol-review')).not.toBeInTheDocument();
    expect(server.callsTo('GET /payment/PayOfflineDeviceService/selectOfflineServiceList')).toHaveLength(0);
  });

  it('hides the approval of a purchase awaiting review from an operator without order.offlineExamine:edit', async () => {
    const noEdit = EXAMINE.filter((p) => p !== 'order.offlineExamine:edit');
    fakeServer({
      'POST /payment/PayOfflineExamine/selectExamineList': () => page([purchase()]),
      'GET /payment/PayOfflineDeviceService/selectOfflineServiceList': () => envelope(detail()),
    });
    signIn(accountInfo({}, { permissionRoutes: noEdit }), noEdit);
    renderApp(<OfflineExaminePage />, '/operation/offlineExamine');
    const user = userEvent.setup();
    await user.click((await screen.findAllByTestId('ol-row'))[0]!);
    expect(await within(await screen.findByTestId('ol-drawer')).findAllByTestId('ol-device')).toHaveLength(2);
    expect(screen.queryByTestId('ol-review')).not.toBeInTheDocument();
    expect(screen.queryByTestId('ol-approve')).not.toBeInTheDocument();
    expect(screen.getByTestId('ol-export')).toBeInTheDocument();
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rememberAccess, type Application } from '@/lib/api/calibration';
import { session } from '@/lib/session';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import ListPage from './ListPage';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  localStorage.clear();
  vi.restoreAllMocks();
});

function application(number: string, change: Partial<Application> = {}): Application {
  return {
    applicationId: null, applicationNumber: number, status: 1, quickOrder: false, handled: true, currency: 'CNY',
    totalFee: 24_000, paidFee: 0, refundFee: 0, refundState: 0, inboundTracking: null, outboundTracking: null,
    createdAt: '2026-11-27T10:00:00+08:00', updatedAt: '2026-11-27T10:00:00+08:00', paidAt: null, cancelledAt: null,
    devices: [], details: null, ...change,
  };
}

describe('my applications', () => {
  it('lists the account\'s own, found on the server by a part of the number', async () => {
    const server = fakeServer({
      'GET /base/BaseAccount/accountInfo': () => envelope(accountInfo({}, { permissionRoutes: ['calibration.order'] })),
      'POST /calibration/Application/page/ApplicationOrder': () => envelope({ start: 1, pageSize: 20, totalCount: 1,
        data: [application('CAL20261127AAAA2345', { applicationId: 12 })] }),
    });
    signIn();
    renderApp(<ListPage />, '/mobile/calibration/list?number=aaaa');
    const row = await screen.findByTestId('calibration-list-row');
    expect(row).toHaveTextContent('CAL20261127AAAA2345');
    expect(row.querySelector('a')).toHaveAttribute('href', '/mobile/calibration/detail/12');
    expect(server.callsTo('POST /calibration/Application/page/ApplicationOrder')[0]!.body)
      .toEqual({ start: 1, pageSize: 20, applicationNumber: 'AAAA' });
  });

  it('lists this browser\'s applications without an account, each read with its token, and filters them', async () => {
    rememberAccess('CAL20261127AAAA2345', 'one', 1);
    rememberAccess('CAL20261127BBBB2345', 'two', 2);
    const server = fakeServer({
      'GET /calibration/Application/get/applicationInfo': (call) =>
        envelope(application(call.params.get('applicationNumber')!)),
    });
    renderApp(<ListPage />, '/mobile/calibration/list');
    await waitFor(() => expect(screen.getAllByTestId('calibration-list-row')).toHaveLength(2));
    expect(screen.getAllByTestId('calibration-list-row')[0]).toHaveTextContent('CAL20261127BBBB2345'); // newest first
    expect(server.callsTo('POST /calibration/Application/page/ApplicationOrder')).toHaveLength(0);
    const user = userEvent.setup();
    await user.type(screen.getByTestId('calibration-list-search'), 'aaaa');
    await user.click(screen.getByTestId('calibration-list-go'));
    await waitFor(() => expect(screen.getAllByTestId('calibration-list-row')).toHaveLength(1));
    expect(screen.getByTestId('calibration-list-row')).toHaveTextContent('CAL20261127AAAA2345');
  });
});

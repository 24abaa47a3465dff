import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderRoute, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import { LAB_PERMISSION, type LabApplication } from '@/lib/api/calibrationLab';
import OrderDetailPage from './OrderDetailPage';

const NUMBER = 'CAL20261127AB12CD34';

function application(): LabApplication {
  return {
    applicationId: 42, applicationNumber: NUMBER, status: 3, quickOrder: false, handled: true, currency: 'CNY',
    totalFee: 30000, paidFee: 30000, refundFee: 0, refundState: 0, inboundTracking: 'SF1234567890', outboundTracking: null,
    createdAt: '2026-11-27T10:00:00+08:00', updatedAt: '2026-11-27T10:00:00+08:00', paidAt: '2026-11-27T10:05:00+08:00',
    cancelledAt: null, devices: [], details: null,
  };
}

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

describe("the lab's application page", () => {
  it('opens the application a scanned order names by its number, at its id\'s address', async () => {
    const api = fakeServer({
      'GET /calibration/Application/get/applicationInfo': (call) => (
        call.params.get('applicationNumber') === NUMBER || call.params.get('applicationId') === '42'
          ? envelope(application()) : envelope(null, 404, 404, 'Not found')),
      'POST /calibration/ResultInfo/queryResultList': () => envelope([]),
    });
    signIn(undefined, [LAB_PERMISSION]);
    renderRoute(<OrderDetailPage />, '/:role/order/detail/:applicationId', `/admin/order/detail/${NUMBER.toLowerCase()}`);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/order/detail/42'));
    expect(await screen.findByTestId('order-number')).toHaveTextContent(NUMBER);
    expect(api.callsTo('GET /calibration/Application/get/applicationInfo')[0]!.params.get('applicationNumber')).toBe(NUMBER);
  });

  it('says so when the number names no application', async () => {
    fakeServer({ 'GET /calibration/Application/get/applicationInfo': () => envelope(null, 404, 404, 'Not found') });
    signIn(undefined, [LAB_PERMISSION]);
    renderRoute(<OrderDetailPage />, '/:role/order/detail/:applicationId', `/admin/order/detail/${NUMBER}`);
    expect(await screen.findByText('No such application')).toBeInTheDocument();
  });
});

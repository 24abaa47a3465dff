import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import SalesPanel, { lastDays, periodOf } from './SalesPanel';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const PERMITTED = ['home', 'order.servicePackage', 'order.servicePackage:query'];
const PERIOD = { startTime: '2026-11-01T00:00:00+08:00', endTime: '2026-12-01T00:00:00+08:00' };
const SERVICE = {
  period: PERIOD, orders: 3, paidFees: { CNY: 29700, USD: 1999 },
  rows: [
    { levelYearId: 11, packageId: 1, packageName: 'Standard', levelId: 2, levelName: 'Basic', timeLength: 12, orders: 2, devices: 5,
      paidFees: { CNY: 29700 } },
    { levelYearId: 99, packageId: null, packageName: null, levelId: null, levelName: null, timeLength: null, orders: 1, devices: 1,
      paidFees: { USD: 1999 } },
  ],
};
const SMS = { period: PERIOD, orders: 1, paidFees: { CNY: 11000 },
  rows: [{ countryCode: '86', orders: 1, devices: 2, smsCount: 1000, voiceCount: 100, paidFees: { CNY: 11000 } }] };
const DEPOSITS = { start: 1, pageSize: 10, totalCount: 1, data: [{ activityId: 3, name: 'Spring sale', nature: 2, status: 1,
  startTime: '2026-11-01T00:00:00+08:00', endTime: '2026-12-01T00:00:00+08:00', paidOrders: 4, paidFees: { CNY: 63600 } }] };

describe('the sales period', () => {
  it('runs from the first day to the end of the last, and refuses a backwards or over-long one', () => {
    expect(lastDays(30, new Date(2026, 10, 27))).toEqual({ from: '2026-10-29', to: '2026-11-27' });
    expect(periodOf('2026-11-01', '2026-11-30')).toEqual({ startTime: '2026-11-01T00:00:00', endTime: '2026-12-01T00:00:00' });
    expect(periodOf('2026-12-31', '2026-12-31')).toEqual({ startTime: '2026-12-31T00:00:00', endTime: '2027-01-01T00:00:00' });
    expect(periodOf('2026-11-02', '2026-11-01')).toBe('rule.endAfterStart');
    expect(periodOf('2020-01-01', '2026-01-01')).toBe('rule.period');
    expect(periodOf('', '2026-01-01')).toBe('rule.dateRequired');
  });
});

describe('the sales tab', () => {
  it('sums what was paid per currency over the period, per option, per country code and per activity', async () => {
    const server = fakeServer({
      'POST /payment/PayServicePackages/selectDepositView': () => envelope(SERVICE),
      'POST /payment/PaySmsPackages/selectDepositView': () => envelope(SMS),
      'POST /payment/activity/PayActivityDeposit/selectDepositList': () => envelope(DEPOSITS),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<SalesPanel />, '/service/package?tab=sales');
    expect(await screen.findByTestId('pr-sales-total')).toHaveTextContent('¥407.00');
    expect(screen.getByTestId('pr-sales-total')).toHaveTextContent('$19.99');
    expect(screen.getByTestId('pr-sales-service-total')).toHaveTextContent('¥297.00');
    expect(screen.getByTestId('pr-sales-totals')).toHaveTextContent('4 paid orders');
    const options = screen.getAllByTestId('pr-sales-service-row');
    expect(options[0]).toHaveTextContent('Standard · Basic');
    expect(options[0]).toHaveTextContent('12 months');
    expect(options[1]).toHaveTextContent('Deleted option #99');
    expect(within(screen.getByTestId('pr-sales-sms-row')).getByText('1000')).toBeInTheDocument();
    expect(await screen.findByTestId('pr-sales-activity-row')).toHaveTextContent('Spring sale');
    // the first answer is the last 30 days; a preset asks again
    const first = server.callsTo('POST /payment/PayServicePackages/selectDepositView')[0]!.body as { startTime: string; endTime: string };
    expect(first).toEqual(periodOf(lastDays(30).from, lastDays(30).to));
    const user = userEvent.setup();
    await user.click(screen.getByTestId('pr-sales-7'));
    await waitFor(() => expect(server.callsTo('POST /payment/PaySmsPackages/selectDepositView')).toHaveLength(2));
    expect(server.callsTo('POST /payment/PaySmsPackages/selectDepositView')[1]!.body).toEqual(periodOf(lastDays(7).from, lastDays(7).to));
  });

  it('says what is wrong with a period instead of asking', async () => {
    const server = fakeServer({
      'POST /payment/PayServicePackages/selectDepositView': () => envelope(SERVICE),
      'POST /payment/PaySmsPackages/selectDepositView': () => envelope(SMS),
      'POST /payment/activity/PayActivityDeposit/selectDepositList': () => envelope(DEPOSITS),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<SalesPanel />);
    await screen.findByTestId('pr-sales-total');
    const user = userEvent.setup();
    const from = screen.getByTestId('pr-sales-from');
    await user.clear(from);
    await user.type(from, '2099-01-01');
    await user.click(screen.getByTestId('pr-sales-show'));
    expect(screen.getByTestId('pr-sales-error')).toHaveTextContent('The end must be after the start.');
    expect(server.callsTo('POST /payment/PayServicePackages/selectDepositView')).toHaveLength(1);
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChartOption } from '@/components/chart/chartOption';
import { saveFile } from '@/lib/saveFile';
import { session } from '@/lib/session';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import type { StatsRange } from './api/statistics';
import RechargeStatisticsPage from './RechargeStatisticsPage';
import { answer } from './test/statsFixtures';

// jsdom draws no canvas: the chart shows what it was given instead.
vi.mock('@/components/chart/EChart', () => ({
  default: ({ option }: { option: ChartOption }) => (
    <div data-testid="rs-chart" data-series={(option.series as { name: string }[]).map((s) => s.name).join(',')}
      data-labels={((option.xAxis as { data: string[] }).data).join('|')} />
  ),
}));
vi.mock('@/lib/saveFile', () => ({ saveFile: vi.fn() }));

const STATS = 'POST /payment/PayOrder/rechargeStatistics';
const EXPORT = 'POST /payment/PayOrder/exportRechargeStatistics';
const QUERY = ['home', 'order.rechargeStatistics', 'order.rechargeStatistics:query'];
const ALL = [...QUERY, 'order.rechargeStatistics:export'];
const TOO_MANY = 'At most 400 periods: choose a shorter range or longer periods';

beforeAll(setUpI18n);
beforeEach(() => {
  // 04:00 on 28 November in Shanghai, still the 27th in UTC: today is the account's zone's.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-27T20:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
  session.clear();
  vi.restoreAllMocks();
});

function signInOperator(permissions: string[]) {
  const base = accountInfo();
  signIn(accountInfo({}, { permissionRoutes: permissions, baseAccount: { ...base.baseAccount, timeZone: 'Asia/Shanghai' } }),
    permissions);
}

describe('the recharge statistics', () => {
  it("asks for the last 30 days by day in the account's zone, and each quick choice's days", async () => {
    const server = fakeServer({ [STATS]: () => answer() });
    signInOperator(QUERY);
    renderApp(<RechargeStatisticsPage />, '/operation/rechargeStatistics');
    await screen.findByTestId('rs-summary');
    expect(server.callsTo(STATS)[0]?.body).toEqual({ startDate: '2026-10-30', endDate: '2026-11-28', granularity: 'day' });
    const headers = server.spy.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers['X-Time-Zone']).toBe('Asia/Shanghai');
    expect(screen.getByTestId('rs-quick-last30')).toHaveAttribute('aria-pressed', 'true');

    const user = userEvent.setup();
    const asked = () => server.callsTo(STATS).at(-1)?.body;
    await user.click(screen.getByTestId('rs-quick-last7'));
    await waitFor(() => expect(asked()).toEqual({ startDate: '2026-11-22', endDate: '2026-11-28', granularity: 'day' }));
    await user.click(screen.getByTestId('rs-quick-last12Months'));
    await waitFor(() => expect(asked()).toEqual({ startDate: '2025-12-01', endDate: '2026-11-28', granularity: 'month' }));
    expect(screen.getByTestId('rs-granularity-month')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('rs-startDate')).toHaveValue('2025-12-01');
    await user.click(screen.getByTestId('rs-quick-thisMonth'));
    await waitFor(() => expect(asked()).toEqual({ startDate: '2026-11-01', endDate: '2026-11-28', granularity: 'day' }));
    await user.click(screen.getByTestId('rs-granularity-week'));
    await waitFor(() => expect(asked()).toEqual({ startDate: '2026-11-01', endDate: '2026-11-28', granularity: 'week' }));
    expect(screen.getByTestId('rs-quick-thisMonth')).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows cents as money of the currency: in the cards, the chart, by period, pay type and level', async () => {
    fakeServer({ [STATS]: () => answer() });
    signInOperator(QUERY);
    renderApp(<RechargeStatisticsPage />, '/operation/rechargeStatistics');
    expect(await screen.findByTestId('rs-paid')).toHaveTextContent('¥1,234.56');
    expect(screen.getByTestId('rs-refunded')).toHaveTextContent('¥49.50');
    expect(screen.getByTestId('rs-net')).toHaveTextContent('¥1,185.06');
    expect(screen.getByTestId('rs-orders')).toHaveTextContent('2');
    expect(screen.getByTestId('rs-refunds')).toHaveTextContent('1');
    expect(screen.getByTestId('rs-devices-new')).toHaveTextContent('3');
    expect(screen.getByTestId('rs-devices-renewed')).toHaveTextContent('2');
    expect(screen.getByTestId('rs-devices-expired')).toHaveTextContent('1');

    const chart = await screen.findByTestId('rs-chart');
    expect(chart).toHaveAttribute('data-series', 'Paid,Refunded,Net');
    expect(chart).toHaveAttribute('data-labels', 'Nov 27|Nov 28');

    const rows = within(screen.getByTestId('rs-periods')).getAllByTestId('rs-periods-row');
    expect(rows.map((row) => row.getAttribute('data-start'))).toEqual(['2026-11-28', '2026-11-27']); // newest first
    expect(rows[0]).toHaveTextContent('Nov 28, 2026');
    expect(rows[0]).toHaveTextContent('¥1,234.56');
    expect(rows[1]).toHaveTextContent('¥0.00');
    expect(screen.getByTestId('rs-paytypes-row')).toHaveTextContent(/WeChat Pay.*¥1,234\.56.*¥49\.50.*¥1,185\.06/);
    const levels = within(screen.getByTestId('rs-levels')).getAllByTestId('rs-levels-row');
    expect(levels[0]).toHaveTextContent(/Standard.*¥990\.00/);
    expect(levels[1]).toHaveTextContent(/Deleted level #5.*¥244\.56/);
  });

  it('breaks the figures down by platform once orders were placed on more than one', async () => {
    const alone = fakeServer({ [STATS]: () => answer() });
    signInOperator(QUERY);
    const { unmount } = renderApp(<RechargeStatisticsPage />, '/operation/rechargeStatistics');
    await screen.findByTestId('rs-paytypes');
    expect(screen.queryByTestId('rs-platforms')).not.toBeInTheDocument();
    expect(alone.callsTo(STATS)).toHaveLength(1);
    unmount();
    vi.restoreAllMocks();

    const none = { paid: 0, orders: 0, refunded: 0, refunds: 0, net: 0 };
    fakeServer({ [STATS]: () => answer({ platforms: [
      { camp: 0, platformName: 'Main console', ...none, paid: 99000, orders: 1, net: 99000 },
      { camp: 1, platformName: 'Demo Cold Chain Cloud', paid: 24456, orders: 1, refunded: 4950, refunds: 1, net: 19506 },
    ] }) });
    renderApp(<RechargeStatisticsPage />, '/operation/rechargeStatistics');
    const table = await screen.findByTestId('rs-platforms');
    expect(screen.getByText('By platform')).toBeInTheDocument();
    expect(within(table).getAllByRole('columnheader')[0]).toHaveTextContent('Platform');
    const rows = within(table).getAllByTestId('rs-platforms-row');
    expect(rows.map((row) => row.getAttribute('data-camp'))).toEqual(['0', '1']);
    expect(rows[0]).toHaveTextContent(/Main console.*¥990\.00/);
    expect(rows[1]).toHaveTextContent(/Demo Cold Chain Cloud.*¥244\.56.*¥49\.50.*¥195\.06/);
  });

  it('says when no order was paid or refunded in the range, the device counts still shown', async () => {
    const none = { paid: 0, orders: 0, refunded: 0, refunds: 0, net: 0 };
    fakeServer({ [STATS]: () => answer({ total: none, payTypes: [], levels: [], devices: { new: 1, renewed: 0, expired: 0 } }) });
    signInOperator(QUERY);
    renderApp(<RechargeStatisticsPage />, '/operation/rechargeStatistics');
    expect(await screen.findByTestId('rs-empty')).toHaveTextContent('No order was paid or refunded in this range');
    expect(screen.getByTestId('rs-paid')).toHaveTextContent('¥0.00');
    expect(screen.getByTestId('rs-devices-new')).toHaveTextContent('1');
    expect(screen.queryByTestId('rs-chart')).not.toBeInTheDocument();
  });

  it("checks the range before asking, and shows the server's refusal of too many periods", async () => {
    const server = fakeServer({
      [STATS]: (call) => {
        const { startDate, granularity } = call.body as StatsRange;
        return granularity === 'day' && startDate < '2025-01-01'
          ? envelope(null, 422, 422, 'Invalid input', { startDate: [TOO_MANY] })
          : answer();
      },
    });
    signInOperator(QUERY);
    renderApp(<RechargeStatisticsPage />, '/operation/rechargeStatistics');
    await screen.findByTestId('rs-summary');
    const user = userEvent.setup();

    fireEvent.change(screen.getByTestId('rs-endDate'), { target: { value: '2026-10-01' } });
    await user.click(screen.getByTestId('rs-show'));
    expect(await screen.findByText('The end is before the start')).toBeInTheDocument();
    expect(server.callsTo(STATS)).toHaveLength(1);

    fireEvent.change(screen.getByTestId('rs-startDate'), { target: { value: '2023-01-01' } });
    fireEvent.change(screen.getByTestId('rs-endDate'), { target: { value: '2026-11-28' } });
    await user.click(screen.getByTestId('rs-show'));
    expect(await screen.findByTestId('rs-error')).toHaveTextContent(TOO_MANY);
    expect(server.callsTo(STATS).at(-1)?.body).toEqual({ startDate: '2023-01-01', endDate: '2026-11-28', granularity: 'day' });
    expect(screen.queryByTestId('rs-summary')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('rs-granularity-month'));
    await screen.findByTestId('rs-summary');
    expect(screen.queryByTestId('rs-error')).not.toBeInTheDocument();
  });

  it('exports the range shown as an XLSX, and offers no export without the export permission', async () => {
    const server = fakeServer({
      [STATS]: () => answer(),
      [EXPORT]: () => new Response('PK', { status: 200, headers: {
        'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'Content-Disposition': 'attachment; filename=recharge-statistics.xlsx',
      } }),
    });
    signInOperator(ALL);
    const { unmount } = renderApp(<RechargeStatisticsPage />, '/operation/rechargeStatistics');
    await screen.findByTestId('rs-summary');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('rs-quick-last7'));
    await user.click(screen.getByTestId('rs-export'));
    await waitFor(() => expect(saveFile).toHaveBeenCalledWith(expect.anything(), 'recharge-statistics.xlsx'));
    expect(server.callsTo(EXPORT)[0]?.body).toEqual({ startDate: '2026-11-22', endDate: '2026-11-28', granularity: 'day' });
    unmount();
    session.clear();

    signInOperator(QUERY);
    renderApp(<RechargeStatisticsPage />, '/operation/rechargeStatistics');
    await screen.findByTestId('rs-summary');
    expect(screen.queryByTestId('rs-export')).not.toBeInTheDocument();
  });

  it('reads nothing for an operator who may not query the statistics', async () => {
    const server = fakeServer({ [STATS]: () => answer() });
    signInOperator(['home', 'order.rechargeStatistics']);
    renderApp(<RechargeStatisticsPage />, '/operation/rechargeStatistics');
    expect(await screen.findByText('You may not read the recharge statistics')).toBeInTheDocument();
    expect(server.callsTo(STATS)).toHaveLength(0);
  });
});

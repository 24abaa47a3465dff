import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { editionConfig, setEditionConfig } from '@/lib/config';
import { closeExpiredDialog, useExpiredDialogState } from '@/lib/expiredDialogStore';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn, type Call } from '@/test/harness';
import { session } from '@/lib/session';
import HomePage from './HomePage';

// The real pages, which a test may add to (a page built later) or take from.
const pages = vi.hoisted(() => ({}) as Record<string, unknown>);
vi.mock('@/app/pages', () => ({ PAGES: pages }));
beforeEach(async () => {
  const real = await vi.importActual<typeof import('@/app/pages')>('@/app/pages');
  for (const key of Object.keys(pages)) delete pages[key];
  Object.assign(pages, real.PAGES);
});

const TOTALS: Record<string, number> = { '1': 1, '2': 1, '3': 3 };
const COUNTS = { total: 6, online: 4, offline: 1, alarm: 0, disabled: 0, expired: 1, notEnabled: 0, scrapped: 1 };

function server(notice: { noticeId: number; noticeContent: string } | null = {
  noticeId: 3,
  noticeContent: '<p><strong>Scheduled maintenance</strong></p><script>window.bad = 1</script>',
}) {
  return fakeServer({
    'GET /device/Device/getExpiredServiceDevice': (call: Call) =>
      envelope({ list: [], total: TOTALS[call.params.get('expiredFlag') ?? ''] ?? 0 }),
    'POST /base/BaseNotice/queryNotice': () => envelope(notice),
    'GET /device/Device/homeCounts': () => envelope(COUNTS),
  });
}

function DialogState() {
  const { isOpen, flag } = useExpiredDialogState();
  return <output data-testid="dialog-state">{isOpen ? `open ${flag}` : 'closed'}</output>;
}

beforeAll(setUpI18n);
afterEach(() => {
  act(() => closeExpiredDialog());
  session.clear();
  vi.restoreAllMocks();
});

describe('HomePage', () => {
  it('greets the user by name', async () => {
    server();
    signIn();
    renderApp(<HomePage />);
    expect(screen.getByTestId('home-page')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(/^Good (morning|afternoon|evening), alice$/);
  });

  it('prefers the real name when there is one', () => {
    server();
    signIn(accountInfo({}, { baseAccount: { id: 7, userName: 'alice', realName: 'Alice Chen', company: null, accountPhoto: null, phone: null, email: null, accountType: 1, language: null, timeZone: null } }));
    renderApp(<HomePage />);
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Alice Chen');
  });

  it('counts devices per expiry state with one-row pages of the caller’s devices', async () => {
    const api = server();
    signIn();
    renderApp(<HomePage />);
    await waitFor(() => expect(screen.getByTestId('home-tile-expiring90')).toHaveTextContent('3'));
    expect(screen.getByTestId('home-tile-expired')).toHaveTextContent('1Expired');
    expect(screen.getByTestId('home-tile-expiring')).toHaveTextContent('1Expiring within 30 days');
    const calls = api.callsTo('GET /device/Device/getExpiredServiceDevice');
    expect(calls.map((c) => c.params.get('expiredFlag')).sort()).toEqual(['1', '2', '3']);
    for (const call of calls) {
      expect(call.params.get('pageSize')).toBe('1');
      expect(call.params.get('accountId')).toBe('7');
    }
  });

  it.each([
    ['home-tile-expired', 'open 1'],
    ['home-tile-expiring', 'open 2'],
    ['home-tile-expiring90', 'open 3'],
  ])('%s opens the expired-service dialog with its filter', async (testId, state) => {
    server();
    const user = userEvent.setup();
    signIn();
    renderApp(
      <>
        <HomePage />
        <DialogState />
      </>,
    );
    await user.click(screen.getByTestId(testId));
    expect(screen.getByTestId('dialog-state')).toHaveTextContent(state);
  });

  it('says all is well when nothing expires within 90 days', async () => {
    fakeServer({
      'GET /device/Device/getExpiredServiceDevice': () => envelope({ list: [], total: 0 }),
      'POST /base/BaseNotice/queryNotice': () => envelope(null),
    });
    signIn();
    renderApp(<HomePage />);
    expect(await screen.findByText(/in good standing/)).toBeInTheDocument();
    expect(await screen.findByText('No notices right now')).toBeInTheDocument();
  });

  it('shows the current notice, sanitized', async () => {
    server();
    signIn();
    renderApp(<HomePage />);
    const notice = screen.getByTestId('home-notice');
    expect(await within(notice).findByText('Scheduled maintenance')).toBeInTheDocument();
    expect(notice.querySelector('script')).toBeNull();
  });

  it('shows the membership state, without a way to the VIP service until its page exists', () => {
    server();
    signIn(accountInfo({}, { premiumState: { state: 1, expiredCount: 200 } }));
    const before = renderApp(<HomePage />);
    expect(screen.getByText('Premium')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Renew' })).toBeNull();
    before.unmount();

    pages.vipService = pages.home;
    const { unmount } = renderApp(<HomePage />);
    expect(screen.getByText('Premium')).toBeInTheDocument();
    expect(screen.getByText('days of premium left')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Renew' })).toHaveAttribute('href', '/vip/service');
    unmount();

    signIn(accountInfo({}, { premiumState: { state: 0, expiredCount: 0 } }));
    renderApp(<HomePage />);
    expect(screen.getByText('Standard')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open premium' })).toBeInTheDocument();
  });

  it('links to the pages the user may open that are built, at most eight', () => {
    server();
    const held = ['home', 'device.list', 'mall', 'asset.list', 'consumer.info', 'consumer.recharge',
      'organization.list', 'message.list', 'operation.log'];
    signIn(accountInfo(), held);
    const built = renderApp(<HomePage />);
    const hrefs = screen.getAllByTestId('home-quick-link').map((l) => l.getAttribute('href'));
    expect(hrefs[0]).toBe('/message/list');
    expect(hrefs).toContain('/device/list');
    expect(hrefs).toContain('/consumer/recharge');
    expect(hrefs).not.toContain('/home');
    expect(hrefs).not.toContain('/mall/center'); // not built: offered to nobody
    built.unmount();

    for (const name of ['mallCenter', 'assetList', 'consumerInfo', 'organizationList', 'operationLog']) pages[name] = pages.home;
    signIn(accountInfo(), held);
    renderApp(<HomePage />);
    const links = screen.getAllByTestId('home-quick-link');
    expect(links).toHaveLength(8);
    expect(links.map((l) => l.getAttribute('href'))).toContain('/mall/center');
  });

  it('shows an operator the counts across every customer instead of a customer’s tiles', async () => {
    const api = fakeServer({
      'GET /device/Device/operatorHomeCounts': () => envelope({
        customers: 3, devices: 1250, online: 1100, alarm: 4, ordersToday: 9, paidOrdersToday: 7,
        revenueToday: [{ currency: 'CNY', payFee: 1234567 }, { currency: 'USD', payFee: 1990 }],
      }),
    });
    signIn(accountInfo({}, { permissionRoutes: ['home', 'message.list', 'dataBoard'] }), ['home', 'message.list', 'dataBoard']);
    renderApp(<HomePage />);
    expect(screen.getByTestId('operator-home')).toBeInTheDocument();
    expect(screen.queryByTestId('home-page')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('operator-devices')).toHaveTextContent('1,250Devices'));
    expect(screen.getByTestId('operator-customers')).toHaveTextContent('3Customers');
    expect(screen.getByTestId('operator-alarm')).toHaveTextContent('4Alarming');
    expect(screen.getByTestId('operator-ordersToday')).toHaveTextContent('9Orders today');
    expect(screen.getByTestId('operator-revenue')).toHaveTextContent('¥12,345.67$19.90Revenue today');
    expect(api.callsTo('GET /device/Device/homeCounts')).toHaveLength(0);
    expect(api.callsTo('GET /device/Device/getExpiredServiceDevice')).toHaveLength(0);
  });

  it.each([
    ['CNY', '¥0.00Revenue today'],
    ['USD', '$0.00Revenue today'],
  ])('shows no revenue yet today as nought in the edition’s currency (%s)', async (currency, shown) => {
    const original = editionConfig();
    setEditionConfig({ ...original, currency });
    try {
      fakeServer({
        'GET /device/Device/operatorHomeCounts': () => envelope({
          customers: 3, devices: 8, online: 6, alarm: 1, ordersToday: 0, paidOrdersToday: 0, revenueToday: [],
        }),
      });
      signIn(accountInfo({}, { permissionRoutes: ['home', 'dataBoard'] }), ['home', 'dataBoard']);
      renderApp(<HomePage />);
      await waitFor(() => expect(screen.getByTestId('operator-revenue')).toHaveTextContent(shown));
    } finally {
      setEditionConfig(original);
    }
  });

  it('shows dashes on the operator home when the counts cannot be loaded', async () => {
    fakeServer({ 'GET /device/Device/operatorHomeCounts': () => envelope(null, 403, 403, 'Forbidden') });
    signIn(accountInfo({}, { permissionRoutes: ['home', 'dataBoard'] }), ['home', 'dataBoard']);
    renderApp(<HomePage />);
    await waitFor(() => expect(screen.getByTestId('operator-customers')).toHaveTextContent('—'));
  });

  it('counts the devices by state, each tile opening the list filtered that way', async () => {
    const api = server();
    signIn();
    renderApp(<HomePage />);
    await waitFor(() => expect(screen.getByTestId('home-count-total')).toHaveTextContent('6All devices'));
    expect(api.callsTo('GET /device/Device/homeCounts')).toHaveLength(1);
    const expected: [string, string, string | null][] = [
      ['total', '6', '/device/list'],
      ['online', '4', '/device/list?status=online'],
      ['offline', '1', '/device/list?status=offline'],
      ['alarm', '0', '/device/list?status=alarm'],
      ['disabled', '0', '/device/list?status=disabled'],
      ['expired', '1', '/device/list?service=expired'],
      ['notEnabled', '0', null], // the list has no filter for devices that never reported
      ['scrapped', '1', '/device/list?status=scrapped'],
    ];
    for (const [count, value, href] of expected) {
      const tile = screen.getByTestId(`home-count-${count}`);
      expect(tile).toHaveTextContent(value);
      expect(tile.getAttribute('href')).toBe(href);
    }
  });

  it('shows the counts without links to an account that may not open the list', async () => {
    server();
    signIn(accountInfo({}, { permissionRoutes: ['home'] }), ['home']);
    renderApp(<HomePage />);
    await waitFor(() => expect(screen.getByTestId('home-count-online')).toHaveTextContent('4'));
    expect(screen.getByTestId('home-count-online').tagName).toBe('DIV');
  });

  it('shows dashes when the counts cannot be loaded', async () => {
    fakeServer({
      'GET /device/Device/getExpiredServiceDevice': () => envelope({ list: [], total: 0 }),
      'POST /base/BaseNotice/queryNotice': () => envelope(null),
      'GET /device/Device/homeCounts': () => envelope(null, 500, 500, 'boom'),
    });
    signIn();
    renderApp(<HomePage />);
    await waitFor(() => expect(screen.getByTestId('home-count-total')).toHaveTextContent('—'));
  });
});

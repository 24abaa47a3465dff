import { screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import type { DeviceCheck, Purchase, PurchaseDetail } from './api/offline';
import { splitGuids } from './guids';
import OfflineBuyPage from './OfflineBuyPage';
import { amountOf, EMPTY_FORM, recordSchema } from './recordForm';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const BUY = ['query', 'detail', 'add', 'delete', 'export'].map((a) => `order.offlinebuy:${a}`);
const CATALOGUE = ['order.servicePackage', 'order.servicePackage:query'];
const ALL = ['home', 'order.offlinebuy', ...BUY, ...CATALOGUE];
const page = <T,>(rows: T[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });

function purchase(change: Partial<Purchase> = {}): Purchase {
  return {
    offlineId: 12, customerId: 3, customerName: 'alice', levelId: 21, levelName: 'Basic', levelYearId: 31, timeLength: 12,
    smsCount: 0, voiceCount: 0, amount: 198000, currency: 'CNY', payType: 61, remark: 'Contract 2026-17', status: 1,
    createdBy: 'operator', gmtCreate: '2026-11-27T10:15:00+08:00', reviewedBy: null, reviewedAt: null, reviewNote: null,
    orderId: null, deviceCount: 2, rechargedCount: 0, failedCount: 0, ...change,
  };
}

function detail(change: Partial<PurchaseDetail> = {}): PurchaseDetail {
  return {
    ...purchase(),
    devices: [
      { guid: 'RCW360A0000001', deviceId: 11, deviceName: 'Cold room A logger', state: 0, reason: null, expireTimeBefore: null,
        expireTimeAfter: null },
      { guid: 'RCW360A0000002', deviceId: 12, deviceName: 'Cold room B logger', state: 0, reason: null, expireTimeBefore: null,
        expireTimeAfter: null },
    ],
    ...change,
  };
}

const row = (n: number, guid: string, problem: number | null = null, message: string | null = null) => ({
  row: n, guid, deviceId: problem ? null : 10 + n, deviceName: problem ? null : `Logger ${n}`, problem, message,
});
const checked = (rows: ReturnType<typeof row>[]): DeviceCheck => ({
  customerId: 3, customerName: 'alice', rows, valid: rows.filter((r) => r.problem === null).length,
});

const catalogue = {
  'POST /payment/PayServicePackages/selectPackagesList': () => page([{ id: 5, packageName: 'Standard cloud plan' }]),
  'GET /payment/PayServiceLevel/selectServiceLevels': () => envelope([
    { levelId: 21, levelName: 'Basic', options: [
      { id: 31, timeLength: 12, currency: 'CNY' }, { id: 32, timeLength: 24, currency: 'CNY' }, { id: 41, timeLength: 12, currency: 'USD' },
    ] },
  ]),
};

describe('the offline purchase form', () => {
  const t = i18next.getFixedT('en-US');
  const parse = (change: Partial<typeof EMPTY_FORM>) => recordSchema(t).safeParse({ ...EMPTY_FORM, customer: 'alice',
    smsCount: '100', amount: '1980.00', guidsText: 'RCW360A0000001', ...change });

  it('reads the amount exactly into cents, whatever a float would make of it', () => {
    expect(amountOf({ ...EMPTY_FORM, amount: '1980.00' })).toBe(198000);
    expect(amountOf({ ...EMPTY_FORM, amount: '0.29' })).toBe(29);
    expect(amountOf({ ...EMPTY_FORM, amount: '19.99' })).toBe(1999);
    expect(parse({ amount: '19.999' }).success).toBe(false);
    expect(parse({ amount: '-1' }).success).toBe(false);
  });

  it('takes the GUIDs one a line or separated by commas, and asks for a level or counts', () => {
    expect(splitGuids('RCW360A0000001\nRCW360A0000002, RCW360A0000003;RCW360A0000004\n\n')).toEqual(
      ['RCW360A0000001', 'RCW360A0000002', 'RCW360A0000003', 'RCW360A0000004']);
    expect(parse({}).success).toBe(true);
    expect(parse({ smsCount: '' }).error?.issues.map((i) => i.path.join('.'))).toEqual(['levelId']);
    expect(parse({ smsCount: '', levelId: '21' }).error?.issues.map((i) => i.path.join('.'))).toEqual(['levelYearId']);
    expect(parse({ guidsText: ' , ' }).error?.issues.map((i) => i.path.join('.'))).toEqual(['guidsText']);
    expect(parse({ source: 'sheet', guidsText: '' }).success).toBe(true);
  });
});

describe('the offline purchases page', () => {
  it('records a purchase only once every row of the check can be recharged, the amount in exact cents', async () => {
    let checks = 0;
    const server = fakeServer({
      ...catalogue,
      'POST /payment/PayOfflineDeviceService/selectOfflineList': () => page([]),
      'POST /payment/PayOfflineDeviceService/addDeviceList': () => {
        checks += 1;
        return envelope(checks === 1
          ? checked([row(1, 'RCW360A0000001'), row(2, 'RCW360A0000009', 2, "The device is not the customer's")])
          : checked([row(1, 'RCW360A0000001'), row(2, 'RCW360A0000002')]));
      },
      'POST /payment/PayOfflineDeviceService/insert': () => envelope(detail()),
      'GET /payment/PayOfflineDeviceService/selectOfflineServiceList': () => envelope(detail()),
    });
    signIn(accountInfo({}, { permissionRoutes: ALL }), ALL);
    renderApp(<OfflineBuyPage />, '/operation/offlinebuy');
    const user = userEvent.setup();
    expect(await screen.findByText('No offline purchase matches the search')).toBeInTheDocument();
    await user.click(screen.getByTestId('ol-new'));

    await user.type(await screen.findByTestId('ol-customer'), 'alice');
    await waitFor(() => expect(screen.getByTestId('ol-package')).toHaveTextContent('Standard cloud plan'));
    await user.selectOptions(screen.getByTestId('ol-package'), '5');
    await waitFor(() => expect(screen.getByTestId('ol-level')).toHaveTextContent('Basic'));
    await user.selectOptions(screen.getByTestId('ol-level'), '21');
    // the service times priced in the edition's currency (CNY), not the dollar one
    expect(within(screen.getByTestId('ol-time')).getAllByRole('option').map((o) => o.textContent)).toEqual(
      ['Choose…', '12 months', '24 months']);
    await user.selectOptions(screen.getByTestId('ol-time'), '31');
    await user.type(screen.getByTestId('ol-amount'), '1980.00');
    await user.selectOptions(screen.getByTestId('ol-paytype'), '61');
    await user.type(screen.getByTestId('ol-remark'), 'Contract 2026-17');
    await user.type(screen.getByTestId('ol-guids'), 'RCW360A0000001,RCW360A0000009');
    expect(screen.getByTestId('ol-record')).toBeDisabled();

    await user.click(screen.getByTestId('ol-check'));
    const report = await screen.findByTestId('ol-report');
    expect(within(report).getByTestId('ol-report-summary')).toHaveTextContent('1 of 2 rows cannot be recharged');
    expect(within(report).getByTestId('ol-problem')).toHaveTextContent("The device is not the customer's");
    expect(within(report).getAllByTestId('ol-report-row')[1]).toHaveTextContent('RCW360A0000009');
    expect(screen.getByTestId('ol-record')).toBeDisabled();
    expect(server.callsTo('POST /payment/PayOfflineDeviceService/addDeviceList')[0]?.body).toEqual({
      customer: 'alice', levelId: 21, levelYearId: 31, smsCount: 0, voiceCount: 0, guids: ['RCW360A0000001', 'RCW360A0000009'],
    });

    // the list changed: the report no longer stands for it, until checked again
    await user.clear(screen.getByTestId('ol-guids'));
    await user.type(screen.getByTestId('ol-guids'), 'RCW360A0000001{enter}RCW360A0000002');
    expect(screen.getByTestId('ol-report-stale')).toBeInTheDocument();
    await user.click(screen.getByTestId('ol-check'));
    await waitFor(() => expect(screen.getByTestId('ol-report-summary')).toHaveTextContent('All 2 devices of alice can be recharged'));
    expect(screen.getByTestId('ol-record')).toBeEnabled();
    await user.click(screen.getByTestId('ol-record'));

    await waitFor(() => expect(server.callsTo('POST /payment/PayOfflineDeviceService/insert')).toHaveLength(1));
    expect(server.callsTo('POST /payment/PayOfflineDeviceService/insert')[0]?.body).toEqual({
      customer: 'alice', levelId: 21, levelYearId: 31, smsCount: 0, voiceCount: 0, guids: ['RCW360A0000001', 'RCW360A0000002'],
      amount: 198000, payType: 61, remark: 'Contract 2026-17',
    });
    // the recorded purchase opens, awaiting review
    const drawer = await screen.findByTestId('ol-drawer');
    expect(within(drawer).getByTestId('ol-status')).toHaveTextContent('Awaiting review');
    expect(await within(drawer).findAllByTestId('ol-device')).toHaveLength(2);
  });

  it("shows insert's refusal row by row, and records nothing", async () => {
    fakeServer({
      ...catalogue,
      'POST /payment/PayOfflineDeviceService/selectOfflineList': () => page([]),
      'POST /payment/PayOfflineDeviceService/addDeviceList': () => envelope(checked([row(1, 'RCW360A0000001')])),
      'POST /payment/PayOfflineDeviceService/insert': () => envelope({ rows: [{ row: 1, guid: 'RCW360A0000001', problem: 2,
        message: "The device is not the customer's" }] }, 422, 422, '1 of the devices cannot be recharged: see each row'),
    });
    signIn(accountInfo({}, { permissionRoutes: ALL }), ALL);
    renderApp(<OfflineBuyPage />, '/operation/offlinebuy');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('ol-new'));
    await user.type(await screen.findByTestId('ol-customer'), 'alice');
    await user.type(screen.getByTestId('ol-smsCount'), '100');
    await user.type(screen.getByTestId('ol-amount'), '45');
    await user.type(screen.getByTestId('ol-guids'), 'RCW360A0000001');
    await user.click(screen.getByTestId('ol-check'));
    await waitFor(() => expect(screen.getByTestId('ol-record')).toBeEnabled());
    await user.click(screen.getByTestId('ol-record'));

    await waitFor(() => expect(screen.getByTestId('ol-report-summary')).toHaveTextContent('1 of the devices cannot be recharged'));
    expect(screen.getByTestId('ol-problem')).toHaveTextContent("The device is not the customer's");
    expect(screen.getByTestId('ol-record')).toBeDisabled();
    expect(screen.getByTestId('ol-record-form')).toBeInTheDocument();
  });

  it('checks an uploaded sheet with the same fields, the template a click away', async () => {
    const server = fakeServer({
      ...catalogue,
      'POST /payment/PayOfflineDeviceService/selectOfflineList': () => page([]),
      'POST /payment/PayOfflineDeviceService/getPackageByFile': () => envelope(checked([row(2, 'RCW360A0000001'),
        row(3, 'NOPE', 1, 'No device has this GUID')])),
    });
    signIn(accountInfo({}, { permissionRoutes: ALL }), ALL);
    renderApp(<OfflineBuyPage />, '/operation/offlinebuy');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('ol-new'));
    await user.type(await screen.findByTestId('ol-customer'), 'alice');
    await user.type(screen.getByTestId('ol-voiceCount'), '50');
    await user.type(screen.getByTestId('ol-amount'), '15');
    await user.click(screen.getByRole('radio', { name: 'Upload a sheet' }));
    expect(screen.getByTestId('ol-template')).toBeInTheDocument();
    await user.click(screen.getByTestId('ol-check'));
    expect(await screen.findByText('Choose the sheet to check')).toBeInTheDocument();
    await user.upload(screen.getByTestId('ol-file'), new File(['PK'], 'devices.xlsx'));
    await user.click(screen.getByTestId('ol-check'));

    expect(await screen.findByTestId('ol-problem')).toHaveTextContent('No device has this GUID');
    expect(screen.getAllByTestId('ol-report-row').map((r) => r.textContent)).toEqual([
      expect.stringContaining('RCW360A0000001'), expect.stringContaining('NOPE')]);
    const sent = server.spy.mock.calls.find(([input]) => String(input).includes('getPackageByFile'))?.[1]?.body as FormData;
    expect(sent.get('customer')).toBe('alice');
    expect(sent.get('voiceCount')).toBe('50');
    expect(sent.get('smsCount')).toBe('0');
    expect(sent.has('levelId')).toBe(false);
    expect((sent.get('file') as File).name).toBe('devices.xlsx');
    expect(screen.getByTestId('ol-record')).toBeDisabled();
  });

  it('lists purchases with their counts, opens one with its devices and deletes it after a confirmation', async () => {
    const approved = purchase({ offlineId: 11, status: 2, rechargedCount: 1, failedCount: 1, reviewedBy: 'admin',
      reviewedAt: '2026-11-27T11:00:00+08:00' });
    const server = fakeServer({
      'POST /payment/PayOfflineDeviceService/selectOfflineList': (call) => {
        const { status } = call.body as { status?: number };
        return page(status === 2 ? [approved] : [purchase(), approved]);
      },
      'GET /payment/PayOfflineDeviceService/selectOfflineServiceList': (call) => envelope(call.params.get('offlineId') === '11'
        ? detail({ ...approved, devices: [
          { guid: 'RCW360A0000001', deviceId: 11, deviceName: 'Cold room A logger', state: 1, reason: null,
            expireTimeBefore: '2027-06-01T12:00:00+08:00', expireTimeAfter: '2028-06-01T12:00:00+08:00' },
          { guid: 'RCW360A0000002', deviceId: null, deviceName: null, state: 2, reason: 'The device was deleted before the approval',
            expireTimeBefore: null, expireTimeAfter: null }] })
        : detail()),
      'DELETE /payment/PayOfflineDeviceService/delete/list': () => envelope(null),
    });
    signIn(accountInfo({}, { permissionRoutes: ALL }), ALL);
    renderApp(<OfflineBuyPage />, '/operation/offlinebuy');
    const user = userEvent.setup();
    const rows = await screen.findAllByTestId('ol-row');
    expect(rows).toHaveLength(2);
    expect(screen.getByTestId('ol-total')).toHaveTextContent('2 purchases');
    expect(rows[0]).toHaveTextContent('¥1,980.00');
    expect(rows[0]).toHaveTextContent('Bank transfer');
    expect(rows[0]).toHaveTextContent('Basic · 12 months');
    expect(rows[1]).toHaveTextContent('1 recharged, 1 failed');

    await user.selectOptions(screen.getByTestId('ol-filter-status'), '2');
    await user.type(screen.getByTestId('ol-filter-guid'), ' RCW360A ');
    await user.click(screen.getByTestId('ol-search-submit'));
    await waitFor(() => expect(screen.getAllByTestId('ol-row')).toHaveLength(1));
    expect(server.callsTo('POST /payment/PayOfflineDeviceService/selectOfflineList').at(-1)?.body).toEqual(
      { start: 1, pageSize: 10, status: 2, guid: 'RCW360A' });
    await user.click(screen.getAllByTestId('ol-row')[0]!);
    let drawer = await screen.findByTestId('ol-drawer');
    const devices = await within(drawer).findAllByTestId('ol-device');
    expect(devices[0]).toHaveAttribute('data-state', '1');
    expect(within(devices[0]!).getByTestId('ol-expiry')).toHaveTextContent(/06\/01\/2027.*06\/01\/2028/);
    expect(within(devices[1]!).getByTestId('ol-reason')).toHaveTextContent('The device was deleted before the approval');
    expect(screen.queryByTestId('ol-delete')).not.toBeInTheDocument(); // reviewed: it stays
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('ol-drawer')).not.toBeInTheDocument(), { timeout: 5000 });

    await user.click(screen.getByTestId('ol-clear'));
    await waitFor(() => expect(screen.getAllByTestId('ol-row')).toHaveLength(2));
    await user.click(screen.getAllByTestId('ol-row')[0]!);
    drawer = await screen.findByTestId('ol-drawer');
    await within(drawer).findAllByTestId('ol-device');
    await user.click(screen.getByTestId('ol-delete'));
    expect(await screen.findByTestId('ol-delete-confirm')).toHaveTextContent('Delete offline purchase 12 of alice for 2 devices?');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(server.callsTo('DELETE /payment/PayOfflineDeviceService/delete/list')).toHaveLength(1));
    expect(server.callsTo('DELETE /payment/PayOfflineDeviceService/delete/list')[0]?.params.get('offlineId')).toBe('12');
  });

  it('offers SMS and voice counts only to an operator who cannot read the catalogue', async () => {
    const noCatalogue = ['home', 'order.offlinebuy', ...BUY];
    const server = fakeServer({ 'POST /payment/PayOfflineDeviceService/selectOfflineList': () => page([]) });
    signIn(accountInfo({}, { permissionRoutes: noCatalogue }), noCatalogue);
    renderApp(<OfflineBuyPage />, '/operation/offlinebuy');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('ol-new'));
    expect(await screen.findByTestId('ol-no-catalogue')).toBeInTheDocument();
    expect(screen.queryByTestId('ol-level')).not.toBeInTheDocument();
    expect(screen.getByTestId('ol-smsCount')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.path.includes('PayService'))).toEqual([]);
  });

  it('offers neither recording, deleting nor export without their permissions', async () => {
    const readOnly = ['home', 'order.offlinebuy', 'order.offlinebuy:query', 'order.offlinebuy:detail'];
    fakeServer({
      'POST /payment/PayOfflineDeviceService/selectOfflineList': () => page([purchase()]),
      'GET /payment/PayOfflineDeviceService/selectOfflineServiceList': () => envelope(detail()),
    });
    signIn(accountInfo({}, { permissionRoutes: readOnly }), readOnly);
    renderApp(<OfflineBuyPage />, '/operation/offlinebuy');
    const user = userEvent.setup();
    await user.click((await screen.findAllByTestId('ol-row'))[0]!);
    expect(await screen.findByText('Cold room A logger')).toBeInTheDocument();
    expect(screen.queryByTestId('ol-delete')).not.toBeInTheDocument();
    expect(screen.queryByTestId('ol-export')).not.toBeInTheDocument();
    expect(screen.queryByTestId('ol-new')).not.toBeInTheDocument();
  });
});

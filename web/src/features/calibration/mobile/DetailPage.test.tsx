import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rememberAccess, type Application } from '@/lib/api/calibration';
import { editionConfig, setEditionConfig } from '@/lib/config';
import { envelope, fakeServer, renderRoute, setUpI18n } from '@/test/harness';
import DetailPage from './DetailPage';

beforeAll(setUpI18n);
afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

const NUMBER = 'CAL20261127ABCD2345';
const domestic = editionConfig();

function application(change: Partial<Application> = {}): Application {
  return {
    applicationId: null, applicationNumber: NUMBER, status: 2, quickOrder: false, handled: true, currency: 'CNY',
    totalFee: 24_000, paidFee: 24_000, refundFee: 0, refundState: 0, inboundTracking: null, outboundTracking: null,
    createdAt: '2026-11-27T10:00:00+08:00', updatedAt: '2026-11-27T10:00:00+08:00', paidAt: '2026-11-27T10:05:00+08:00',
    cancelledAt: null, details: null, ...change,
    devices: [{ index: 1, service: 1, deviceTypeId: 7, model: 'RC-5', serial: 'EL-1', price: 24_000, deviceId: null, pointsNote: null }],
  };
}

function routes(found: Application) {
  return {
    'GET /calibration/Application/get/applicationInfo': () => envelope(found),
    'POST /calibration/ResultInfo/queryResultList': () => envelope([]),
    'POST /calibration/Application/cancel/check': () => envelope({ possible: true, reason: null, refundFee: 24_000 }),
    'POST /calibration/Application/cancel/apply': () => envelope({ application: { ...found, status: 7 }, refundFee: 24_000,
      refundState: 1 }),
    'POST /calibration/Application/trackingNumber': () => envelope({ ...found, status: 3, inboundTracking: 'SF1234567' }),
    'GET /calibration/Application/getUserInvoice': () => envelope(null),
    'POST /calibration/Application/update/baseInfo': () => envelope(found),
    'POST /calibration/Application/update/invoice': () => envelope(found),
  };
}

const show = () => renderRoute(<DetailPage />, '/mobile/calibration/detail/:applicationId', `/mobile/calibration/detail/${NUMBER}`);

/** The X-Calibration-Token header of the calls to `path`. */
function tokensSentTo(spy: ReturnType<typeof fakeServer>['spy'], path: string): (string | undefined)[] {
  return spy.mock.calls.filter(([url]) => String(url).includes(path))
    .map(([, init]) => (init?.headers as Record<string, string>)['X-Calibration-Token']);
}

describe('an application\'s detail without an account', () => {
  it('shows the ladder and certificates but offers no action without the token', async () => {
    fakeServer(routes(application()));
    show();
    await screen.findByTestId('calibration-ladder');
    expect(screen.getByRole('listitem', { current: 'step' })).toHaveTextContent('Paid');
    expect(screen.queryByTestId('calibration-tracking')).toBeNull();
    expect(screen.queryByTestId('calibration-cancel')).toBeNull();
    expect(screen.getByText('No certificate issued yet.')).toBeInTheDocument();
  });

  it('takes the inbound tracking number with the token kept for the number', async () => {
    rememberAccess(NUMBER, 'secret');
    const server = fakeServer(routes(application()));
    show();
    const user = userEvent.setup();
    const input = await screen.findByLabelText('Tracking number of your parcel');
    await user.type(input, 'SF 1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A tracking number is 4 to 40 letters, digits and dashes')).toBeInTheDocument();
    expect(server.callsTo('POST /calibration/Application/trackingNumber')).toHaveLength(0);
    await user.clear(input);
    await user.type(input, 'SF1234567');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.callsTo('POST /calibration/Application/trackingNumber')).toHaveLength(1));
    expect(server.callsTo('POST /calibration/Application/trackingNumber')[0]!.body)
      .toEqual({ applicationNumber: NUMBER, trackingNumber: 'SF1234567', outbound: false });
    expect(tokensSentTo(server.spy, 'trackingNumber')).toEqual(['secret']);
  });

  it('checks a cancellation first and says what is paid back', async () => {
    rememberAccess(NUMBER, 'secret');
    const server = fakeServer(routes(application()));
    show();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('calibration-cancel'));
    expect(await screen.findByText(`Cancel application ${NUMBER}? ¥240.00 will be paid back.`)).toBeInTheDocument();
    expect(server.callsTo('POST /calibration/Application/cancel/apply')).toHaveLength(0);
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel the application' }));
    await waitFor(() => expect(server.callsTo('POST /calibration/Application/cancel/apply')).toHaveLength(1));
    expect(server.callsTo('POST /calibration/Application/cancel/check')[0]!.body).toEqual({ applicationNumber: NUMBER });
    expect(tokensSentTo(server.spy, 'cancel/')).toEqual(['secret', 'secret']);
  });

  it('offers the pay step while unpaid', async () => {
    rememberAccess(NUMBER, 'secret');
    fakeServer(routes(application({ status: 1, paidFee: 0, paidAt: null })));
    show();
    expect(await screen.findByTestId('calibration-pay-aliPay')).toBeInTheDocument();
    expect(screen.getByTestId('calibration-pay-wechatPay')).toBeInTheDocument();
  });

  it('offers PayPal in the international edition and goes to its approval page', async () => {
    setEditionConfig({ ...domestic, edition: 'international', currency: 'USD', payTypes: [20, 30, 40] });
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    rememberAccess(NUMBER, 'secret');
    const server = fakeServer({
      ...routes(application({ status: 1, paidFee: 0, paidAt: null, currency: 'USD' })),
      'POST /payment/payment/calibrationPay': () => envelope({ applicationNumber: NUMBER, payType: 20, scene: 'native',
        totalFee: 24_000, currency: 'USD', approveUrl: 'https://paypal.example/approve?token=T1' }),
    });
    try {
      show();
      await userEvent.setup().click(await screen.findByTestId('calibration-pay-paypal'));
      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://paypal.example/approve?token=T1'));
      expect(screen.queryByTestId('calibration-pay-aliPay')).toBeNull();
      expect(server.callsTo('POST /payment/payment/calibrationPay')[0]!.body).toEqual({ applicationNumber: NUMBER, payType: 20 });
    } finally {
      setEditionConfig(domestic);
      vi.unstubAllGlobals();
    }
  });

  it('changes the details and then the invoice until the lab holds the devices', async () => {
    rememberAccess(NUMBER, 'secret');
    const details = { customerName: 'Fresh Logistics', contactName: 'Li Wei', contactPhone: '13800001234', contactEmail: null,
      returnAddress: '12 Gangcheng Road', customerAddress: null, remark: null, invoice: null };
    const server = fakeServer(routes(application({ details })));
    show();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('calibration-edit'));
    const name = await screen.findByTestId('calibration-contactName');
    await waitFor(() => expect(name).toHaveValue('Li Wei'));
    await user.clear(name);
    await user.type(name, 'Wang Fang');
    await user.click(screen.getByTestId('calibration-wantInvoice'));
    await user.click(screen.getByLabelText('Enterprise'));
    await user.type(screen.getByTestId('calibration-invoiceTitle'), 'Fresh Logistics');
    await user.click(screen.getByTestId('calibration-edit-save'));
    expect(await screen.findByTestId('calibration-taxNumber-error')).toHaveTextContent('This field is required');
    await user.type(screen.getByTestId('calibration-taxNumber'), '91310000MA1K000000');
    await user.click(screen.getByTestId('calibration-edit-save'));
    await waitFor(() => expect(server.callsTo('POST /calibration/Application/update/invoice')).toHaveLength(1));
    expect(server.callsTo('POST /calibration/Application/update/baseInfo')[0]!.body).toEqual({ applicationNumber: NUMBER,
      customerName: 'Fresh Logistics', contactName: 'Wang Fang', contactPhone: '13800001234', contactEmail: null,
      returnAddress: '12 Gangcheng Road', customerAddress: null, remark: null });
    expect(server.callsTo('POST /calibration/Application/update/invoice')[0]!.body).toEqual({ applicationNumber: NUMBER,
      invoice: { invoiceType: 2, invoiceTitle: 'Fresh Logistics', taxNumber: '91310000MA1K000000' } });
    expect(tokensSentTo(server.spy, 'update/')).toEqual(['secret', 'secret']);
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n, type Call } from '@/test/harness';
import { editionConfig, setEditionConfig } from '@/lib/config';
import { notify } from '@/lib/notify';
import type { AlertPackage } from './api/alerts';
import type { Bill } from './api/bills';
import { asServed, BILL } from './test/levelFixtures';
import { batchCountryCode, SmsVoiceDrawer, smsOrderBody, type RechargeDevice } from './SmsVoiceDrawer';

const domestic = { ...editionConfig() };
const international = { ...domestic, edition: 'international' as const, currency: 'USD', payTypes: [20, 30, 40], countryCode: '1', countryCodeFixed: false };

function pkg(packageId: number, smsCount: number, packageFee: number, discount = 100): AlertPackage {
  return asServed({ packageId, packageName: `${smsCount}`, packageFee, smsCount, discount, activityDiscount: null, price: Math.floor((packageFee * discount + 50) / 100) });
}

// The demo's domestic catalogue: SMS 100 / 500 (10 % off) / 1000 (10 % off), voice 50 / 200.
const PACKAGES = {
  smsList: [pkg(1, 100, 1000), pkg(2, 500, 4500, 90), pkg(3, 1000, 8000, 90)],
  voiceList: [pkg(4, 50, 1500), pkg(5, 200, 5000)],
};

const fridge: RechargeDevice = { deviceId: 1, deviceName: 'Cold room A logger', countryCode: '86', simIccid: null, smsCount: 120, voiceCount: 30 };
const roomB: RechargeDevice = { deviceId: 2, deviceName: 'Cold room B logger', countryCode: '86', simIccid: '89860012345678900001' };
const dock: RechargeDevice = { deviceId: 6, deviceName: 'Dock cold room', countryCode: null, simIccid: null };

const bill = BILL;

const placed = { orderId: 77, orderCode: 'A2026112200077', totalFee: 0, currency: 'CNY', payQrCode: 'weixin://wxpay/bizpayurl?pr=demo' };

function server({ payStatus = 1, bills = [bill] }: { payStatus?: number; bills?: Bill[] } = {}) {
  const order = (call: Call) => envelope({ ...placed, totalFee: (call.body as { totalFee: number }).totalFee });
  return fakeServer({
    'GET /payment/PaySmsPackages/selectSmsPackage': () => envelope(PACKAGES),
    'GET /base/BaseDict/queryByType': () =>
      envelope([
        { dataCode: '1', dataValue: '1', label: 'United States' },
        { dataCode: '44', dataValue: '44', label: 'United Kingdom' },
      ]),
    'POST /payment/PayOrder/createSmsOrder': order,
    'POST /payment/PayOrder/createBatchSmsOrder': order,
    'GET /payment/PayOrder/get': () => envelope({ orderId: 77, orderCode: placed.orderCode, payStatus, applyFlag: 0, totalFee: 1000 }),
    'POST /payment/PayUserBill/selectListByDomain': () => envelope(bills),
  });
}

const orders = (api: ReturnType<typeof server>) => [
  ...api.callsTo('POST /payment/PayOrder/createSmsOrder'),
  ...api.callsTo('POST /payment/PayOrder/createBatchSmsOrder'),
];

function open(devices: RechargeDevice[]) {
  const onClose = vi.fn();
  const onPaid = vi.fn();
  renderApp(<SmsVoiceDrawer isOpen devices={devices} onClose={onClose} onPaid={onPaid} />);
  return { onClose, onPaid };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 700));

beforeAll(setUpI18n);
afterEach(() => {
  vi.restoreAllMocks();
  setEditionConfig(domestic);
});

describe('batchCountryCode', () => {
  it('is 86 and locked domestically', () => {
    expect(batchCountryCode('domestic', [{ countryCode: null }])).toEqual({ code: '86', locked: true, mixed: false });
  });

  it('is 1 and open internationally for devices without one, and locked to theirs otherwise', () => {
    expect(batchCountryCode('international', [{ countryCode: null }])).toEqual({ code: '1', locked: false, mixed: false });
    expect(batchCountryCode('international', [{ countryCode: '44' }, { countryCode: null }])).toEqual({ code: '44', locked: true, mixed: false });
  });

  it('is mixed when the devices do not share a code', () => {
    expect(batchCountryCode('international', [{ countryCode: '1' }, { countryCode: '44' }]).mixed).toBe(true);
    expect(batchCountryCode('domestic', [{ countryCode: '1' }]).mixed).toBe(true);
  });
});

describe('smsOrderBody', () => {
  const base = { devices: [fridge], countryCode: '86', payType: 1 as const, invoice: { applyFlag: false, billId: null } };

  it('asks for nothing without a package, or with the invoice on and no bill', () => {
    expect(smsOrderBody({ ...base, sms: null, voice: null })).toBeNull();
    expect(smsOrderBody({ ...base, sms: PACKAGES.smsList[0]!, voice: null, invoice: { applyFlag: true, billId: null } })).toBeNull();
  });

  it('sends the listed fees and (SMS price + voice price) × devices', () => {
    expect(smsOrderBody({ ...base, devices: [fridge, roomB, dock], sms: PACKAGES.smsList[1]!, voice: PACKAGES.voiceList[0]!, invoice: { applyFlag: true, billId: 12 } })).toEqual({
      applyFlag: true,
      billId: 12,
      payType: 1,
      countryCode: '86',
      smsPackageId: 2,
      smsCount: 500,
      smsFee: 4500,
      voicePackageId: 4,
      voiceCount: 50,
      voiceFee: 1500,
      totalFee: (4050 + 1500) * 3,
      deviceIdList: [1, 2, 6],
    });
  });
});

describe('SmsVoiceDrawer', () => {
  it('is titled for one device, and "In Bulk" for several', async () => {
    server();
    open([fridge]);
    expect(await screen.findByText('Buy SMS and Voice Package')).toBeInTheDocument();
  });

  it('is titled "In Bulk" for several devices, and lists them', async () => {
    server();
    open([fridge, roomB]);
    expect(await screen.findByText('Buy SMS and Voice Package In Bulk')).toBeInTheDocument();
    const devices = screen.getByTestId('sms-devices');
    expect(devices).toHaveTextContent('2 devices');
    expect(devices).toHaveTextContent('Cold room B logger');
  });

  it('lists the packages with their count, price, listed price and discount badge', async () => {
    server();
    open([fridge]);
    const sms500 = await screen.findByTestId('sms-package-2');
    expect(sms500).toHaveTextContent('500 messages');
    expect(sms500).toHaveTextContent('¥40');
    expect(sms500).toHaveTextContent('¥45');
    expect(sms500).toHaveTextContent('10% off'); // the server's '9折', as English says it
    expect(screen.getByTestId('voice-package-4')).toHaveTextContent('50 calls');
    expect(within(screen.getByTestId('voice-package-4')).queryByText(/off/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Country code')).toHaveValue('+86');
    expect(screen.getByLabelText('Country code')).toBeDisabled();
  });

  it('orders nothing while no package is chosen', async () => {
    const api = server();
    open([fridge]);
    await screen.findByTestId('sms-package-1');
    await settle();
    expect(orders(api)).toHaveLength(0);
    expect(screen.getByTestId('payment-placeholder')).toHaveTextContent('Choose an SMS or voice package');
    expect(screen.getByTestId('payment-total')).toHaveTextContent('--');
  });

  it('orders a chosen package once the choice stands still for 500 ms, and shows its QR code', async () => {
    const api = server();
    const user = userEvent.setup();
    open([roomB]);
    await user.click(await screen.findByTestId('sms-package-1'));
    await user.click(screen.getByTestId('voice-package-5'));
    expect(screen.getByTestId('sms-package-1')).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByTestId('payment-qr')).toBeInTheDocument();
    expect(orders(api)).toHaveLength(1);
    expect(api.callsTo('POST /payment/PayOrder/createSmsOrder')[0]!.body).toEqual({
      applyFlag: false,
      payType: 1,
      countryCode: '86',
      smsPackageId: 1,
      smsCount: 100,
      smsFee: 1000,
      voicePackageId: 5,
      voiceCount: 200,
      voiceFee: 5000,
      totalFee: 6000,
      deviceId: 2,
      simIccid: '89860012345678900001',
    });
    expect(screen.getByTestId('payment-total')).toHaveTextContent('¥60');
  });

  it('offers only the pay types the server has switched on, and orders with them', async () => {
    setEditionConfig({ ...domestic, payTypes: [2] });
    const api = server();
    const user = userEvent.setup();
    open([roomB]);
    await user.click(await screen.findByTestId('sms-package-1'));
    expect(await screen.findByTestId('payment-qr')).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'WeChat Pay' })).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Alipay' })).toBeChecked();
    expect(api.callsTo('POST /payment/PayOrder/createSmsOrder')[0]!.body).toMatchObject({ payType: 2 });
  });

  it('says no pay type is available, and orders nothing, when the server offers none', async () => {
    setEditionConfig({ ...domestic, payTypes: [] });
    const api = server();
    const user = userEvent.setup();
    open([roomB]);
    await user.click(await screen.findByTestId('sms-package-1'));
    await settle();
    expect(orders(api)).toHaveLength(0);
    expect(screen.queryAllByRole('radio', { name: /WeChat Pay|Alipay/ })).toHaveLength(0);
    expect(screen.getByTestId('payment-placeholder')).toHaveTextContent('No payment method is available at the moment');
  });

  it('deselects a package chosen again, and then orders nothing', async () => {
    const api = server();
    const user = userEvent.setup();
    open([fridge]);
    const sms = await screen.findByTestId('sms-package-1');
    await user.click(sms);
    await user.click(sms);
    expect(sms).toHaveAttribute('aria-pressed', 'false');
    await settle();
    expect(orders(api)).toHaveLength(0);
    expect(screen.getByTestId('payment-placeholder')).toHaveTextContent('Choose an SMS or voice package');
  });

  it('charges a batch (SMS price + voice price) × devices', async () => {
    const api = server();
    const user = userEvent.setup();
    open([fridge, roomB, dock]);
    await user.click(await screen.findByTestId('sms-package-2'));
    await user.click(screen.getByTestId('voice-package-4'));
    expect(screen.getByTestId('sms-per-device')).toHaveTextContent('¥55 × 3');
    expect(screen.getByTestId('payment-total')).toHaveTextContent('¥166');
    await screen.findByTestId('payment-qr');
    expect(api.callsTo('POST /payment/PayOrder/createBatchSmsOrder')[0]!.body).toMatchObject({
      deviceIdList: [1, 2, 6],
      smsFee: 4500,
      voiceFee: 1500,
      totalFee: 16650,
    });
  });

  it('refuses a batch mixing country codes, and orders nothing', async () => {
    setEditionConfig(international);
    const api = server();
    const user = userEvent.setup();
    open([
      { ...fridge, countryCode: '1' },
      { ...roomB, countryCode: '44' },
    ]);
    expect(await screen.findByTestId('country-code-error')).toHaveTextContent(
      'Only devices sharing a country code can be recharged together',
    );
    expect(screen.queryByTestId('sms-package-1')).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'PayPal' }));
    await settle();
    expect(orders(api)).toHaveLength(0);
    expect(api.callsTo('GET /payment/PaySmsPackages/selectSmsPackage')).toHaveLength(0);
  });

  it('offers country code 1 internationally for a device without one, and the packages of the code chosen', async () => {
    setEditionConfig(international);
    const api = server();
    const user = userEvent.setup();
    open([dock]);
    const select = await screen.findByLabelText('Country code');
    expect(select).toHaveValue('1');
    await screen.findByRole('option', { name: '+44 United Kingdom' });
    await user.selectOptions(select, '44');
    await waitFor(() =>
      expect(api.callsTo('GET /payment/PaySmsPackages/selectSmsPackage').map((c) => c.params.get('countryCode'))).toEqual(['1', '44']),
    );
  });

  it('locks the country code internationally to the device\'s own', async () => {
    setEditionConfig(international);
    server();
    open([{ ...dock, countryCode: '44' }]);
    const input = await screen.findByLabelText('Country code');
    expect(input).toHaveValue('+44');
    expect(input).toBeDisabled();
  });

  it('orders with the invoice chosen, and nothing while none is', async () => {
    const api = server({ bills: [] });
    const user = userEvent.setup();
    open([fridge]);
    await user.click(await screen.findByTestId('sms-package-1'));
    await screen.findByTestId('payment-qr');
    await user.click(screen.getByRole('checkbox', { name: 'I need an invoice' }));
    expect(await screen.findByText('No invoice details saved yet')).toBeInTheDocument();
    await settle();
    expect(orders(api)).toHaveLength(1);
    expect(screen.getByTestId('payment-placeholder')).toHaveTextContent('Choose an invoice, or turn off the invoice option');
  });

  it('chooses the default invoice and sends its billId', async () => {
    const api = server();
    const user = userEvent.setup();
    open([fridge]);
    await user.click(await screen.findByRole('checkbox', { name: 'I need an invoice' }));
    await user.click(await screen.findByTestId('sms-package-1'));
    await screen.findByTestId('payment-qr');
    expect(screen.getByRole('combobox', { name: 'Choose invoice details' })).toHaveValue('12');
    expect(orders(api).at(-1)!.body).toMatchObject({ applyFlag: true, billId: 12 });
  });

  it('closes with a success notice once the order is paid', async () => {
    server({ payStatus: 2 });
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    const { onClose, onPaid } = open([fridge]);
    await user.click(await screen.findByTestId('sms-package-1'));
    await waitFor(() => expect(onPaid).toHaveBeenCalledOnce());
    expect(onClose).toHaveBeenCalled();
    expect(success).toHaveBeenCalledWith('Payment successful: the packages have been added.');
  });

  it('shows the server\'s refusal of the order', async () => {
    const api = server();
    api.spy.mockImplementation(async (input) =>
      String(input).includes('createSmsOrder')
        ? envelope(null, 1101, 409, 'The price has changed, please refresh and try again')
        : envelope(PACKAGES),
    );
    vi.spyOn(notify, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    open([fridge]);
    await user.click(await screen.findByTestId('sms-package-1'));
    expect(await screen.findByTestId('payment-error')).toHaveTextContent('The price has changed, please refresh and try again');
  });
});

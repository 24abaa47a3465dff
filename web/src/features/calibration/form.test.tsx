import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accessTokenOf, type Application, type Price } from '@/lib/api/calibration';
import { session } from '@/lib/session';
import { device, page as devicePage } from '@/test/devices';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import FormPage from './FormPage';
import { applicationSchema, applyBody, EMPTY_FORM, emptyDevice, type FormValues } from './form';
import { Pdf } from './mobile/MobilePages';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  localStorage.clear();
  vi.restoreAllMocks();
});

const PRICES: Price[] = [
  { deviceTypeId: 7, typeName: 'RC-5 logger', service: 1, currency: 'CNY', price: 12_000 },
  { deviceTypeId: 7, typeName: 'RC-5 logger', service: 2, currency: 'CNY', price: 18_000 },
];

const FILLED: FormValues = {
  ...EMPTY_FORM, customerName: 'Fresh Logistics', contactName: 'Li Wei', contactPhone: '+86 138 0000 1234',
  returnAddress: '12 Gangcheng Road', devices: [{ ...emptyDevice(7), model: 'RC-5', serialNumber: 'EL-1' }],
};

function application(change: Partial<Application> = {}): Application {
  return {
    applicationId: null, applicationNumber: 'CAL20261127ABCD2345', status: 1, quickOrder: false, handled: true,
    currency: 'CNY', totalFee: 24_000, paidFee: 0, refundFee: 0, refundState: 0, inboundTracking: null,
    outboundTracking: null, createdAt: '2026-11-27T10:00:00+08:00', updatedAt: '2026-11-27T10:00:00+08:00', paidAt: null,
    cancelledAt: null, devices: [], details: null, ...change,
  };
}

/** The messages the schema gives for `values`, by path. */
function problems(values: FormValues): Record<string, string> {
  const result = applicationSchema(i18n.getFixedT('en-US', 'calibration'), PRICES).safeParse(values);
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

describe('the application form\'s rules', () => {
  it('takes a filled application', () => {
    expect(problems(FILLED)).toEqual({});
  });

  it('asks for 1 to 50 devices', () => {
    expect(problems({ ...FILLED, devices: [] })).toEqual({ devices: 'Choose 1 to 50 devices' });
    const many = Array.from({ length: 51 }, (_, i) => ({ ...emptyDevice(7), model: 'RC-5', serialNumber: `EL-${i}` }));
    expect(problems({ ...FILLED, devices: many })).toEqual({ devices: 'Choose 1 to 50 devices' });
  });

  it('checks a typed device as the server does: type, model, serial format, once per application', () => {
    const typed = (change: Partial<FormValues['devices'][number]>) => problems({ ...FILLED, devices: [
      { ...emptyDevice(7), model: 'RC-5', serialNumber: 'EL-1' }, { ...emptyDevice(7), model: 'RC-5', serialNumber: 'EL-2', ...change }] });
    expect(typed({ deviceTypeId: null })).toEqual({ 'devices.1.deviceTypeId': 'This field is required' });
    expect(typed({ model: ' ' })).toEqual({ 'devices.1.model': 'This field is required' });
    expect(typed({ serialNumber: 'EL 2' })).toEqual({ 'devices.1.serialNumber': 'A serial number is 1 to 50 letters, digits and - _ . /' });
    expect(typed({ serialNumber: '-EL2' })).toEqual({ 'devices.1.serialNumber': 'A serial number is 1 to 50 letters, digits and - _ . /' });
    expect(typed({ serialNumber: 'el-1' })).toEqual({ 'devices.1.serialNumber': 'This device is on the application twice' });
    expect(typed({ serialNumber: 'EL-1', deviceId: 3, guid: 'ABC' })).toEqual({}); // a console device is named by id
  });

  it('wants the extra points named and the service priced for the type', () => {
    const line = (change: Partial<FormValues['devices'][number]>) =>
      problems({ ...FILLED, devices: [{ ...FILLED.devices[0]!, ...change }] });
    expect(line({ service: 2 })).toEqual({ 'devices.0.pointsNote': 'Say which extra points' });
    expect(line({ service: 2, pointsNote: '-20 °C' })).toEqual({});
    expect(line({ service: 3 })).toEqual({ 'devices.0.service': 'This service is not offered for this type' });
  });

  it('wants the customer, a contact way, a return address, and an enterprise invoice\'s tax number', () => {
    expect(problems({ ...FILLED, customerName: '', returnAddress: ' ' })).toEqual({
      customerName: 'This field is required', returnAddress: 'This field is required' });
    expect(problems({ ...FILLED, contactPhone: '' })).toEqual({ contactPhone: 'Give a phone number or an e-mail address' });
    expect(problems({ ...FILLED, contactPhone: '', contactEmail: 'li@fresh.example' })).toEqual({});
    expect(problems({ ...FILLED, contactPhone: '138 abc' })).toEqual({
      contactPhone: 'A phone number is up to 20 digits, with + - and spaces' });
    expect(problems({ ...FILLED, contactName: 'x'.repeat(31) })).toEqual({ contactName: 'At most 30 characters' });
    expect(problems({ ...FILLED, customerName: 'Ice 🧊' })).toEqual({
      customerName: 'Emoji and control characters are not allowed here' });
    const enterprise = { ...FILLED, wantInvoice: true, invoiceType: 2, invoiceTitle: 'Fresh Logistics' };
    expect(problems(enterprise)).toEqual({ taxNumber: 'This field is required' });
    expect(problems({ ...enterprise, taxNumber: '9131-0000' })).toEqual({ taxNumber: 'A tax number is 1 to 20 letters and digits' });
    expect(problems({ ...enterprise, taxNumber: '91310000MA1K000000' })).toEqual({});
    expect(problems({ ...enterprise, invoiceType: 1 })).toEqual({});
  });

  it('sends what apply takes, with the total shown', () => {
    const body = applyBody({ ...FILLED, devices: [...FILLED.devices, { ...emptyDevice(7), model: 'RC-5', serialNumber: 'EL-2',
      service: 2, pointsNote: ' -20 °C ' }] }, PRICES);
    expect(body.totalFee).toBe(30_000);
    expect(body.invoice).toBeNull();
    expect(body.devices).toEqual([
      { service: 1, pointsNote: null, deviceTypeId: 7, model: 'RC-5', serialNumber: 'EL-1' },
      { service: 2, pointsNote: '-20 °C', deviceTypeId: 7, model: 'RC-5', serialNumber: 'EL-2' },
    ]);
  });
});

describe('the PC form', () => {
  it('refuses an empty application, prices each line, applies without an account and keeps the token', async () => {
    const server = fakeServer({
      'GET /calibration/PriceConf/get/price': () => envelope(PRICES),
      'POST /calibration/Application/apply': () => envelope({ ...application(), accessToken: 'secret-token' }),
    });
    renderApp(<FormPage />, '/calibration/form');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('calibration-submit'));
    expect(await screen.findByText('Choose 1 to 50 devices')).toBeInTheDocument();
    expect(server.callsTo('POST /calibration/Application/apply')).toHaveLength(0);

    await user.click(screen.getByTestId('calibration-add'));
    await user.click(screen.getByTestId('calibration-add'));
    const lines = screen.getAllByTestId('calibration-line');
    for (const [index, line] of lines.entries()) {
      await user.selectOptions(within(line).getByTestId('calibration-type'), '7');
      await user.type(within(line).getByTestId('calibration-model'), 'RC-5');
      await user.type(within(line).getByTestId('calibration-serial'), `EL-${index + 1}`);
    }
    await user.selectOptions(within(lines[1]!).getByTestId('calibration-service'), '2');
    await user.type(within(lines[1]!).getByTestId('calibration-points'), '-20 °C');
    expect(within(lines[1]!).getByTestId('calibration-line-price').textContent).toContain('¥180.00');
    expect(screen.getByTestId('calibration-total').textContent).toContain('¥300.00');
    await user.type(screen.getByTestId('calibration-customerName'), 'Fresh Logistics');
    await user.type(screen.getByTestId('calibration-contactName'), 'Li Wei');
    await user.type(screen.getByTestId('calibration-contactEmail'), 'li@fresh.example');
    await user.type(screen.getByTestId('calibration-returnAddress'), '12 Gangcheng Road');
    await user.click(screen.getByTestId('calibration-submit'));

    await waitFor(() => expect(screen.getByTestId('location').textContent)
      .toBe('/calibration/preview?number=CAL20261127ABCD2345'));
    const [call] = server.callsTo('POST /calibration/Application/apply');
    expect(call!.body).toMatchObject({ customerName: 'Fresh Logistics', contactPhone: null, contactEmail: 'li@fresh.example',
      totalFee: 30_000, devices: [{ serialNumber: 'EL-1', service: 1 }, { serialNumber: 'EL-2', service: 2, pointsNote: '-20 °C' }] });
    expect(accessTokenOf('cal20261127abcd2345')).toBe('secret-token');
  });
});

describe('the PC form, logged in', () => {
  it('adds one of my devices by id and GUID, priced by its type, and opens the preview by id', async () => {
    const mine = device({ deviceId: 31, deviceGuid: 'A1B2C3D4E5F6', typeId: 7, deviceName: 'Cold room A', deviceTypeName: 'RC-5 logger' });
    const server = fakeServer({
      'GET /calibration/PriceConf/get/price': () => envelope(PRICES),
      'GET /base/BaseAccount/accountInfo': () => envelope(accountInfo({}, { permissionRoutes: ['device.list', 'calibration.order'] })),
      'POST /device/Device/page': () => envelope(devicePage([mine])),
      'POST /calibration/Application/apply': () => envelope({ ...application({ applicationId: 12 }), accessToken: null }),
    });
    signIn();
    renderApp(<FormPage />, '/calibration/form');
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByTestId('calibration-pick'), '31');
    const line = screen.getByTestId('calibration-line');
    expect(line).toHaveTextContent('RC-5 logger · A1B2C3D4E5F6');
    expect(within(line).queryByTestId('calibration-serial')).toBeNull(); // nothing to type for a console device
    expect(screen.getByTestId('calibration-total').textContent).toContain('¥120.00');
    await user.type(screen.getByTestId('calibration-customerName'), 'Fresh Logistics');
    await user.type(screen.getByTestId('calibration-contactName'), 'Li Wei');
    await user.type(screen.getByTestId('calibration-contactPhone'), '13800001234');
    await user.type(screen.getByTestId('calibration-returnAddress'), '12 Gangcheng Road');
    await user.click(screen.getByTestId('calibration-submit'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/calibration/preview?id=12'));
    expect(server.callsTo('POST /calibration/Application/apply')[0]!.body).toMatchObject({
      totalFee: 12_000, devices: [{ service: 1, deviceId: 31, guid: 'A1B2C3D4E5F6', pointsNote: null }] });
  });
});

describe('the phone PDF page', () => {
  it('refuses a download whose file name is not .pdf', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('<html></html>', {
      status: 200, headers: { 'Content-Type': 'text/html', 'Content-Disposition': 'attachment; filename="order.html"' } }));
    renderApp(<Pdf />, '/mobile/calibration/pdf?number=CAL20261127ABCD2345');
    expect(await screen.findByTestId('calibration-file-failed')).toHaveTextContent('file failed');
  });

  it('shows and offers a PDF', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:pdf');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('%PDF-1.7', {
      status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="CAL1.pdf"' } }));
    renderApp(<Pdf />, '/mobile/calibration/pdf?number=CAL20261127ABCD2345');
    expect(await screen.findByTestId('calibration-pdf-save')).toHaveAttribute('download', 'CAL1.pdf');
  });
});

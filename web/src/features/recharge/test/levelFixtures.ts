/** Devices, levels, items and year options like the demo's, for the recharge drawers' tests. */
import { editionConfig, type EditionConfig } from '@/lib/config';
import { envelope, fakeServer, type Call, type Routes } from '@/test/harness';
import type { Bill } from '../api/bills';
import type { DepositInfo, DeviceQuote, Level, ServiceItem, YearOption } from '../api/levels';
import type { OrderPlaced } from '../api/orders';

export const DOMESTIC: EditionConfig = { ...editionConfig() };
export const INTERNATIONAL: EditionConfig = {
  ...DOMESTIC,
  edition: 'international',
  currency: 'USD',
  payTypes: [20, 30, 40],
  defaultLanguage: 'en-US',
  countryCode: '1',
  countryCodeFixed: false,
};

/** "Cold room A logger": Basic until 2027, 118 SMS and 29 calls left, no SIM. */
export function deposit(overrides: Partial<DepositInfo> = {}): DepositInfo {
  return {
    deviceId: 1,
    deviceName: 'Cold room A logger',
    deviceGuid: 'RCW360A0000001',
    typeId: 1,
    deviceTypeName: 'RCW-360 Wi-Fi Logger',
    levelId: 2,
    levelName: 'Basic',
    serviceExpiredDate: '2027-06-12',
    smsCount: 118,
    voiceCount: 29,
    countryCode: '86',
    simIccid: null,
    jcIccidStatus: 0,
    agreementStatus: 0,
    nodeType: 1,
    access: 2,
    ...overrides,
  };
}

/** A service item as the server answers it: the title and the parenthesised detail split off. */
function item(itemCode: string, itemTitle: string, itemDetail: string): ServiceItem {
  return { itemCode, itemName: `${itemTitle} (${itemDetail})`, itemSupplement: null, itemLabel: null, itemTitle, itemDetail };
}

export const ITEMS: ServiceItem[] = [
  item('DATA_QUERY_EXPORT', 'Data query and export', 'up to 3 years of history'),
  item('ALARM_SMS', 'SMS alarms', 'text when a limit is crossed'),
  item('ALARM_VOICE', 'Voice alarms', 'call when a limit is crossed'),
  item('AI_QA', 'AI questions', 'ask your data in plain words'),
];

/** The server's badge of the discount charged (core/pricing/rules.py discount_badge). */
function badgeOf(percent: number): string | null {
  if (percent >= 100) return null;
  return editionConfig().edition === 'domestic' ? `${percent / 10}折` : `${100 - percent}% OFF`;
}

/**
 * A priced row as the server answers it in the edition of the moment: in its currency, with the
 * badge of the discount charged (an activity's while one is in force).
 */
export function asServed<T extends { discount: number; activityDiscount: number | null; activityId?: number | null }>(
  row: T,
): T & { currency: string; discountBadge: string | null } {
  const inForce = row.activityDiscount !== null && row.activityId !== null;
  return { ...row, currency: editionConfig().currency, discountBadge: badgeOf(inForce ? row.activityDiscount! : row.discount) };
}

const rel = (...codes: string[]) => ITEMS.filter((item) => codes.includes(item.itemCode)).map(({ itemCode, itemName }) => ({ itemCode, itemName }));

export function level(overrides: Partial<Level> = {}): Level {
  return {
    levelId: 2,
    levelName: 'Basic',
    levelDescribe: 'Data export and SMS alarms',
    packageId: 1,
    levelYearId: 2,
    timeLength: 12,
    serviceFee: 9900,
    dataFee: 0,
    discount: 100,
    activityId: null,
    activityStartTime: null,
    activityEndTime: null,
    activityDiscount: null,
    presentationMonth: 0,
    price: 9900,
    buttonKind: 'renew',
    current: true,
    free: false,
    itemLevelRelList: rel('DATA_QUERY_EXPORT', 'ALARM_SMS'),
    currency: 'CNY',
    discountBadge: null,
    ...overrides,
  };
}

export const FREE = level({
  levelId: 1,
  levelName: 'Free',
  levelDescribe: 'Upload and view data',
  levelYearId: 1,
  serviceFee: 0,
  price: 0,
  buttonKind: 'onOrder',
  current: false,
  free: true,
  itemLevelRelList: rel('DATA_QUERY_EXPORT'),
});
export const BASIC = level();
/** Under an activity in force: 80 % and 2 bonus months. */
export const PROFESSIONAL = level({
  levelId: 3,
  levelName: 'Professional',
  levelDescribe: 'Every alarm channel and AI questions',
  levelYearId: 5,
  serviceFee: 19900,
  activityId: 1,
  activityStartTime: '2026-11-14T13:11:00',
  activityEndTime: '2026-12-14T13:11:00',
  activityDiscount: 80,
  presentationMonth: 2,
  price: 15920,
  buttonKind: 'buy',
  current: false,
  itemLevelRelList: rel('DATA_QUERY_EXPORT', 'ALARM_SMS', 'ALARM_VOICE', 'AI_QA'),
});
export const LEVELS = [FREE, BASIC, PROFESSIONAL];

export function yearOption(overrides: Partial<YearOption> = {}): YearOption {
  return {
    id: 5,
    serviceFee: 19900,
    dataFee: 0,
    activityId: 1,
    presentationMonth: 2,
    timeLength: 12,
    discount: 100,
    activityDiscount: 80,
    price: 15920,
    lifelong: false,
    recommended: true,
    currency: 'CNY',
    discountBadge: '8折',
    ...overrides,
  };
}

export const YEARS: YearOption[] = [
  yearOption(),
  yearOption({ id: 6, serviceFee: 37800, presentationMonth: 3, timeLength: 24, discount: 95, activityDiscount: 75, price: 28350, recommended: false }),
  yearOption({ id: 7, serviceFee: 99900, activityId: null, presentationMonth: 0, timeLength: 1200, activityDiscount: null, price: 99900, lifelong: true, recommended: false }),
];

/**
 * What one device pays and will have, as the quote says it: by default "Cold room A logger",
 * Basic until 2027-06-12, buying a year of Professional in the activity: its 200 remaining days of
 * Basic become 99 days of Professional, then 12 + 2 months follow.
 */
export function deviceQuote(overrides: Partial<DeviceQuote> = {}): DeviceQuote {
  return {
    deviceId: 1,
    totalFee: 15920,
    currency: editionConfig().currency,
    currentLevelId: 2,
    currentLevelName: 'Basic',
    currentExpiredDate: '2027-06-12',
    changeKind: 'converted',
    remainingDays: 200,
    convertedDays: 99,
    timeLength: 12,
    presentationMonth: 2,
    levelId: 3,
    levelName: 'Professional',
    serviceExpiredDate: '2028-05-03',
    lifelong: false,
    ...overrides,
  };
}

let nextOrder = 100;

/** Alice's saved personal e-invoice, her default. */
export const BILL: Bill = {
  billId: 12,
  billDefaultStatus: 1,
  invoiceType: 1,
  billMode: 2,
  companyName: null,
  taxNumber: null,
  personalName: 'Alice Zhang',
  bankDeposit: null,
  billUserName: 'Alice Zhang',
  billMail: 'alice@example.com',
  billPhone: '13800138000',
  billAddress: null,
};

export function placed(call: Call, extra: Partial<OrderPlaced> = {}): OrderPlaced {
  const body = call.body as { totalFee: number; payType: number };
  nextOrder += 1;
  const code = `2026112400000${nextOrder}`;
  const payment =
    body.payType === 1 || body.payType === 2
      ? { payQrCode: `https://pay.example/qr/${code}` }
      : body.payType === 20
        ? { approveUrl: `https://pay.example/paypal/${code}` }
        : { clientSecret: `pi_${code}_secret_x` };
  return { orderId: nextOrder, orderCode: code, totalFee: body.totalFee, currency: editionConfig().currency, ...payment, ...extra };
}

/** The recharge calls, answered like the demo server; `extra` adds or replaces routes. */
export function rechargeServer(devices: DepositInfo[] = [deposit()], extra: Routes = {}) {
  const byId = new Map(devices.map((device) => [String(device.deviceId), device]));
  return fakeServer({
    'GET /payment/PayServicePackages/selectDeviceDepositInfo': (call) => {
      const device = byId.get(call.params.get('deviceId') ?? '');
      return device ? envelope(device) : envelope(null, 404, 404, 'Device not found');
    },
    'GET /payment/PayServicePackages/selectLevelList': () => envelope(LEVELS.map(asServed)),
    'GET /payment/PayServiceItem/selectAllServiceItemByDevice': () => envelope(ITEMS),
    'GET /payment/PayServiceLevelYear/selectListByDomain': () => envelope({ levelYearList: YEARS.map(asServed) }),
    'POST /payment/PayUserBill/selectListByDomain': () => envelope([]),
    'POST /payment/PayOrder/selectBatchQuote': (call) => {
      const body = call.body as { deviceIdList: number[]; levelYearId: number };
      const price = YEARS.find((option) => option.id === body.levelYearId)?.price ?? 0;
      return envelope(body.deviceIdList.map((deviceId) => deviceQuote({ deviceId, totalFee: price })));
    },
    'POST /payment/PayOrder/createServiceOrder': (call) => envelope(placed(call)),
    'POST /payment/PayOrder/createBatchServiceOrder': (call) => envelope(placed(call)),
    'GET /payment/PayOrder/get': (call) =>
      envelope({ orderId: Number(call.params.get('pk')), orderCode: 'x', payStatus: 1, applyFlag: 0, totalFee: 0 }),
    ...extra,
  });
}

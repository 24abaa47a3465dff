import { act, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n } from '@/test/harness';
import { notify } from '@/lib/notify';
import type { DepositInfo } from './api/levels';
import { ORDER_DEBOUNCE_MS } from './api/orders';
import { PayingDrawer } from './PayingDrawer';
import { BASIC, deposit, deviceQuote, placed, PROFESSIONAL, rechargeServer } from './test/levelFixtures';
import { order } from './test/orderFixtures';

const QUOTE = 'POST /payment/PayOrder/selectBatchQuote';
const CREATE = 'POST /payment/PayOrder/createServiceOrder';
const CONTINUE = 'POST /payment/PayOrder/continuePay';

async function tick(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** The year options, then the quote of the option shown first: answered before any order is asked for. */
async function answered() {
  for (let i = 0; i < 5; i += 1) await tick(1);
}

function open(devices: DepositInfo[] = [deposit()], level = PROFESSIONAL) {
  return renderApp(<PayingDrawer isOpen level={level} devices={devices} onClose={vi.fn()} />);
}

const texts = (testId: string) => screen.getAllByTestId(testId).map((node) => node.textContent);

beforeAll(setUpI18n);
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await i18next.changeLanguage('en-US');
});

describe('what the paying drawer says each device will have', () => {
  it('says, before the order is placed, how the remaining days of the current level convert, and the result', async () => {
    const api = rechargeServer();
    open();
    await answered();
    expect(api.callsTo(QUOTE).map((call) => call.body)).toEqual([
      { deviceIdList: [1], levelId: 3, levelYearId: 5, servicePackageId: 1 },
    ]);
    expect(api.callsTo(CREATE)).toHaveLength(0);
    expect(texts('level-change-now')).toEqual(['Now: Basic until 2027-06-12']);
    expect(texts('level-change-how')).toEqual([
      'Your remaining time on Basic, 200 days, becomes 99 days of Professional, followed by 1 year + 2 months free.',
    ]);
    expect(texts('level-change-after')).toEqual(['After payment: Professional until 2028-05-03']);
    expect(screen.getByTestId('level-change')).toHaveTextContent('rounded down to whole days');
  });

  it('shows the placed order’s own promise, which is what the device gets', async () => {
    rechargeServer([deposit()], {
      [CREATE]: (call) =>
        envelope(placed(call, { levelChanges: [deviceQuote({ convertedDays: 98, serviceExpiredDate: '2028-05-02' })] })),
    });
    open();
    await tick(ORDER_DEBOUNCE_MS);
    expect(screen.getByTestId('payment-qr')).toBeInTheDocument();
    expect(texts('level-change-how')[0]).toContain('becomes 98 days of Professional');
    expect(texts('level-change-after')).toEqual(['After payment: Professional until 2028-05-02']);
  });

  it('gives each device of a batch its own result', async () => {
    const devices = [
      deposit(),
      deposit({ deviceId: 2, deviceName: 'Cold room B logger', deviceGuid: 'RCW360A0000002', serviceExpiredDate: '2026-12-14' }),
      deposit({ deviceId: 3, deviceName: 'Vaccine fridge logger', deviceGuid: 'RCW360A0000003', levelId: 1, levelName: 'Free' }),
    ];
    rechargeServer(devices, {
      [QUOTE]: () =>
        envelope([
          deviceQuote(),
          deviceQuote({ deviceId: 2, currentExpiredDate: '2026-12-14', remainingDays: 20, convertedDays: 9, serviceExpiredDate: '2028-02-02' }),
          deviceQuote({
            deviceId: 3,
            currentLevelId: 1,
            currentLevelName: 'Free',
            currentExpiredDate: '2026-11-09',
            changeKind: 'startsNow',
            remainingDays: 0,
            convertedDays: 0,
            serviceExpiredDate: '2028-01-24',
          }),
        ]),
    });
    open(devices);
    await answered();
    const rows = screen.getAllByTestId('level-change-row');
    expect(rows.map((row) => within(row).getByText(/logger$/).textContent)).toEqual([
      'Cold room A logger',
      'Cold room B logger',
      'Vaccine fridge logger',
    ]);
    expect(texts('level-change-how')).toEqual([
      'Your remaining time on Basic, 200 days, becomes 99 days of Professional, followed by 1 year + 2 months free.',
      'Your remaining time on Basic, 20 days, becomes 9 days of Professional, followed by 1 year + 2 months free.',
      'Nothing is left of your service: the new term of 1 year + 2 months free starts today.',
    ]);
    expect(texts('level-change-after')).toEqual([
      'After payment: Professional until 2028-05-03',
      'After payment: Professional until 2028-02-02',
      'After payment: Professional until 2028-01-24',
    ]);
  });

  it('says a renewal, a free level’s time and lifelong service plainly', async () => {
    const devices = [1, 2, 3].map((deviceId) => deposit({ deviceId, deviceName: `Logger ${deviceId}` }));
    rechargeServer(devices, {
      [QUOTE]: () =>
        envelope([
          deviceQuote({ changeKind: 'extended', levelId: 2, levelName: 'Basic', presentationMonth: 0, remainingDays: 0, convertedDays: 0, serviceExpiredDate: '2028-06-12' }),
          deviceQuote({ deviceId: 2, currentLevelName: 'Free', changeKind: 'fromFree', remainingDays: 1, convertedDays: 0 }),
          deviceQuote({ deviceId: 3, timeLength: 1200, presentationMonth: 0, changeKind: 'lifelong', serviceExpiredDate: '2099-12-31', lifelong: true }),
        ]),
    });
    open(devices, BASIC);
    await answered();
    expect(texts('level-change-how')).toEqual([
      'Your Basic term is extended by 1 year.',
      'Your remaining time on Free, 1 day, was free and is not converted: the new term of 1 year + 2 months free starts today.',
      'Lifelong service: it never expires.',
    ]);
    expect(texts('level-change-after')[2]).toBe('After payment: Professional for life');
    expect(screen.getByTestId('level-change')).not.toHaveTextContent('rounded down');
  });

  it('words the time of a device without a level as such, in every language', async () => {
    const noLevel = deviceQuote({ currentLevelId: null, currentLevelName: null, currentExpiredDate: '2027-01-27', changeKind: 'fromFree',
      remainingDays: 60, convertedDays: 0, presentationMonth: 0 });
    const expected: Record<string, [string, string]> = {
      'en-US': ['Now: service without a level until 2027-01-27',
        'Your remaining time without a level, 60 days, was free and is not converted: the new term of 1 year starts today.'],
      'ru-RU': ['Сейчас: обслуживание без уровня до 2027-01-27',
        'Оставшееся время без уровня (60 дней) было бесплатным и не пересчитывается: новый срок (1 год) начинается сегодня.'],
    };
    for (const [language, [now, how]] of Object.entries(expected)) {
      await i18next.changeLanguage(language);
      rechargeServer([deposit()], { [QUOTE]: () => envelope([noLevel]) });
      const { unmount } = open();
      await answered();
      expect(texts('level-change-now')).toEqual([now]);
      expect(texts('level-change-how')).toEqual([how]);
      unmount();
    }
  });

  it('shows the server’s refusal where the result goes, without a toast', async () => {
    const error = vi.spyOn(notify, 'error');
    rechargeServer([deposit({ levelName: 'Professional', serviceExpiredDate: '2099-12-31' })], {
      [QUOTE]: () => envelope(null, 1121, 409, 'This device has lifelong service: another level can only be bought for life'),
    });
    open([deposit({ levelName: 'Professional', serviceExpiredDate: '2099-12-31' })], BASIC);
    await answered();
    expect(screen.getByTestId('level-change-refused')).toHaveTextContent(
      'This device has lifelong service: another level can only be bought for life',
    );
    expect(screen.queryByTestId('level-change-row')).toBeNull();
    expect(error).not.toHaveBeenCalled();
  });

  it('says again, when an earlier order is paid from My orders, what each device gets if paid now', async () => {
    const mine = order({ orderFee: 31840, orderDescription: 'Professional' });
    const api = fakeServer({
      [CONTINUE]: () =>
        envelope({
          orderId: 21,
          orderCode: mine.orderCode,
          totalFee: 31840,
          payQrCode: 'https://pay.example/qr/21',
          payType: 1,
          orderDescription: 'Professional',
          currency: 'CNY',
          expireTime: mine.expireTime,
          levelChanges: [deviceQuote(), deviceQuote({ deviceId: 2, remainingDays: 20, convertedDays: 9, serviceExpiredDate: '2028-02-02' })],
        }),
      'GET /payment/PayOrder/get': () => envelope({ orderId: 21, orderCode: mine.orderCode, payStatus: 1, applyFlag: 0, totalFee: 31840 }),
    });
    renderApp(<PayingDrawer isOpen level={null} devices={[]} order={mine} onClose={vi.fn()} />);
    await answered();
    expect(api.callsTo(CONTINUE)).toHaveLength(1);
    expect(screen.getAllByTestId('level-change-row').map((row) => row.textContent)).toEqual([
      'Cold room A loggerNow: Basic until 2027-06-12Your remaining time on Basic, 200 days, becomes 99 days of Professional, followed by 1 year + 2 months free.After payment: Professional until 2028-05-03',
      'Cold room B loggerNow: Basic until 2027-06-12Your remaining time on Basic, 20 days, becomes 9 days of Professional, followed by 1 year + 2 months free.After payment: Professional until 2028-02-02',
    ]);
  });

  it('speaks the user’s language', async () => {
    await i18next.changeLanguage('zh-CN');
    rechargeServer();
    open();
    await answered();
    expect(texts('level-change-now')).toEqual(['当前：Basic，有效期至 2027-06-12']);
    expect(texts('level-change-how')).toEqual(['Basic 剩余的 200 天 将折算为 Professional 的 99 天，再加上 1 年 + 赠送 2 个月。']);
    expect(texts('level-change-after')).toEqual(['支付后：Professional，有效期至 2028-05-03']);
  });
});

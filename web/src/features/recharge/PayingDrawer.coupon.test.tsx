import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, renderApp, setUpI18n } from '@/test/harness';
import { ORDER_DEBOUNCE_MS } from './api/orders';
import { PayingDrawer } from './PayingDrawer';
import { deposit, placed, PROFESSIONAL, rechargeServer } from './test/levelFixtures';

const CREATE = 'POST /payment/PayOrder/createServiceOrder';
const CHECK = 'POST /payment/activity/PayCoupon/checkCoupon';

async function tick(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

beforeAll(setUpI18n);
beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: false }));
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('PayingDrawer with a coupon (issue 18)', () => {
  it('places the order with the coupon and its discount, and charges the amount shown', async () => {
    const api = rechargeServer([deposit()], {
      [CHECK]: (call) => {
        const { totalFee, couponCode } = call.body as { totalFee: number; couponCode: string };
        return envelope({ couponCode: couponCode.toUpperCase(), couponType: 1, amount: 2000, totalFee, couponFee: 2000,
          payFee: totalFee - 2000, currency: 'CNY' });
      },
      [CREATE]: (call) => {
        const body = call.body as { totalFee: number; couponFee?: number };
        return envelope(placed(call, { totalFee: body.totalFee - (body.couponFee ?? 0) }));
      },
    });
    renderApp(<PayingDrawer isOpen level={PROFESSIONAL} devices={[deposit()]} onClose={vi.fn()} />);
    await tick(ORDER_DEBOUNCE_MS);
    expect(screen.getByTestId('payment-total')).toHaveTextContent('¥159');

    // The coupon field is the vouchers feature's, loaded when first shown (app/slots.tsx).
    await vi.waitFor(() => expect(screen.getByTestId('coupon-code')).toBeInTheDocument());
    fireEvent.change(screen.getByTestId('coupon-code'), { target: { value: 'cp4ac7' } });
    fireEvent.click(screen.getByTestId('coupon-apply'));
    await tick();
    expect(screen.getByTestId('coupon-applied')).toHaveTextContent('CP4AC7');
    await tick(ORDER_DEBOUNCE_MS);
    const last = api.callsTo(CREATE).at(-1)?.body as Record<string, unknown>;
    expect(last).toMatchObject({ totalFee: 15920, couponCode: 'CP4AC7', couponFee: 2000 });
    expect(screen.getByTestId('payment-total')).toHaveTextContent('¥139');

    fireEvent.click(screen.getByTestId('coupon-remove'));
    await tick(ORDER_DEBOUNCE_MS);
    expect(api.callsTo(CREATE).at(-1)?.body).not.toHaveProperty('couponCode');
    expect(screen.getByTestId('payment-total')).toHaveTextContent('¥159');
  });
});

import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n } from '@/test/harness';
import type { AppliedCoupon } from '@/lib/slots';
import { CouponField } from './CouponField';

const CHECK = 'POST /payment/activity/PayCoupon/checkCoupon';

function quote(totalFee: number, couponFee = 500): AppliedCoupon & { couponType: number; amount: number } {
  return { couponCode: 'CP4AC7DEFGHJKM9', couponType: 1, amount: couponFee, totalFee, couponFee,
    payFee: totalFee - couponFee, currency: 'CNY' };
}

function server(answer: (total: number) => Response) {
  return fakeServer({ [CHECK]: (call) => answer((call.body as { totalFee: number }).totalFee) });
}

async function settle() {
  await act(async () => {
    await Promise.resolve();
  });
}

beforeAll(setUpI18n);
afterEach(() => vi.restoreAllMocks());

describe('CouponField', () => {
  it('prices the code typed on the order total and says what it takes off', async () => {
    const api = server((total) => envelope(quote(total)));
    const onChange = vi.fn();
    renderApp(<CouponField totalFee={15_900} value={null} onChange={onChange} />);
    fireEvent.change(screen.getByTestId('coupon-code'), { target: { value: ' cp4ac7defghjkm9 ' } });
    fireEvent.click(screen.getByTestId('coupon-apply'));
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ couponFee: 500, payFee: 15_400 })));
    expect(api.callsTo(CHECK).map((call) => call.body)).toEqual([{ couponCode: 'cp4ac7defghjkm9', totalFee: 15_900 }]);
  });

  it('shows the server refusal under the field and applies nothing', async () => {
    server(() => envelope(null, 2043, 409, 'This coupon has already been used'));
    const onChange = vi.fn();
    renderApp(<CouponField totalFee={15_900} value={null} onChange={onChange} />);
    fireEvent.change(screen.getByTestId('coupon-code'), { target: { value: 'USED' } });
    fireEvent.click(screen.getByTestId('coupon-apply'));
    expect(await screen.findByText('This coupon has already been used')).toBeInTheDocument();
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it('asks for a code before checking anything', async () => {
    const api = server((total) => envelope(quote(total)));
    renderApp(<CouponField totalFee={15_900} value={null} onChange={vi.fn()} />);
    fireEvent.click(screen.getByTestId('coupon-apply'));
    await settle();
    expect(screen.getByText('Enter a coupon code')).toBeInTheDocument();
    expect(api.callsTo(CHECK)).toHaveLength(0);
  });

  it('prices an applied coupon again when the total changes, and removes it on request', async () => {
    const api = server((total) => envelope(quote(total)));
    const onChange = vi.fn();
    const rendered = renderApp(<CouponField totalFee={31_800} value={quote(15_900)} onChange={onChange} />);
    expect(screen.getByTestId('coupon-discount')).toHaveTextContent('¥5');
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ totalFee: 31_800 })));
    expect(api.callsTo(CHECK)).toHaveLength(1);
    rendered.rerender(<CouponField totalFee={31_800} value={quote(31_800)} onChange={onChange} />);
    fireEvent.click(screen.getByTestId('coupon-remove'));
    expect(onChange).toHaveBeenLastCalledWith(null);
  });
});

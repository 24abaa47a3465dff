import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { renderApp, setUpI18n } from '@/test/harness';
import { callbackOutcome, PayPalCallbackPage, PayPalCancelPage } from './PayPalResultPage';

beforeAll(setUpI18n);

describe('PayPal result pages', () => {
  it('reads the outcome of the return: paid, still unpaid, a failed capture, anything else', () => {
    const outcome = (query: string) => callbackOutcome(new URLSearchParams(query));
    expect(outcome('orderId=5&payStatus=2')).toBe('paid');
    expect(outcome('orderId=5&payStatus=1')).toBe('pending');
    expect(outcome('token=EC-1&payStatus=1&error=1')).toBe('failed');
    expect(outcome('orderId=5&payStatus=4')).toBe('failed');
    expect(outcome('payStatus=abc')).toBe('failed');
    expect(outcome('')).toBe('failed');
  });

  it('tells the payer the order is paid, and closes the window on request', async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    renderApp(<PayPalCallbackPage />, '/mobilePay/paypal/callback?orderId=5&payStatus=2');
    expect(screen.getByTestId('paypal-result')).toHaveAttribute('data-outcome', 'paid');
    expect(screen.getByRole('heading', { name: 'Payment successful' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close this window' }));
    expect(close).toHaveBeenCalledOnce();
  });

  it('says nothing was charged when the payer cancelled', () => {
    renderApp(<PayPalCancelPage />, '/mobilePay/paypal/cancel?token=EC-1');
    expect(screen.getByRole('heading', { name: 'Payment cancelled' })).toBeInTheDocument();
    expect(screen.getByTestId('paypal-result')).toHaveTextContent('nothing was charged');
  });
});

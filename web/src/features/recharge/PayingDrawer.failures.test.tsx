/**
 * The paying drawer when a payment fails (issue 14, item 5): a declined card, a cancelled sheet or
 * PayPal left without paying are said plainly, in the payer's language, with a retry; one payer
 * window per order.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, renderApp, setUpI18n, type Call } from '@/test/harness';
import { setEditionConfig } from '@/lib/config';
import { notify } from '@/lib/notify';
import { ORDER_DEBOUNCE_MS, ORDER_POLL_MS, type PaymentFailure } from './api/orders';
import { setWalletProvider } from './components/PaymentPanel';
import { PayingDrawer } from './PayingDrawer';
import { deposit, DOMESTIC, INTERNATIONAL, placed, PROFESSIONAL, rechargeServer } from './test/levelFixtures';

const CREATE = 'POST /payment/PayOrder/createServiceOrder';
const STATUS = 'GET /payment/PayOrder/get';
const CONFIRM = 'POST /payment/PayOrder/confirmPay';
const GOOGLE_PAY = 30;
const SANDBOX_PAGE = 'http://127.0.0.1:8001/pay/stripe/pi_1';

/** Lets `ms` of fake time pass, with every answer and render it allows. */
async function tick(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** The order's state as the server tells it: unpaid, with `failure` when an attempt failed. */
let failure: PaymentFailure | undefined;
let payStatus = 1;
const status = (call: Call) =>
  envelope({ orderId: Number(call.params.get('pk')), orderCode: 'x', payStatus, applyFlag: 0, totalFee: 15920, lastFailure: failure });

/** A payer window as window.open returns it. */
function payerWindow() {
  return { closed: false, opener: {} as unknown, focus: vi.fn() };
}

function open() {
  return renderApp(<PayingDrawer isOpen level={PROFESSIONAL} devices={[deposit({ countryCode: '1' })]} onClose={vi.fn()} />);
}

/** The next look at the order, and its answer. */
async function poll() {
  await tick(ORDER_POLL_MS);
  await tick(10);
}

async function choose(payType: number) {
  await tick();
  fireEvent.click(screen.getByTestId(`pay-type-${payType}`));
  await tick(ORDER_DEBOUNCE_MS);
}

beforeAll(setUpI18n);
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  setEditionConfig(INTERNATIONAL);
  failure = undefined;
  payStatus = 1;
  vi.spyOn(notify, 'error').mockImplementation(() => {});
  vi.spyOn(notify, 'success').mockImplementation(() => {});
});
afterEach(async () => {
  vi.useRealTimers();
  setEditionConfig(DOMESTIC);
  setWalletProvider(null);
  vi.restoreAllMocks();
  await i18next.changeLanguage('en-US');
});

describe('PayingDrawer: failed payments', () => {
  it('says a card declined on the payer page instead of waiting, and tries the same order again', async () => {
    const api = rechargeServer([deposit({ countryCode: '1' })], {
      [CREATE]: (call) => envelope(placed(call, { approveUrl: SANDBOX_PAGE })),
      [STATUS]: status,
    });
    const first = payerWindow();
    const windowOpen = vi.spyOn(window, 'open').mockReturnValue(first as unknown as Window);
    open();
    await choose(GOOGLE_PAY);
    fireEvent.click(screen.getByRole('button', { name: 'Pay with Google Pay' }));
    expect(windowOpen).toHaveBeenCalledWith(SANDBOX_PAGE, '_blank');
    expect(first.opener).toBeNull(); // the payer's page gets no handle on the console
    expect(screen.getByTestId('payment-waiting')).toHaveTextContent('Waiting for payment…');

    failure = { reason: 'declined', number: 1, newOrder: false }; // Stripe's webhook has told the console
    await poll();
    const notice = screen.getByTestId('payment-failure');
    expect(notice).toHaveTextContent('Card declined');
    expect(notice).toHaveTextContent('Your card was declined and nothing was charged. Try again, or use another card.');
    expect(screen.queryByTestId('payment-waiting')).toBeNull();
    expect(screen.queryByTestId('payment-open')).toBeNull();

    fireEvent.click(within(notice).getByRole('button', { name: 'Try again' }));
    expect(screen.queryByTestId('payment-failure')).toBeNull();
    await poll(); // the same failure, polled again, stays behind the payer
    expect(screen.queryByTestId('payment-failure')).toBeNull();
    const second = payerWindow();
    windowOpen.mockReturnValue(second as unknown as Window);
    fireEvent.click(screen.getByRole('button', { name: 'Pay with Google Pay' }));
    // a fresh window (the first, still open, shows the decline), on the same order, payable again
    expect(windowOpen).toHaveBeenCalledTimes(2);
    expect(first.focus).not.toHaveBeenCalled();
    expect(api.callsTo(CREATE)).toHaveLength(1);

    failure = { reason: 'declined', number: 2, newOrder: false }; // declined again: said again
    await poll();
    expect(screen.getByTestId('payment-failure')).toHaveAttribute('data-reason', 'declined');

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    failure = undefined;
    payStatus = 2; // a good card
    await poll();
    expect(notify.success).toHaveBeenCalledWith('Payment successful.');
  });

  it('says in the payer’s language that the card was declined', async () => {
    await i18next.changeLanguage('de-DE');
    rechargeServer([deposit({ countryCode: '1' })], {
      [CREATE]: (call) => envelope(placed(call, { approveUrl: SANDBOX_PAGE })),
      [STATUS]: status,
    });
    failure = { reason: 'declined', number: 1, newOrder: false };
    open();
    await choose(GOOGLE_PAY);
    await tick(10); // the first look at the order
    const notice = screen.getByTestId('payment-failure');
    expect(notice).toHaveTextContent('Karte abgelehnt');
    expect(within(notice).getByRole('button', { name: 'Erneut versuchen' })).toBeInTheDocument();
  });

  it('offers a new order when the payer left PayPal, whose order is then void', async () => {
    const api = rechargeServer([deposit({ countryCode: '1' })], { [STATUS]: status });
    vi.spyOn(window, 'open').mockReturnValue(payerWindow() as unknown as Window);
    open();
    await tick(ORDER_DEBOUNCE_MS); // PayPal is the first method
    fireEvent.click(screen.getByRole('button', { name: 'Pay with PayPal' }));
    failure = { reason: 'cancelled', number: 1, newOrder: true };
    await poll();
    expect(screen.getByTestId('payment-failure')).toHaveTextContent('Payment cancelled');
    expect(screen.getByTestId('payment-failure')).toHaveTextContent('The payment was cancelled and nothing was charged.');

    failure = undefined;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await tick(10);
    expect(api.callsTo(CREATE)).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Pay with PayPal' })).toBeInTheDocument();
  });

  it('opens one PayPal window per order: a double click brings the open one to the front', async () => {
    rechargeServer([deposit({ countryCode: '1' })]);
    const paypal = payerWindow();
    const windowOpen = vi.spyOn(window, 'open').mockReturnValue(paypal as unknown as Window);
    open();
    await tick(ORDER_DEBOUNCE_MS);
    const button = screen.getByRole('button', { name: 'Pay with PayPal' });
    fireEvent.click(button);
    fireEvent.click(button);
    expect(windowOpen).toHaveBeenCalledTimes(1);
    expect(windowOpen).toHaveBeenCalledWith(expect.stringContaining('https://pay.example/paypal/'), '_blank');
    expect(paypal.focus).toHaveBeenCalledTimes(1);

    paypal.closed = true; // the payer closed it: the button opens it again
    fireEvent.click(button);
    expect(windowOpen).toHaveBeenCalledTimes(2);
  });

  it('says so when the browser blocks the payer window', async () => {
    rechargeServer([deposit({ countryCode: '1' })]);
    vi.spyOn(window, 'open').mockReturnValue(null);
    open();
    await tick(ORDER_DEBOUNCE_MS);
    fireEvent.click(screen.getByRole('button', { name: 'Pay with PayPal' }));
    expect(screen.getByTestId('payment-blocked')).toHaveTextContent('Your browser blocked the payment window.');
  });

  it('says a closed wallet sheet cancelled the payment, and offers it again', async () => {
    const api = rechargeServer([deposit({ countryCode: '1' })], { [STATUS]: status });
    const wallet = vi.fn(async () => null as string | null);
    setWalletProvider(wallet);
    open();
    await choose(GOOGLE_PAY);
    fireEvent.click(screen.getByRole('button', { name: 'Pay with Google Pay' }));
    await tick(10);
    expect(screen.getByTestId('payment-failure')).toHaveAttribute('data-reason', 'cancelled');
    expect(api.callsTo(CONFIRM)).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    wallet.mockResolvedValue('pm_card_visa');
    fireEvent.click(screen.getByRole('button', { name: 'Pay with Google Pay' }));
    await tick(10);
    expect(api.callsTo(CONFIRM)).toHaveLength(1);
  });

  it('says a card the confirmation declined, then pays with another', async () => {
    let declined = true;
    const api = rechargeServer([deposit({ countryCode: '1' })], {
      [STATUS]: status,
      [CONFIRM]: () => {
        if (!declined) {
          payStatus = 2;
          return envelope({ payStatus: 2 });
        }
        failure = { reason: 'declined', number: 1, newOrder: false }; // recorded on the order as well
        return envelope({ failure: 'declined' }, 1112, 409, 'Your card was declined and nothing was charged.');
      },
    });
    setWalletProvider(async () => (declined ? 'pm_card_chargeDeclined' : 'pm_card_visa'));
    open();
    await choose(GOOGLE_PAY);
    fireEvent.click(screen.getByRole('button', { name: 'Pay with Google Pay' }));
    await tick(10);
    expect(screen.getByTestId('payment-failure')).toHaveTextContent('Card declined');

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await poll(); // the recorded failure, polled again, is the one moved past
    expect(screen.queryByTestId('payment-failure')).toBeNull();
    declined = false;
    fireEvent.click(screen.getByRole('button', { name: 'Pay with Google Pay' }));
    await tick(10);
    expect(api.callsTo(CONFIRM)).toHaveLength(2);
    expect(notify.success).toHaveBeenCalledWith('Payment successful.');
  });
});

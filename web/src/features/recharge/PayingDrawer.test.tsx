import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, renderApp, setUpI18n, type Call } from '@/test/harness';
import { setEditionConfig } from '@/lib/config';
import { notify } from '@/lib/notify';
import type { DepositInfo, Level } from './api/levels';
import { ORDER_DEBOUNCE_MS, ORDER_POLL_MS } from './api/orders';
import { setWalletProvider } from './components/PaymentPanel';
import { PayingDrawer } from './PayingDrawer';
import { BILL, deposit, deviceQuote, DOMESTIC, INTERNATIONAL, placed, PROFESSIONAL, rechargeServer } from './test/levelFixtures';

const CREATE = 'POST /payment/PayOrder/createServiceOrder';
const CREATE_BATCH = 'POST /payment/PayOrder/createBatchServiceOrder';
const STATUS = 'GET /payment/PayOrder/get';


function open(devices: DepositInfo[] = [deposit()], level: Level = PROFESSIONAL) {
  const onClose = vi.fn();
  const rendered = renderApp(<PayingDrawer isOpen level={level} devices={devices} onClose={onClose} />);
  // Closed as the recharge drawer closes it: the level stays while the drawer slides away.
  const close = () => rendered.rerender(<PayingDrawer isOpen={false} level={level} devices={devices} onClose={onClose} />);
  return { onClose, close, ...rendered };
}

/** Lets `ms` of fake time pass, with every answer and render it allows. */
async function tick(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const bodies = (calls: Call[]) => calls.map((call) => call.body as Record<string, unknown>);

beforeAll(setUpI18n);
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
});
afterEach(() => {
  vi.useRealTimers();
  setEditionConfig(DOMESTIC);
  setWalletProvider(null);
  vi.restoreAllMocks();
});

describe('PayingDrawer', () => {
  it('asks for the order 500 ms after the choices settle, priced as the year option lists it', async () => {
    const api = rechargeServer();
    open();
    await tick();
    expect(screen.getAllByTestId('year-option')).toHaveLength(3);
    expect(screen.getByTestId('payment-loading')).toBeInTheDocument();
    await tick(ORDER_DEBOUNCE_MS - 1);
    expect(api.callsTo(CREATE)).toHaveLength(0);
    await tick(1);
    expect(bodies(api.callsTo(CREATE))).toEqual([
      {
        applyFlag: false,
        payType: 1,
        totalFee: 15920,
        levelId: 3,
        levelYearId: 5,
        serviceFee: 19900,
        servicePackageId: 1,
        activityId: 1,
        presentationMonth: 2,
        deviceId: 1,
        simIccid: null,
      },
    ]);
    expect(screen.getByTestId('payment-qr')).toHaveAttribute('data-pay-code', expect.stringContaining('https://pay.example/qr/'));
    expect(screen.getByTestId('payment-total')).toHaveTextContent('¥159');
  });

  it('asks again, once, 500 ms after the method or the term changes', async () => {
    const api = rechargeServer();
    open();
    await tick(ORDER_DEBOUNCE_MS);
    expect(api.callsTo(CREATE)).toHaveLength(1);

    fireEvent.click(screen.getByTestId('pay-type-2'));
    await tick(200);
    fireEvent.click(screen.getByTestId('year-6'));
    await tick(ORDER_DEBOUNCE_MS - 1);
    expect(api.callsTo(CREATE)).toHaveLength(1);
    // The code of the earlier choice is gone while the new one is asked for.
    expect(screen.queryByTestId('payment-qr')).toBeNull();
    await tick(1);
    expect(bodies(api.callsTo(CREATE))[1]).toMatchObject({ payType: 2, levelYearId: 6, serviceFee: 37800, totalFee: 28350, presentationMonth: 3 });
    expect(api.callsTo(CREATE)).toHaveLength(2);
    expect(screen.getByTestId('payment-total')).toHaveTextContent('¥283');
    expect(screen.getByTestId('payment-qr')).toBeInTheDocument();
  });

  it('offers only the pay types the server has switched on', async () => {
    setEditionConfig({ ...DOMESTIC, payTypes: [2] });
    const api = rechargeServer();
    open();
    await tick(ORDER_DEBOUNCE_MS);
    expect(screen.queryByTestId('pay-type-1')).toBeNull();
    expect(bodies(api.callsTo(CREATE))).toEqual([expect.objectContaining({ payType: 2 })]);
  });

  it('says no pay type is available, and places no order, when the server offers none', async () => {
    setEditionConfig({ ...DOMESTIC, payTypes: [] });
    const api = rechargeServer();
    open();
    await tick(ORDER_DEBOUNCE_MS * 4);
    expect(api.callsTo(CREATE)).toHaveLength(0);
    expect(screen.queryByTestId('pay-type-1')).toBeNull();
    expect(screen.queryByTestId('pay-type-2')).toBeNull();
    expect(screen.getByTestId('payment-placeholder')).toHaveTextContent('No payment method is available at the moment');
  });

  it('places no order while the invoice is on and no bill is chosen', async () => {
    const api = rechargeServer();
    open();
    await tick(ORDER_DEBOUNCE_MS);
    expect(api.callsTo(CREATE)).toHaveLength(1);
    fireEvent.click(within(screen.getByTestId('invoice-option')).getByRole('checkbox'));
    await tick(ORDER_DEBOUNCE_MS * 4);
    expect(api.callsTo(CREATE)).toHaveLength(1);
    expect(screen.queryByTestId('payment-qr')).toBeNull();
    expect(screen.getByTestId('payment-placeholder')).toHaveTextContent('Choose invoice details to get the payment code.');
  });

  it('orders with the default bill once the invoice is switched on', async () => {
    const api = rechargeServer(undefined, { 'POST /payment/PayUserBill/selectListByDomain': () => envelope([BILL]) });
    open();
    await tick(ORDER_DEBOUNCE_MS);
    fireEvent.click(within(screen.getByTestId('invoice-option')).getByRole('checkbox'));
    await tick(); // the bills arrive, the default one is chosen
    await tick(ORDER_DEBOUNCE_MS);
    expect(bodies(api.callsTo(CREATE))[1]).toMatchObject({ applyFlag: true, billId: 12 });
  });

  it('polls the order every 3 s and, once paid, closes with the success message and refreshes the devices', async () => {
    let polls = 0;
    const api = rechargeServer(undefined, {
      [STATUS]: (call) => {
        polls += 1;
        return envelope({ orderId: Number(call.params.get('pk')), orderCode: 'x', payStatus: polls >= 3 ? 2 : 1, applyFlag: 1, totalFee: 15920 });
      },
    });
    const success = vi.spyOn(notify, 'success').mockImplementation(() => {});
    const { onClose, queryClient } = open();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await tick(ORDER_DEBOUNCE_MS);
    expect(api.callsTo(CREATE)).toHaveLength(1);
    expect(polls).toBe(1); // asked at once, then every 3 s
    await tick(ORDER_POLL_MS - 1);
    expect(api.callsTo(STATUS)).toHaveLength(1);
    await tick(1);
    expect(api.callsTo(STATUS)).toHaveLength(2);
    expect(onClose).not.toHaveBeenCalled();
    await tick(ORDER_POLL_MS);
    expect(api.callsTo(STATUS)).toHaveLength(3);
    await tick(10);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(success).toHaveBeenCalledWith('Payment successful. Your invoice will be issued and sent to you.');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['devices'] });
    await tick(ORDER_POLL_MS * 3);
    expect(api.callsTo(STATUS)).toHaveLength(3);
  });

  it('says only that the payment succeeded when no invoice was asked for', async () => {
    rechargeServer(undefined, {
      [STATUS]: (call) => envelope({ orderId: Number(call.params.get('pk')), orderCode: 'x', payStatus: 2, applyFlag: 0, totalFee: 15920 }),
    });
    const success = vi.spyOn(notify, 'success').mockImplementation(() => {});
    const { onClose } = open();
    await tick(ORDER_DEBOUNCE_MS);
    await tick(10);
    expect(onClose).toHaveBeenCalled();
    expect(success).toHaveBeenCalledWith('Payment successful.');
  });

  it('stops polling and forgets the order when closed', async () => {
    const api = rechargeServer();
    const { close } = open();
    await tick(ORDER_DEBOUNCE_MS);
    expect(api.callsTo(STATUS)).toHaveLength(1);
    close();
    await tick(ORDER_POLL_MS * 3);
    expect(api.callsTo(STATUS)).toHaveLength(1);
    expect(api.callsTo(CREATE)).toHaveLength(1);
    expect(screen.queryByTestId('paying-drawer')).toBeNull();
  });

  it('says to contact customer service when a domestic order comes back without a QR code', async () => {
    rechargeServer(undefined, { [CREATE]: (call) => envelope({ ...placed(call), payQrCode: undefined }) });
    const error = vi.spyOn(notify, 'error').mockImplementation(() => {});
    open();
    await tick(ORDER_DEBOUNCE_MS);
    expect(error).toHaveBeenCalledWith('Failed to create order, please contact customer service', 'Error');
    expect(screen.getByTestId('payment-error')).toHaveTextContent('Failed to create order, please contact customer service');
    expect(screen.queryByTestId('payment-qr')).toBeNull();
  });

  it('shows the server’s message when the order is refused, and asks again on retry', async () => {
    let refuse = true;
    const api = rechargeServer(undefined, {
      [CREATE]: (call) =>
        refuse ? envelope(null, 1101, 409, 'The price has changed, please refresh and try again') : envelope(placed(call)),
    });
    vi.spyOn(notify, 'error').mockImplementation(() => {});
    open();
    await tick(ORDER_DEBOUNCE_MS);
    expect(screen.getByTestId('payment-error')).toHaveTextContent('The price has changed, please refresh and try again');
    refuse = false;
    fireEvent.click(within(screen.getByTestId('payment-error')).getByRole('button', { name: 'Try again' }));
    await tick(10);
    expect(api.callsTo(CREATE)).toHaveLength(2);
    expect(screen.getByTestId('payment-qr')).toBeInTheDocument();
  });

  it('quotes each device of a batch and orders them together for the sum', async () => {
    const devices = [deposit(), deposit({ deviceId: 2, deviceName: 'Cold room B logger', deviceGuid: 'RCW360A0000002' })];
    const api = rechargeServer(devices, {
      'POST /payment/PayOrder/selectBatchQuote': () =>
        envelope([deviceQuote({ deviceId: 1, totalFee: 15920 }), deviceQuote({ deviceId: 2, totalFee: 17000 })]),
    });
    open(devices);
    await tick(); // the year options, then the quote of the first
    await tick(ORDER_DEBOUNCE_MS + 10);
    expect(api.callsTo('POST /payment/PayOrder/selectBatchQuote')[0]!.body).toEqual({
      deviceIdList: [1, 2],
      levelId: 3,
      levelYearId: 5,
      servicePackageId: 1,
    });
    expect(screen.getAllByTestId('quote-amount').map((cell) => cell.textContent)).toEqual(['¥159', '¥170']);
    expect(bodies(api.callsTo(CREATE_BATCH))).toEqual([expect.objectContaining({ deviceIdList: [1, 2], totalFee: 32920 })]);
    expect(api.callsTo(CREATE)).toHaveLength(0);
    expect(screen.getByTestId('payment-total')).toHaveTextContent('¥329');
  });

  it('offers PayPal, Google Pay and card internationally, and opens PayPal’s page in a new window', async () => {
    setEditionConfig(INTERNATIONAL);
    const api = rechargeServer([deposit({ countryCode: '1' })]);
    const windowOpen = vi.spyOn(window, 'open').mockImplementation(() => null);
    open();
    await tick(ORDER_DEBOUNCE_MS);
    expect(screen.getByTestId('pay-type-20')).toBeChecked();
    expect(screen.getByTestId('pay-type-30')).toBeInTheDocument();
    expect(screen.getByTestId('pay-type-40')).toBeInTheDocument();
    expect(screen.queryByTestId('pay-type-1')).toBeNull();
    expect(bodies(api.callsTo(CREATE))[0]).toMatchObject({ payType: 20 });
    expect(screen.getByTestId('payment-total')).toHaveTextContent('$159.20');
    fireEvent.click(screen.getByRole('button', { name: 'Pay with PayPal' }));
    expect(windowOpen).toHaveBeenCalledWith(expect.stringContaining('https://pay.example/paypal/'), '_blank');
  });

  it('opens the sandbox’s payer page for a wallet when the order carries one', async () => {
    setEditionConfig(INTERNATIONAL);
    rechargeServer([deposit({ countryCode: '1' })], {
      [CREATE]: (call) => envelope(placed(call, { approveUrl: 'http://127.0.0.1:8001/payer/stripe/pi_1' })),
    });
    const windowOpen = vi.spyOn(window, 'open').mockImplementation(() => null);
    open();
    await tick();
    fireEvent.click(screen.getByTestId('pay-type-30'));
    await tick(ORDER_DEBOUNCE_MS);
    fireEvent.click(screen.getByRole('button', { name: 'Pay with Google Pay' }));
    expect(windowOpen).toHaveBeenCalledWith('http://127.0.0.1:8001/payer/stripe/pi_1', '_blank');
  });

  it('confirms a wallet’s payment method with confirmPay', async () => {
    setEditionConfig(INTERNATIONAL);
    let paid = false;
    const api = rechargeServer([deposit({ countryCode: '1' })], {
      'POST /payment/PayOrder/confirmPay': () => {
        paid = true;
        return envelope({ payStatus: 2 });
      },
      [STATUS]: (call) =>
        envelope({ orderId: Number(call.params.get('pk')), orderCode: 'x', payStatus: paid ? 2 : 1, applyFlag: 0, totalFee: 15920 }),
    });
    setWalletProvider(async () => 'pm_card_visa');
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    const { onClose } = open();
    await tick();
    fireEvent.click(screen.getByTestId('pay-type-40'));
    await tick(ORDER_DEBOUNCE_MS);
    fireEvent.click(screen.getByRole('button', { name: 'Pay by card' }));
    await tick(10);
    const order = bodies(api.callsTo(CREATE)).at(-1)!;
    expect(bodies(api.callsTo('POST /payment/PayOrder/confirmPay'))).toEqual([
      { orderId: expect.any(Number), payType: 40, paymentPlatformId: 'pm_card_visa', payFee: order.totalFee },
    ]);
    expect(onClose).toHaveBeenCalled();
  });
});

/**
 * The paying drawer's automatic renewal (issue 19): offered for one device buying a time-limited
 * option, off at first; the order is asked for again, debounced, with `autoRenew: true`; the
 * server's refusal (1152) is shown; a batch never sends it; the success notice says renewal is on.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, renderApp, setUpI18n, type Call } from '@/test/harness';
import { notify } from '@/lib/notify';
import type { DepositInfo } from './api/levels';
import { ORDER_DEBOUNCE_MS } from './api/orders';
import { PayingDrawer } from './PayingDrawer';
import { deposit, placed, PROFESSIONAL, rechargeServer } from './test/levelFixtures';

const CREATE = 'POST /payment/PayOrder/createServiceOrder';
const CREATE_BATCH = 'POST /payment/PayOrder/createBatchServiceOrder';
const STATUS = 'GET /payment/PayOrder/get';
const REFUSED = 'Automatic renewal is offered for one device at a time, with a payment method that allows it';
const TWO = [deposit(), deposit({ deviceId: 2, deviceName: 'Cold room B logger', deviceGuid: 'RCW360A0000002' })];

/** Lets `ms` of fake time pass, with every answer and render it allows. */
async function tick(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function open(devices: DepositInfo[] = [deposit()]) {
  const onClose = vi.fn();
  renderApp(<PayingDrawer isOpen level={PROFESSIONAL} devices={devices} onClose={onClose} />);
  return { onClose };
}

const bodies = (calls: Call[]) => calls.map((call) => call.body as Record<string, unknown>);
const renewSwitch = () => screen.getByTestId('auto-renew-switch');
const toggle = () => fireEvent.click(renewSwitch());

beforeAll(setUpI18n);
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('PayingDrawer: automatic renewal', () => {
  it('is offered, off, for one device buying a year, with what it does; not for the lifelong option', async () => {
    const api = rechargeServer();
    open();
    await tick(ORDER_DEBOUNCE_MS);
    expect(renewSwitch()).not.toBeChecked();
    expect(screen.getByTestId('auto-renew-option')).toHaveTextContent('Renew automatically');
    expect(screen.getByTestId('auto-renew-note')).toHaveTextContent(
      'Professional is bought again for the same period, with the same payment method, a day before the service ends. ' +
        'You can cancel at any time in the device’s current service.',
    );
    expect(bodies(api.callsTo(CREATE))[0]).not.toHaveProperty('autoRenew');

    fireEvent.click(screen.getByTestId('year-7')); // 1200 months: lifelong
    await tick();
    expect(screen.queryByTestId('auto-renew-option')).toBeNull();
    fireEvent.click(screen.getByTestId('year-6'));
    await tick();
    expect(renewSwitch()).not.toBeChecked();
  });

  it('asks for the order again 500 ms after it is turned on, with autoRenew, and without it once off', async () => {
    const api = rechargeServer();
    open();
    await tick(ORDER_DEBOUNCE_MS);
    expect(api.callsTo(CREATE)).toHaveLength(1);

    toggle();
    expect(renewSwitch()).toBeChecked();
    await tick(ORDER_DEBOUNCE_MS - 1);
    expect(api.callsTo(CREATE)).toHaveLength(1);
    // The code of the order without renewal is not offered while the new one is asked for.
    expect(screen.queryByTestId('payment-qr')).toBeNull();
    await tick(1);
    expect(bodies(api.callsTo(CREATE))[1]).toEqual({
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
      autoRenew: true,
    });
    expect(screen.getByTestId('payment-qr')).toBeInTheDocument();

    toggle();
    await tick(ORDER_DEBOUNCE_MS);
    expect(api.callsTo(CREATE)).toHaveLength(3);
    expect(bodies(api.callsTo(CREATE))[2]).not.toHaveProperty('autoRenew');
  });

  it('asks for no renewal with the lifelong option, even when the switch was on', async () => {
    const api = rechargeServer();
    open();
    await tick();
    toggle();
    fireEvent.click(screen.getByTestId('year-7'));
    await tick(ORDER_DEBOUNCE_MS);
    expect(bodies(api.callsTo(CREATE))).toEqual([expect.objectContaining({ levelYearId: 7 })]);
    expect(bodies(api.callsTo(CREATE))[0]).not.toHaveProperty('autoRenew');
  });

  it('shows the server’s refusal of the renewal (1152) where the payment goes', async () => {
    rechargeServer(undefined, {
      [CREATE]: (call) =>
        (call.body as { autoRenew?: boolean }).autoRenew ? envelope(null, 1152, 409, REFUSED) : envelope(placed(call)),
    });
    vi.spyOn(notify, 'error').mockImplementation(() => {});
    open();
    await tick(ORDER_DEBOUNCE_MS);
    expect(screen.getByTestId('payment-qr')).toBeInTheDocument();
    toggle();
    await tick(ORDER_DEBOUNCE_MS);
    expect(screen.getByTestId('payment-error')).toHaveTextContent(REFUSED);
    expect(screen.queryByTestId('payment-qr')).toBeNull();
    // Turned off again, the order without renewal can be paid.
    toggle();
    await tick(ORDER_DEBOUNCE_MS);
    expect(screen.queryByTestId('payment-error')).toBeNull();
    expect(screen.getByTestId('payment-qr')).toBeInTheDocument();
  });

  it('is not offered in a batch, whose order carries no autoRenew', async () => {
    const api = rechargeServer(TWO);
    open(TWO);
    await tick();
    await tick(ORDER_DEBOUNCE_MS + 10);
    expect(screen.getByTestId('payment-qr')).toBeInTheDocument();
    expect(screen.queryByTestId('auto-renew-option')).toBeNull();
    expect(bodies(api.callsTo(CREATE_BATCH))).toEqual([expect.objectContaining({ deviceIdList: [1, 2] })]);
    expect(bodies(api.callsTo(CREATE_BATCH))[0]).not.toHaveProperty('autoRenew');
    expect(api.callsTo(CREATE)).toHaveLength(0);
  });

  it('says renewal is on once paid with it', async () => {
    const api = rechargeServer(undefined, {
      [STATUS]: (call) => envelope({ orderId: Number(call.params.get('pk')), orderCode: 'x', payStatus: 2, applyFlag: 0, totalFee: 15920 }),
    });
    const success = vi.spyOn(notify, 'success').mockImplementation(() => {});
    const { onClose } = open();
    await tick();
    toggle();
    await tick(ORDER_DEBOUNCE_MS);
    await tick(10);
    expect(bodies(api.callsTo(CREATE))).toEqual([expect.objectContaining({ autoRenew: true })]);
    expect(onClose).toHaveBeenCalled();
    expect(success).toHaveBeenCalledWith('Payment successful. Automatic renewal is on: the device shows it within a few minutes.');
  });
});

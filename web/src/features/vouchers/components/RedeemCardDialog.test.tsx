import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { notify } from '@/lib/notify';
import { envelope, fakeServer, renderApp, setUpI18n } from '@/test/harness';
import { RedeemCardDialog } from './RedeemCardDialog';

const REDEEM = 'POST /payment/activity/PayCardSecret/redeemCard';
const DEVICE = { deviceId: 7, deviceName: 'Cold room A logger' };

beforeAll(setUpI18n);
afterEach(() => vi.restoreAllMocks());

function fill(number: string, secret: string) {
  fireEvent.change(screen.getByTestId('redeem-number'), { target: { value: number } });
  fireEvent.change(screen.getByTestId('redeem-secret'), { target: { value: secret } });
  fireEvent.click(screen.getByTestId('redeem-submit'));
}

describe('RedeemCardDialog', () => {
  it('redeems the card for the device it was opened for, says so and closes', async () => {
    const api = fakeServer({ [REDEEM]: () => envelope({ orderId: 3, orderCode: '2026', levelName: 'Basic', timeLength: 6,
      serviceExpiredDate: null }) });
    const success = vi.spyOn(notify, 'success').mockImplementation(() => '');
    const onClose = vi.fn();
    renderApp(<RedeemCardDialog isOpen onClose={onClose} device={DEVICE} />);
    expect(screen.getByTestId('redeem-device-name')).toHaveValue('Cold room A logger');
    fill(' RCAAAA ', 'SECRET');
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.callsTo(REDEEM).map((call) => call.body)).toEqual([{ deviceId: 7, cardNumber: 'RCAAAA', secret: 'SECRET' }]);
    expect(success).toHaveBeenCalledWith('Card redeemed: Basic for 6 months');
  });

  it('puts a wrong secret under the secret and a lock under the number, and stays open', async () => {
    let answer = envelope(null, 2051, 409, 'The card number or the secret is wrong');
    fakeServer({ [REDEEM]: () => answer });
    const onClose = vi.fn();
    renderApp(<RedeemCardDialog isOpen onClose={onClose} device={DEVICE} />);
    fill('RCAAAA', 'WRONG');
    const wrong = await screen.findByText('The card number or the secret is wrong');
    expect(wrong.closest('[class*="form-group"]')).toContainElement(screen.getByTestId('redeem-secret'));
    answer = envelope(null, 2052, 409, 'Too many wrong tries: this card number is locked for 15 minutes');
    fill('RCAAAA', 'WRONG2');
    const locked = await screen.findByText('Too many wrong tries: this card number is locked for 15 minutes');
    expect(locked.closest('[class*="form-group"]')).toContainElement(screen.getByTestId('redeem-number'));
    expect(onClose).not.toHaveBeenCalled();
  });

  it('asks for the number and the secret before calling the server', async () => {
    const api = fakeServer({});
    renderApp(<RedeemCardDialog isOpen onClose={vi.fn()} device={DEVICE} />);
    fireEvent.click(screen.getByTestId('redeem-submit'));
    expect(await screen.findAllByText('Required')).toHaveLength(2);
    expect(api.calls).toHaveLength(0);
  });

  it('finds a device of the activity centre by asking the server with what was typed, once typing pauses', async () => {
    const device = (id: number, name: string) => ({ deviceId: id, deviceName: name, deviceGuid: `G${id}` });
    const api = fakeServer({
      'POST /device/Device/page': (call) => {
        const name = (call.body as { deviceName?: string }).deviceName;
        const rows = name ? [device(5000, 'Truck 5000')] : [device(1, 'Cold room A logger'), device(2, 'Freezer')];
        return envelope({ start: 1, pageSize: 20, totalCount: name ? 1 : 5000, data: rows });
      },
      [REDEEM]: () => envelope({ orderId: 3, orderCode: '2026', levelName: 'Basic', timeLength: 6, serviceExpiredDate: null }),
    });
    vi.spyOn(notify, 'success').mockImplementation(() => '');
    renderApp(<RedeemCardDialog isOpen onClose={vi.fn()} />);
    await screen.findByRole('option', { name: 'Freezer · G2' });
    fireEvent.change(screen.getByTestId('redeem-device-search'), { target: { value: 'T' } });
    fireEvent.change(screen.getByTestId('redeem-device-search'), { target: { value: 'Truck 5' } });
    await screen.findByRole('option', { name: 'Truck 5000 · G5000' });
    // one question for the pause, none per keystroke, and a page of matches rather than every device
    expect(api.callsTo('POST /device/Device/page').map((call) => call.body)).toEqual([
      { start: 1, pageSize: 20 }, { start: 1, pageSize: 20, deviceName: 'Truck 5' }]);
    fireEvent.change(screen.getByTestId('redeem-device'), { target: { value: '5000' } });
    fill('RCAAAA', 'SECRET');
    await vi.waitFor(() => expect(api.callsTo(REDEEM)).toHaveLength(1));
    expect(api.callsTo(REDEEM)[0]!.body).toEqual({ deviceId: 5000, cardNumber: 'RCAAAA', secret: 'SECRET' });
  });
});

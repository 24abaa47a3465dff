import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n } from '@/test/harness';
import { readDraft, saveDraft } from '../draft';
import { emptyDevice } from '../form';
import { Apply, Customer } from './MobilePages';

beforeAll(setUpI18n);
afterEach(() => {
  sessionStorage.clear();
  vi.restoreAllMocks();
});

const prices = () => envelope([{ deviceTypeId: 7, typeName: 'RC-5 logger', service: 1, currency: 'CNY', price: 12_000 }]);

describe('the phone\'s application steps', () => {
  it('keeps a step\'s values in the draft only once they pass its rules', async () => {
    fakeServer({ 'GET /calibration/PriceConf/get/price': prices });
    renderApp(<Customer />, '/mobile/calibration/customer');
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('calibration-contactName'), 'Li Wei');
    await user.click(screen.getByTestId('calibration-next'));
    expect(await screen.findByText('Give a phone number or an e-mail address')).toBeInTheDocument();
    expect(readDraft().contactName).toBe('');
    await user.type(screen.getByTestId('calibration-contactPhone'), '13800001234');
    await user.type(screen.getByTestId('calibration-customerName'), 'Fresh Logistics');
    await user.type(screen.getByTestId('calibration-returnAddress'), '12 Gangcheng Road');
    await user.click(screen.getByTestId('calibration-next'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/mobile/calibration/apply'));
    expect(readDraft()).toMatchObject({ contactName: 'Li Wei', contactPhone: '13800001234' });
  });

  it('sends an incomplete draft back to the step that holds the problem, and applies none', async () => {
    saveDraft({ devices: [{ ...emptyDevice(7), model: 'RC-5', serialNumber: 'EL-1' }] });
    const server = fakeServer({ 'GET /calibration/PriceConf/get/price': prices });
    renderApp(<Apply />, '/mobile/calibration/apply');
    expect(await screen.findByTestId('calibration-summary-total')).toHaveTextContent('¥120.00');
    await userEvent.setup().click(screen.getByTestId('calibration-submit'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/mobile/calibration/customer'));
    expect(server.callsTo('POST /calibration/Application/apply')).toHaveLength(0);
  });
});

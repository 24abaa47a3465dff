import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n, type Call } from '@/test/harness';
import { notify } from '@/lib/notify';
import { CurrentServiceDrawer } from './CurrentServiceDrawer';
import { UnAgreementDrawer } from './UnAgreementDrawer';

const freezer = { deviceId: 5, deviceName: 'Pharmacy freezer' };
const agreement = { deviceId: 5, levelName: 'Professional', totalFee: 19900, currency: 'CNY', nextExecutionTime: '2027-03-03T10:00:00+08:00' };

/** A server with an agreement until unAgreement is called; `cancel` answers that call. */
function server(cancel: (call: Call) => Response = () => envelope(null)) {
  let active = true;
  return fakeServer({
    'GET /payment/PayOrder/selectCurrentService': () => envelope(active ? agreement : null),
    'GET /payment/PayOrder/unAgreement': (call) => {
      const answer = cancel(call);
      if (answer.status === 200) active = false;
      return answer;
    },
  });
}

async function confirmDialog() {
  const title = await screen.findByText('Cancel automatic renewal?');
  return within(title.closest('.bp6-alert') as HTMLElement);
}

beforeAll(setUpI18n);
afterEach(() => vi.restoreAllMocks());

describe('CurrentServiceDrawer', () => {
  it('shows the agreement: package, fee of each renewal and the next renewal', async () => {
    const api = server();
    renderApp(<CurrentServiceDrawer isOpen device={freezer} onClose={vi.fn()} />);
    const details = await screen.findByTestId('current-service');
    expect(details).toHaveTextContent('Pharmacy freezer');
    expect(details).toHaveTextContent('Professional');
    expect(details).toHaveTextContent('¥199');
    expect(details).toHaveTextContent('2027');
    expect(api.callsTo('GET /payment/PayOrder/selectCurrentService')[0]!.params.get('deviceId')).toBe('5');
  });

  it("shows the renewal's fee in its own currency", async () => {
    fakeServer({ 'GET /payment/PayOrder/selectCurrentService': () => envelope({ ...agreement, totalFee: 3990, currency: 'USD' }) });
    renderApp(<CurrentServiceDrawer isOpen device={freezer} onClose={vi.fn()} />);
    expect(await screen.findByTestId('current-service')).toHaveTextContent('$39.90');
  });

  it('says when the device has no automatic renewal, with nothing to cancel', async () => {
    fakeServer({ 'GET /payment/PayOrder/selectCurrentService': () => envelope(null) });
    renderApp(<CurrentServiceDrawer isOpen device={freezer} onClose={vi.fn()} />);
    expect(await screen.findByText('No automatic renewal')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel auto-renew' })).not.toBeInTheDocument();
  });

  it('asks before cancelling, and keeping it cancels nothing', async () => {
    const api = server();
    const user = userEvent.setup();
    renderApp(<CurrentServiceDrawer isOpen device={freezer} onClose={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Cancel auto-renew' }));
    const confirm = await confirmDialog();
    expect(confirm.getByText(/“Pharmacy freezer” will no longer be charged automatically/)).toBeInTheDocument();
    await user.click(confirm.getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByText('Cancel automatic renewal?')).not.toBeInTheDocument());
    expect(api.callsTo('GET /payment/PayOrder/unAgreement')).toHaveLength(0);
  });

  it('cancels once confirmed: unAgreement, a success notice, the service asked again, the parent told', async () => {
    const api = server();
    const success = vi.spyOn(notify, 'success');
    const onCancelled = vi.fn();
    const user = userEvent.setup();
    renderApp(<CurrentServiceDrawer isOpen device={freezer} onClose={vi.fn()} onCancelled={onCancelled} />);
    await user.click(await screen.findByRole('button', { name: 'Cancel auto-renew' }));
    await user.click((await confirmDialog()).getByRole('button', { name: 'Cancel auto-renew' }));
    await waitFor(() => expect(onCancelled).toHaveBeenCalledWith(5));
    expect(api.callsTo('GET /payment/PayOrder/unAgreement')[0]!.params.get('deviceId')).toBe('5');
    expect(success).toHaveBeenCalledWith('Automatic renewal cancelled');
    expect(await screen.findByText('No automatic renewal')).toBeInTheDocument();
    expect(api.callsTo('GET /payment/PayOrder/selectCurrentService').length).toBeGreaterThanOrEqual(2);
  });

  it('shows the server\'s message when the cancellation is refused', async () => {
    server(() => envelope(null, 1110, 409, 'This device has no automatic renewal to cancel'));
    const error = vi.spyOn(notify, 'error').mockImplementation(() => {});
    const onCancelled = vi.fn();
    const user = userEvent.setup();
    renderApp(<CurrentServiceDrawer isOpen device={freezer} onClose={vi.fn()} onCancelled={onCancelled} />);
    await user.click(await screen.findByRole('button', { name: 'Cancel auto-renew' }));
    await user.click((await confirmDialog()).getByRole('button', { name: 'Cancel auto-renew' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('This device has no automatic renewal to cancel', 'Error'));
    expect(onCancelled).not.toHaveBeenCalled();
  });

  it('shows the default message when the refusal carries none', async () => {
    server(() => envelope(null, 1110, 409, ''));
    const error = vi.spyOn(notify, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderApp(<CurrentServiceDrawer isOpen device={freezer} onClose={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Cancel auto-renew' }));
    await user.click((await confirmDialog()).getByRole('button', { name: 'Cancel auto-renew' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Your request is in error. Please try again later', 'Error'));
  });
});

describe('UnAgreementDrawer', () => {
  it('explains that a package change needs auto-renew cancelled first', async () => {
    server();
    renderApp(<UnAgreementDrawer isOpen device={freezer} onClose={vi.fn()} onClosed={vi.fn()} />);
    expect(await screen.findByText('This device renews automatically')).toBeInTheDocument();
    expect(screen.getByText(/A package change requires cancelling automatic renewal first/)).toBeInTheDocument();
    expect(await screen.findByTestId('current-service')).toHaveTextContent('Professional');
  });

  it('closing it asks the parent to fetch the service info again', async () => {
    const api = server();
    const onClose = vi.fn();
    const onClosed = vi.fn();
    const user = userEvent.setup();
    renderApp(<UnAgreementDrawer isOpen device={freezer} onClose={onClose} onClosed={onClosed} />);
    await user.click(await screen.findByRole('button', { name: 'Keep auto-renew' }));
    expect(onClose).toHaveBeenCalledOnce();
    expect(onClosed).toHaveBeenCalledOnce();
    expect(api.callsTo('GET /payment/PayOrder/unAgreement')).toHaveLength(0);
  });

  it('cancels auto-renew once confirmed, then closes and asks for the service info again', async () => {
    const api = server();
    const onClose = vi.fn();
    const onClosed = vi.fn();
    const user = userEvent.setup();
    renderApp(<UnAgreementDrawer isOpen device={freezer} onClose={onClose} onClosed={onClosed} />);
    await user.click(await screen.findByRole('button', { name: 'Cancel auto-renew' }));
    await user.click((await confirmDialog()).getByRole('button', { name: 'Cancel auto-renew' }));
    await waitFor(() => expect(onClosed).toHaveBeenCalledOnce());
    expect(onClose).toHaveBeenCalledOnce();
    expect(api.callsTo('GET /payment/PayOrder/unAgreement')).toHaveLength(1);
  });
});

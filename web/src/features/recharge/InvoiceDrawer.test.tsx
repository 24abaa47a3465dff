import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n, type Call } from '@/test/harness';
import { editionConfig, setEditionConfig } from '@/lib/config';
import { notify } from '@/lib/notify';
import type { Bill } from './api/bills';
import { BILL } from './test/levelFixtures';
import { InvoiceDrawer } from './InvoiceDrawer';

const domestic = { ...editionConfig() };

const saved = BILL;

const enterpriseBill: Bill = {
  ...saved,
  billId: 13,
  billDefaultStatus: 0,
  invoiceType: 2,
  billMode: 1,
  companyName: 'Acme Cold Chain Ltd',
  taxNumber: 'ABC123',
  personalName: null,
  bankDeposit: 'Bank of Shanghai 6222',
  billMail: null,
  billAddress: 'Dock 4, Pudong',
};

function server(answer: (call: Call) => Response | Promise<Response> = (call) => envelope({ ...saved, ...(call.body as object) })) {
  return fakeServer({
    'POST /payment/PayUserBill/insert': answer,
    'PUT /payment/PayUserBill/update': answer,
  });
}

function open(bill?: Bill) {
  const onClose = vi.fn();
  const onSaved = vi.fn();
  renderApp(<InvoiceDrawer isOpen bill={bill} onClose={onClose} onSaved={onSaved} />);
  return { onClose, onSaved };
}

const field = (name: RegExp) => screen.getByLabelText(name);
const save = () => screen.getByRole('button', { name: 'Save' });

beforeAll(setUpI18n);
afterEach(() => {
  vi.restoreAllMocks();
  setEditionConfig(domestic);
});

describe('InvoiceDrawer', () => {
  it('starts as a personal invoice by e-mail, without company fields or an address', async () => {
    open();
    expect(await screen.findByText('Add invoice details')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Personal' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Electronic invoice by e-mail' })).toBeChecked();
    expect(field(/^Name on the invoice/)).toBeInTheDocument();
    expect(field(/^E-mail/)).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Company name/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Tax number/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Bank and account/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Postal address/)).not.toBeInTheDocument();
  });

  it('refuses an empty personal invoice field by field, and sends nothing', async () => {
    const api = server();
    const user = userEvent.setup();
    open();
    await user.click(save());
    expect(await screen.findByText('Enter the name on the invoice')).toBeInTheDocument();
    expect(screen.getByText('Enter the recipient')).toBeInTheDocument();
    expect(screen.getByText('Enter the phone number')).toBeInTheDocument();
    expect(screen.getByText('Enter the e-mail address')).toBeInTheDocument();
    expect(field(/^Recipient/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(/^Recipient/)).toHaveAccessibleDescription('Enter the recipient');
    expect(api.calls).toHaveLength(0);
  });

  it('refuses a bad phone, a bad e-mail and a name that is too long', async () => {
    const api = server();
    const user = userEvent.setup();
    open();
    await user.type(field(/^Name on the invoice/), 'x'.repeat(31));
    await user.type(field(/^Recipient/), 'Alice');
    await user.type(field(/^Phone/), '12345');
    await user.type(field(/^E-mail/), 'alice@example');
    await user.click(save());
    expect(await screen.findByText('At most 30 characters')).toBeInTheDocument();
    expect(screen.getByText('Enter an 11-digit mobile number')).toBeInTheDocument();
    expect(screen.getByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('asks an enterprise for company, tax number and bank, and a postal invoice for an address', async () => {
    const api = server();
    const user = userEvent.setup();
    open();
    await user.click(screen.getByRole('radio', { name: 'Enterprise' }));
    await user.click(screen.getByRole('radio', { name: 'Paper invoice by post' }));
    expect(screen.queryByLabelText(/^Name on the invoice/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^E-mail/)).not.toBeInTheDocument();
    await user.type(field(/^Tax number/), 'ABC-123');
    await user.click(save());
    expect(await screen.findByText('Enter the company name')).toBeInTheDocument();
    expect(screen.getByText('Letters and digits only')).toBeInTheDocument();
    expect(screen.getByText('Enter the bank and account')).toBeInTheDocument();
    expect(screen.getByText('Enter the address')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('wants digits only for the phone internationally', async () => {
    setEditionConfig({ ...domestic, edition: 'international', currency: 'USD', countryCode: '1', countryCodeFixed: false });
    const user = userEvent.setup();
    server();
    open();
    await user.type(field(/^Phone/), '+1 415 555');
    await user.click(save());
    expect(await screen.findByText('Digits only, 4 to 20 of them')).toBeInTheDocument();
  });

  it('adds a personal invoice: the insert call, "added successfully", the saved bill to the parent', async () => {
    const api = server();
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    const { onSaved, onClose } = open();
    await user.type(field(/^Name on the invoice/), ' Alice Zhang ');
    await user.type(field(/^Recipient/), 'Alice Zhang');
    await user.type(field(/^Phone/), '13800138000');
    await user.type(field(/^E-mail/), 'alice@example.com');
    await user.click(save());
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(api.callsTo('POST /payment/PayUserBill/insert')[0]!.body).toEqual({
      invoiceType: 1,
      billMode: 2,
      billDefaultStatus: 0,
      companyName: null,
      taxNumber: null,
      personalName: 'Alice Zhang',
      bankDeposit: null,
      billUserName: 'Alice Zhang',
      billMail: 'alice@example.com',
      billPhone: '13800138000',
      billAddress: null,
    });
    expect(onSaved.mock.calls[0]![0]).toMatchObject({ billId: 12, personalName: 'Alice Zhang' });
    expect(success).toHaveBeenCalledWith('Added successfully');
    expect(onClose).toHaveBeenCalled();
  });

  it('edits a saved bill: the update call with its id and default status, "edited successfully"', async () => {
    const api = server();
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    const { onSaved } = open(enterpriseBill);
    expect(await screen.findByText('Edit invoice details')).toBeInTheDocument();
    expect(field(/^Company name/)).toHaveValue('Acme Cold Chain Ltd');
    expect(field(/^Postal address/)).toHaveValue('Dock 4, Pudong');
    await user.clear(field(/^Company name/));
    await user.type(field(/^Company name/), 'Acme Logistics');
    await user.click(screen.getByRole('checkbox', { name: 'Use as my default invoice' }));
    await user.click(save());
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(api.callsTo('POST /payment/PayUserBill/insert')).toHaveLength(0);
    expect(api.callsTo('PUT /payment/PayUserBill/update')[0]!.body).toEqual({
      billId: 13,
      invoiceType: 2,
      billMode: 1,
      billDefaultStatus: 1,
      companyName: 'Acme Logistics',
      taxNumber: 'ABC123',
      personalName: null,
      bankDeposit: 'Bank of Shanghai 6222',
      billUserName: 'Alice Zhang',
      billMail: null,
      billPhone: '13800138000',
      billAddress: 'Dock 4, Pudong',
    });
    expect(success).toHaveBeenCalledWith('Edited successfully');
  });

  it('shows the server\'s field errors under their fields', async () => {
    server(() => envelope(null, 422, 422, 'Invalid input', { billPhone: ['Enter a valid phone number'] }));
    const user = userEvent.setup();
    const { onSaved } = open(saved);
    await user.click(save());
    expect(await screen.findByText('Enter a valid phone number')).toBeInTheDocument();
    expect(field(/^Phone/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByTestId('invoice-failure')).not.toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('shows the server\'s message when the save is refused', async () => {
    server(() => envelope(null, 1113, 409, 'You can keep at most 20 invoices'));
    const user = userEvent.setup();
    const { onSaved, onClose } = open(saved);
    await user.click(save());
    expect(await screen.findByTestId('invoice-failure')).toHaveTextContent('You can keep at most 20 invoices');
    expect(onSaved).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('says "request error, try again later" when there is no answer', async () => {
    server(() => {
      throw new TypeError('Failed to fetch');
    });
    vi.spyOn(notify, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    open(saved);
    await user.click(save());
    expect(await screen.findByTestId('invoice-failure')).toHaveTextContent('Request error, try again later');
  });
});

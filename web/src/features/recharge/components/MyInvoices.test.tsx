import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n } from '@/test/harness';
import type { Invoice } from '@/lib/api/invoices';
import { notify } from '@/lib/notify';
import { saveFile } from '@/lib/saveFile';
import type { Bill } from '../api/bills';
import type { InvoiceableOrder } from '../api/invoices';
import { order } from '../test/orderFixtures';
import { MyInvoices } from './MyInvoices';
import { MyOrders } from './MyOrders';

vi.mock('@/lib/saveFile', () => ({ saveFile: vi.fn() }));

beforeAll(setUpI18n);
afterEach(() => {
  vi.restoreAllMocks();
});

const MINE = 'GET /payment/PayInvoice/myInvoices';
const APPLY = 'POST /payment/PayInvoice/applyBatchInvoice';
const page = <T,>(rows: T[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });

function invoice(change: Partial<Invoice> = {}): Invoice {
  return {
    invoiceId: 41, status: 1, currency: 'CNY', amount: 9950,
    orders: [{ orderId: 7, orderCode: '20261127101500123456', amount: 9950 }],
    bill: { billId: 3, invoiceType: 1, billMode: 2, companyName: null, taxNumber: null, personalName: 'Alice Zhang',
      bankDeposit: null, billUserName: 'Alice', billMail: 'alice@example.com', billPhone: '13800000001', billAddress: null },
    requestTime: '2026-11-23T10:00:00+08:00', dueTime: '2026-11-26T10:00:00+08:00', overdue: false, decidedTime: null,
    delivery: null, invoiceNumber: null, fileName: null, fileSize: null, rejectReason: null,
    ...change,
  };
}

const BILL: Bill = {
  billId: 3, billDefaultStatus: 1, invoiceType: 1, billMode: 2, companyName: null, taxNumber: null,
  personalName: 'Alice Zhang', bankDeposit: null, billUserName: 'Alice', billMail: 'alice@example.com',
  billPhone: '13800000001', billAddress: null,
};

function paid(orderId: number, currency = 'CNY', amount = 9900): InvoiceableOrder {
  return { orderId, orderCode: `2026112710150012345${orderId}`, orderDescription: 'Basic', payStatus: 2,
    payTime: '2026-11-27T10:16:00+08:00', currency, amount };
}

const rowOf = (id: number) => screen.getAllByTestId('my-invoice').find((card) => card.textContent?.includes(`request ${id}`))!;

describe('My invoices', () => {
  it('shows each request as it stands, and downloads an issued PDF', async () => {
    const api = fakeServer({
      [MINE]: () => page([
        invoice({ invoiceId: 43, overdue: true }),
        invoice({ invoiceId: 42, status: 3, rejectReason: 'The name does not match the tax records' }),
        invoice({ status: 2, delivery: 1, fileName: 'invoice.pdf', decidedTime: '2026-11-24T09:00:00+08:00',
          invoiceNumber: 'No 0042' }),
        invoice({ invoiceId: 40, status: 2, delivery: 2, decidedTime: '2026-11-24T09:00:00+08:00' }),
      ]),
      'GET /payment/PayInvoice/download': () => new Response('%PDF-1.7', {
        headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="invoice.pdf"' },
      }),
    });
    renderApp(<MyInvoices />);
    await waitFor(() => expect(screen.getAllByTestId('my-invoice')).toHaveLength(4));
    expect(within(rowOf(43)).getByTestId('my-invoice-status')).toHaveTextContent('Waiting');
    expect(within(rowOf(43)).getByTestId('my-invoice-due')).toHaveTextContent('Later than promised');
    expect(within(rowOf(42)).getByTestId('my-invoice-reason')).toHaveTextContent('The name does not match the tax records');
    expect(rowOf(40)).toHaveTextContent('Sent to your invoice details\' mailbox or address');
    expect(within(rowOf(41)).getByText('¥99.50')).toBeInTheDocument();

    await userEvent.setup().click(within(rowOf(41)).getByTestId('my-invoice-download'));
    await waitFor(() => expect(saveFile).toHaveBeenCalledWith(expect.anything(), 'invoice.pdf'));
    expect(api.calls.find((call) => call.path === '/payment/PayInvoice/download')!.params.get('invoiceId')).toBe('41');
  });

  it('asks for one invoice on paid orders of one currency with saved details, and says a refusal', async () => {
    let applied = 0;
    const api = fakeServer({
      'POST /payment/PayOrder/selectMyOrderList': () => page([order({ payStatus: 2, expireTime: null })]),
      'GET /payment/PayInvoice/invoiceableOrders': () => envelope([paid(7), paid(8), paid(9, 'USD', 1999)]),
      'POST /payment/PayUserBill/selectListByDomain': () => envelope([BILL]),
      [APPLY]: () => {
        applied += 1;
        return applied === 1
          ? envelope(null, 1143, 409, 'Order 20261127101500123458 is already in an invoice request that is waiting or issued')
          : envelope(invoice());
      },
    });
    const success = vi.spyOn(notify, 'success');
    renderApp(<MyOrders />);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('request-invoice'));
    const choices = await screen.findAllByTestId('invreq-order');
    expect(choices).toHaveLength(3);
    await user.click(screen.getByTestId('invreq-submit'));
    expect(await screen.findByText('Choose at least one order')).toBeInTheDocument();

    await user.click(screen.getAllByRole('checkbox')[0]!);
    await user.click(screen.getAllByRole('checkbox')[1]!);
    expect(screen.getAllByRole('checkbox')[2]).toBeDisabled(); // dollars: another invoice
    expect(screen.getByTestId('invreq-total')).toHaveTextContent('¥198.00');
    expect(screen.getByTestId('invreq-bill')).toHaveValue('3');

    await user.click(screen.getByTestId('invreq-submit'));
    expect(await screen.findByTestId('invreq-refusal')).toHaveTextContent('already in an invoice request');
    expect(api.callsTo(APPLY)[0]!.body).toEqual({ orderIds: [7, 8], billId: 3 });
    await user.click(screen.getByTestId('invreq-submit'));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Invoice requested: it is issued within three working days'));
    await waitFor(() => expect(screen.queryByTestId('invreq-form')).not.toBeInTheDocument());
  });
});

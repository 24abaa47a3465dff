import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn, type FakeServer } from '@/test/harness';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import { invoiceFilterBody, type DeskInvoice } from '../api/invoices';
import OrdersPage from '../OrdersPage';

vi.mock('@/lib/saveFile', () => ({ saveFile: vi.fn() }));

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const ALL = ['home', 'order.recharge', 'order.recharge:query', 'order.recharge:detail', 'order.recharge:export',
  'order.recharge:edit'];
const READ_ONLY = ['home', 'order.recharge', 'order.recharge:query'];
const QUEUE = 'GET /payment/PayOrder/selectOrderInvoice';
const page = <T,>(rows: T[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });

function invoice(change: Partial<DeskInvoice> = {}): DeskInvoice {
  return {
    invoiceId: 41, status: 1, currency: 'CNY', amount: 9900,
    orders: [{ orderId: 7, orderCode: '20261127101500123456', amount: 9900 }],
    bill: { billId: 3, invoiceType: 2, billMode: 2, companyName: 'Zhang Cold Store', taxNumber: '91310000MA1FL0XX',
      personalName: null, bankDeposit: 'ICBC 6222', billUserName: 'Alice Zhang', billMail: 'tax@zhang.example',
      billPhone: '13800000001', billAddress: null },
    requestTime: '2026-11-23T10:00:00+08:00', dueTime: '2026-11-26T10:00:00+08:00', overdue: false, decidedTime: null,
    delivery: null, invoiceNumber: null, fileName: null, fileSize: null, rejectReason: null,
    accountId: 3, userName: 'alice', automatic: false, decidedBy: null,
    ...change,
  };
}

function server(rows: DeskInvoice[], extra: Parameters<typeof fakeServer>[0] = {}): FakeServer {
  return fakeServer({
    'POST /payment/PayOrder/selectOrderList': () => page([]),
    [QUEUE]: () => page(rows),
    ...extra,
  });
}

/** The body a call sent as multipart, from the fetch it was made with. */
function formOf(api: FakeServer, path: string): FormData {
  const call = api.spy.mock.calls.find(([input]) => String(input).includes(path));
  return call![1]!.body as FormData;
}

async function openInvoices(permissions: string[] = ALL) {
  signIn(accountInfo({}, { permissionRoutes: permissions }), permissions);
  renderApp(<OrdersPage />, '/operation/recharge');
  const user = userEvent.setup({ applyAccept: false });
  await user.click(await screen.findByRole('radio', { name: 'Invoices' }));
  return user;
}

describe('the order desk\'s invoices', () => {
  it('sends the filter as the server takes it', () => {
    expect(invoiceFilterBody({ account: '  alice ', status: 1, overdue: true })).toEqual({ account: 'alice', status: 1, overdue: true });
    expect(invoiceFilterBody({ account: ' ' })).toEqual({});
  });

  it('lists the waiting requests first and shows an overdue one in red', async () => {
    const api = server([invoice({ invoiceId: 40, overdue: true, automatic: true }), invoice()]);
    const user = await openInvoices();
    const rows = await screen.findAllByTestId('inv-row');
    expect(rows).toHaveLength(2);
    expect(api.callsTo(QUEUE)[0]!.params.get('status')).toBe('1');
    expect(rows[0]).toHaveClass('jc-inv-overdue');
    expect(within(rows[0]!).getByTestId('inv-status')).toHaveTextContent('Overdue');
    expect(rows[0]).toHaveTextContent('with the order');
    expect(rows[1]).not.toHaveClass('jc-inv-overdue');
    expect(within(rows[1]!).getByTestId('inv-status')).toHaveTextContent('Waiting');
    expect(rows[1]).toHaveTextContent('Zhang Cold Store');
    expect(screen.getByTestId('inv-total')).toHaveTextContent('2 requests');

    await user.click(screen.getByTestId('inv-overdue-only'));
    await user.click(screen.getByTestId('inv-search-submit'));
    await waitFor(() => expect(api.callsTo(QUEUE).at(-1)!.params.get('overdue')).toBe('true'));
  });

  it('issues a request with its PDF after refusing a file that is not one', async () => {
    const api = server([invoice()], {
      'POST /payment/PayInvoice/issue': () => envelope(invoice({ status: 2, delivery: 1, fileName: 'invoice.pdf' })),
    });
    const success = vi.spyOn(notify, 'success');
    const user = await openInvoices();
    await user.click((await screen.findAllByTestId('inv-row'))[0]!);
    expect(await screen.findByTestId('inv-facts')).toHaveTextContent('91310000MA1FL0XX');
    const input = screen.getByTestId('inv-file').querySelector('input')!;

    await user.click(screen.getByTestId('inv-issue'));
    expect(await screen.findByText('Choose the invoice\'s PDF')).toBeInTheDocument();
    await user.upload(input, new File(['<html>'], 'invoice.html', { type: 'text/html' }));
    await user.click(screen.getByTestId('inv-issue'));
    expect(await screen.findByText('Only a PDF file')).toBeInTheDocument();
    expect(api.callsTo('POST /payment/PayInvoice/issue')).toHaveLength(0);

    await user.upload(input, new File(['%PDF-1.7'], 'invoice.pdf', { type: 'application/pdf' }));
    await user.type(screen.getByTestId('inv-number'), 'No 0042');
    await user.click(screen.getByTestId('inv-issue'));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Invoice request 41 issued; the customer has been told'));
    const form = formOf(api, '/payment/PayInvoice/issue');
    expect([form.get('invoiceId'), form.get('invoiceNumber'), (form.get('file') as File).name]).toEqual(
      ['41', 'No 0042', 'invoice.pdf']);
  });

  it('records an invoice sent to the mailbox, and shows a refusal', async () => {
    const api = server([invoice()], {
      'POST /payment/PayOrder/updateInvoice': () => envelope(null, 1144, 409, 'This invoice request has already been issued or rejected'),
    });
    const user = await openInvoices();
    await user.click((await screen.findAllByTestId('inv-row'))[0]!);
    await user.click(await screen.findByTestId('inv-how-mailbox'));
    expect(screen.queryByTestId('inv-file')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('inv-issue'));
    expect(await screen.findByTestId('inv-refusal')).toHaveTextContent('already been issued or rejected');
    expect(api.callsTo('POST /payment/PayOrder/updateInvoice')[0]!.body).toEqual({ invoiceId: 41 });
  });

  it('rejects a request only with a reason', async () => {
    const api = server([invoice()], {
      'POST /payment/PayInvoice/reject': () => envelope(invoice({ status: 3, rejectReason: 'Wrong tax number' })),
    });
    const user = await openInvoices();
    await user.click((await screen.findAllByTestId('inv-row'))[0]!);
    await user.click(await screen.findByTestId('inv-reject'));
    await user.click(screen.getByTestId('inv-reject-submit'));
    expect(await screen.findByText('Say why the request is rejected')).toBeInTheDocument();
    await user.type(screen.getByTestId('inv-reason'), '  Wrong tax number ');
    await user.click(screen.getByTestId('inv-reject-submit'));
    await waitFor(() => expect(api.callsTo('POST /payment/PayInvoice/reject')[0]?.body).toEqual(
      { invoiceId: 41, reason: 'Wrong tax number' }));
    await waitFor(() => expect(screen.queryByTestId('inv-reject-form')).not.toBeInTheDocument());
  });

  it('offers an operator without the edit and export permissions neither decisions nor the export', async () => {
    server([invoice({ status: 2, delivery: 1, fileName: 'invoice.pdf' })]);
    const user = await openInvoices(READ_ONLY);
    await user.click((await screen.findAllByTestId('inv-row'))[0]!);
    expect(await screen.findByTestId('inv-facts')).toHaveTextContent('PDF in the console');
    expect(screen.queryByTestId('inv-issue-form')).not.toBeInTheDocument();
    expect(screen.queryByTestId('inv-download')).not.toBeInTheDocument();
    expect(screen.queryByTestId('inv-export')).not.toBeInTheDocument();
  });
});

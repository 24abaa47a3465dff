import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderApp, setUpI18n, signIn } from '@/test/harness';
import { notify } from '@/lib/notify';
import { saveFile } from '@/lib/saveFile';
import { session } from '@/lib/session';
import FdaPage from './FdaPage';
import { reportFormSchema } from './components/ReportDialog';
import { addDays, dayStartIn, lastMonth, periodOf } from './dates';
import { bodyOf, FDA_PERMISSIONS, fdaServer, PASSWORD, signatureRow, trailRow, type FdaServer } from './testing';
import i18n from 'i18next';

vi.mock('@/lib/saveFile', () => ({ saveFile: vi.fn() }));

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
  vi.mocked(saveFile).mockClear();
});

function open(server: FdaServer, tab: string) {
  signIn({ ...server.state.info, permissionRoutes: FDA_PERMISSIONS }, FDA_PERMISSIONS);
  return renderApp(<FdaPage />, `/fda?tab=${tab}`);
}

const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;

describe('the signatures tab', () => {
  it('lists each manifestation: time in the signer zone, record, printed name, meaning, reason and whether it applies', async () => {
    const server = fdaServer();
    open(server, 'signatures');
    const rows = await screen.findAllByTestId('signature-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(/09:00:00 GMT\+2 \(Europe\/Berlin\)/);
    expect(rows[0]).toHaveTextContent('Alarm handling');
    expect(rows[0]).toHaveTextContent('Vaccine fridge logger: above 8 °C');
    expect(rows[0]).toHaveTextContent('Acme Admin');
    expect(rows[0]).toHaveTextContent('acme');
    expect(rows[0]).toHaveTextContent('Responsible');
    expect(rows[0]).toHaveTextContent('Door closed, goods checked');
    expect(within(rows[0]!).getByTestId('signature-validity')).toHaveTextContent('Applies');
    expect(within(rows[1]!).getByTestId('signature-validity')).toHaveTextContent('No longer applies');
    expect(bodyOf(server.callsTo('POST /device/FdaRecord/signatures')[0])).toEqual({ organizationId: 3, start: 1, pageSize: 10 });
  });

  it('filters by subject, signer, meaning, record type and days', async () => {
    const server = fdaServer();
    const user = userEvent.setup();
    open(server, 'signatures');
    await screen.findAllByTestId('signature-row');
    await user.selectOptions(screen.getByTestId('fda-subject-select'), 'own');
    await user.type(screen.getByTestId('signature-filter-signer'), ' carol ');
    await user.selectOptions(screen.getByTestId('signature-filter-meaning'), 'reviewed');
    await user.selectOptions(screen.getByTestId('signature-filter-record'), 'report');
    await user.type(screen.getByTestId('signature-filter-from'), '2026-04-01');
    await user.type(screen.getByTestId('signature-filter-to'), '2026-04-30');
    await user.click(screen.getByTestId('signature-search'));
    await waitFor(() => expect(server.callsTo('POST /device/FdaRecord/signatures')).toHaveLength(2));
    expect(bodyOf(server.callsTo('POST /device/FdaRecord/signatures')[1])).toEqual({
      signerName: 'carol', meaning: 'reviewed', recordType: 'report', startTime: dayStartIn('2026-04-01', TZ),
      endTime: dayStartIn('2026-05-01', TZ),
      start: 1, pageSize: 10,
    });
  });

  it("names an export's signature as a readings export, and finds the exports' signatures", async () => {
    const exported = signatureRow({ id: 7, recordType: 'export', recordId: 'x1y2', meaning: 'authored', meaningText: 'Authored', reason: null,
      recordLabel: 'Cold room A logger 2026-05-01 00:00 – 2026-05-08 00:00 UTC (PDF)' });
    const server = fdaServer({}, { signatures: [exported] });
    const user = userEvent.setup();
    open(server, 'signatures');
    const [row] = await screen.findAllByTestId('signature-row');
    expect(within(row!).getByText('Readings export').closest('.jc-fda-record-tag')).not.toBeNull();
    expect(row).toHaveTextContent('Cold room A logger 2026-05-01 00:00 – 2026-05-08 00:00 UTC (PDF)');
    expect(row).toHaveTextContent('Authored');
    await user.selectOptions(screen.getByTestId('signature-filter-record'), 'Readings export');
    await user.click(screen.getByTestId('signature-search'));
    await waitFor(() => expect(server.callsTo('POST /device/FdaRecord/signatures')).toHaveLength(2));
    expect(bodyOf(server.callsTo('POST /device/FdaRecord/signatures')[1])).toMatchObject({ recordType: 'export' });
  });

  it('does not search a backwards range', async () => {
    const server = fdaServer();
    const user = userEvent.setup();
    open(server, 'signatures');
    await screen.findAllByTestId('signature-row');
    await user.type(screen.getByTestId('signature-filter-from'), '2026-05-01');
    await user.type(screen.getByTestId('signature-filter-to'), '2026-04-01');
    expect(screen.getByText('The end is before the start')).toBeInTheDocument();
    expect(screen.getByTestId('signature-search')).toBeDisabled();
  });
});

describe('the audit trail tab', () => {
  it('says the trail verified, lists its links and exports it', async () => {
    const server = fdaServer();
    const user = userEvent.setup();
    open(server, 'trail');
    const status = await screen.findByTestId('trail-verification');
    await waitFor(() => expect(status).toHaveAttribute('data-verified', 'true'));
    expect(status).toHaveTextContent('The trail verified');
    expect(status).toHaveTextContent('2 links checked at');
    const rows = await screen.findAllByTestId('trail-row');
    expect(rows.map((r) => r.getAttribute('data-seq'))).toEqual(['2', '1']);
    expect(rows[0]).toHaveTextContent('acme');
    expect(rows[0]).toHaveTextContent('Cold room A logger');
    expect(rows[0]).toHaveTextContent('222222222222');
    expect(server.callsTo('GET /device/FdaRecord/verify')[0]?.params.get('organizationId')).toBe('3');
    expect(bodyOf(server.callsTo('POST /device/FdaRecord/trail')[0])).toEqual({ organizationId: 3, start: 1, pageSize: 10 });

    await user.click(screen.getByTestId('trail-export'));
    await waitFor(() => expect(saveFile).toHaveBeenCalledWith(expect.anything(), 'audit-trail.xlsx'));
    expect(server.callsTo('GET /device/FdaRecord/trail/export')[0]?.params.get('organizationId')).toBe('3');
  });

  it('names the first broken link, and verifies again on demand', async () => {
    const server = fdaServer({}, { trail: [trailRow(3), { ...trailRow(2), operation: null }, trailRow(1)] });
    server.state.verification = { verified: false, links: 3, checkedAt: '2026-05-02T10:00:00+08:00',
      firstBroken: { seq: 2, operationId: 102, at: '2026-05-01T08:00:00+08:00', reason: 'hash', reasonText: 'The entry was changed after it was written' } };
    const user = userEvent.setup();
    open(server, 'trail');
    const status = await screen.findByTestId('trail-verification');
    await waitFor(() => expect(status).toHaveAttribute('data-verified', 'false'));
    expect(status).toHaveTextContent('The trail is broken');
    expect(screen.getByTestId('trail-first-broken')).toHaveTextContent(
      /First broken link: #2 \(operation 102, .*\): The entry was changed after it was written/);
    // the link it names is marked, and its entry, gone from the log, is said to be gone
    const marked = screen.getAllByTestId('trail-row').find((row) => row.getAttribute('data-broken') === 'true')!;
    expect(marked).toHaveAttribute('data-seq', '2');
    expect(within(marked).getByTestId('trail-missing')).toHaveTextContent('This entry is no longer in the operation log');

    server.state.verification = { verified: true, links: 3, firstBroken: null, checkedAt: '2026-05-02T11:00:00+08:00' };
    await user.click(screen.getByTestId('trail-verify'));
    await waitFor(() => expect(screen.getByTestId('trail-verification')).toHaveAttribute('data-verified', 'true'));
    expect(server.callsTo('GET /device/FdaRecord/verify')).toHaveLength(2);
  });
});

describe('the report form', () => {
  const schema = reportFormSchema(i18n.t.bind(i18n) as never);
  const ok = (change: object) => schema.safeParse({ deviceId: 1, first: '2026-04-01', last: '2026-04-30', title: '', ...change }).success;

  it('needs a device and a period that starts before it ends and covers at most 366 days', () => {
    expect(ok({})).toBe(true);
    expect(ok({ deviceId: null })).toBe(false);
    expect(ok({ first: '2026-05-01', last: '2026-04-30' })).toBe(false);
    expect(ok({ first: '2025-05-01', last: '2026-04-30' })).toBe(true); // 365 days
    expect(ok({ first: '2024-01-01', last: '2024-12-31' })).toBe(true); // 366 days
    expect(ok({ first: '2024-01-01', last: '2025-01-01' })).toBe(false);
    expect(ok({ first: 'yesterday' })).toBe(false);
    expect(ok({ title: 'x'.repeat(101) })).toBe(false);
  });

  it('starts with last month and sends whole days', () => {
    expect(lastMonth(new Date(2026, 0, 15))).toEqual({ first: '2025-12-01', last: '2025-12-31' });
    expect(lastMonth(new Date(2026, 2, 31))).toEqual({ first: '2026-02-01', last: '2026-02-28' });
    expect(periodOf('2026-02-01', '2026-02-28', 'Asia/Shanghai'))
      .toEqual({ startTime: '2026-02-01T00:00:00+08:00', endTime: '2026-03-01T00:00:00+08:00' });
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
  });

  it("writes each day's start with the offset its zone then has, across a clock change", () => {
    expect(dayStartIn('2026-03-29', 'Europe/Berlin')).toBe('2026-03-29T00:00:00+01:00'); // the clocks go forward at 02:00
    expect(dayStartIn('2026-03-30', 'Europe/Berlin')).toBe('2026-03-30T00:00:00+02:00');
    expect(dayStartIn('2026-11-01', 'America/Sao_Paulo')).toBe('2026-11-01T00:00:00-03:00');
    expect(dayStartIn('2026-06-01', 'Asia/Kolkata')).toBe('2026-06-01T00:00:00+05:30');
    expect(dayStartIn('2026-06-01', 'UTC')).toBe('2026-06-01T00:00:00+00:00');
  });
});

describe('the periodic reports tab', () => {
  it('lists reports with status and signatures, and downloads the PDF', async () => {
    const server = fdaServer();
    const user = userEvent.setup();
    open(server, 'reports');
    const rows = await screen.findAllByTestId('report-row');
    expect(rows[0]).toHaveTextContent('Cold room A, April 2026');
    expect(within(rows[0]!).getByTestId('report-status')).toHaveTextContent('Draft');
    expect(rows[0]).toHaveTextContent('Not signed yet');
    expect(within(rows[1]!).getByTestId('report-status')).toHaveTextContent('Reviewed');
    expect(within(rows[1]!).getByTestId('signature')).toHaveTextContent('Carol Reviewer (carol)');
    expect(within(rows[0]!).queryByTestId('report-approve')).toBeNull();
    expect(within(rows[1]!).queryByTestId('report-review')).toBeNull();

    await user.click(within(rows[0]!).getByTestId('report-download'));
    await waitFor(() => expect(saveFile).toHaveBeenCalledWith(expect.anything(), 'report-4.pdf'));
    expect(server.callsTo('GET /device/FdaReport/download')[0]?.params.get('id')).toBe('4');
  });

  it('reviews one by signature, then another approves it', async () => {
    const server = fdaServer();
    const user = userEvent.setup();
    open(server, 'reports');
    const [draft] = await screen.findAllByTestId('report-row');
    await user.click(within(draft!).getByTestId('report-review'));
    const dialog = await screen.findByTestId('signature-dialog');
    expect(screen.getByRole('heading', { name: 'Sign as reviewer' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('signature-label')).toHaveTextContent('Cold room A, April 2026');
    expect(within(dialog).getByTestId('signature-meaning-select')).toHaveValue('m:reviewed');
    await user.type(within(dialog).getByTestId('signature-password'), PASSWORD);
    await user.click(within(dialog).getByTestId('signature-submit'));
    await waitFor(() => expect(screen.queryByTestId('signature-dialog')).toBeNull());
    expect(bodyOf(server.callsTo('POST /device/FdaRecord/sign')[0])).toEqual({ recordType: 'report', recordId: '4',
      signature: { password: PASSWORD, meaning: 'reviewed', timeZone: TZ } });
    await waitFor(() => expect(within(screen.getAllByTestId('report-row')[0]!).getByTestId('report-status')).toHaveTextContent('Reviewed'));

    await user.click(within(screen.getAllByTestId('report-row')[0]!).getByTestId('report-approve'));
    const approval = await screen.findByTestId('signature-dialog');
    expect(within(approval).getByTestId('signature-meaning-select')).toHaveValue('m:approved');
    await user.type(within(approval).getByTestId('signature-password'), PASSWORD);
    await user.type(within(approval).getByTestId('signature-reason-input'), 'Excursions explained');
    await user.click(within(approval).getByTestId('signature-submit'));
    await waitFor(() => expect(within(screen.getAllByTestId('report-row')[0]!).getByTestId('report-status')).toHaveTextContent('Approved'));
    expect(bodyOf(server.callsTo('POST /device/FdaRecord/sign')[1])).toMatchObject({ recordId: '4',
      signature: { meaning: 'approved', reason: 'Excursions explained' } });
  });

  it("shows the server's refusal of a second signature by the same person in the dialog", async () => {
    const server = fdaServer({
      'POST /device/FdaRecord/sign': () => new Response(JSON.stringify({ code: 1301, msg: 'The approver must differ from the reviewer',
        data: null }), { status: 409, headers: { 'Content-Type': 'application/json' } }),
    });
    const user = userEvent.setup();
    open(server, 'reports');
    const rows = await screen.findAllByTestId('report-row');
    await user.click(within(rows[1]!).getByTestId('report-approve'));
    const dialog = await screen.findByTestId('signature-dialog');
    await user.type(within(dialog).getByTestId('signature-password'), PASSWORD);
    await user.click(within(dialog).getByTestId('signature-submit'));
    expect(await within(dialog).findByTestId('signature-error')).toHaveTextContent('The approver must differ from the reviewer');
  });

  it('creates one for a device and last month, and says what the server refuses', async () => {
    let refuse = true;
    const server = fdaServer();
    const base = server.spy.getMockImplementation()!;
    server.spy.mockImplementation(async (input, init) => {
      if (String(input).endsWith('/device/FdaReport/insert') && refuse) {
        refuse = false;
        return new Response(JSON.stringify({ code: 1302, msg: 'FDA mode is off for this device', data: null }),
          { status: 409, headers: { 'Content-Type': 'application/json' } });
      }
      return base(input, init);
    });
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    const user = userEvent.setup();
    open(server, 'reports');
    await screen.findAllByTestId('report-row');
    await user.click(screen.getByTestId('report-add'));
    const dialog = await screen.findByTestId('report-dialog');
    const month = lastMonth();
    expect(within(dialog).getByTestId('report-first')).toHaveValue(month.first);
    expect(within(dialog).getByTestId('report-last')).toHaveValue(month.last);
    await user.click(within(dialog).getByTestId('report-create'));
    expect(await within(dialog).findByText('Choose the device')).toBeInTheDocument();

    await user.click(await within(dialog).findByRole('checkbox', { name: /Freezer B/ }));
    await user.type(within(dialog).getByTestId('report-title'), 'Freezer B, monthly');
    await user.click(within(dialog).getByTestId('report-create'));
    expect(await within(dialog).findByTestId('report-error')).toHaveTextContent('FDA mode is off for this device');

    await user.click(within(dialog).getByTestId('report-create'));
    await waitFor(() => expect(screen.queryByTestId('report-dialog')).toBeNull());
    expect(bodyOf(server.callsTo('POST /device/FdaReport/insert').at(-1))).toEqual({ deviceId: 2, title: 'Freezer B, monthly',
      startTime: dayStartIn(month.first, TZ), endTime: dayStartIn(addDays(month.last, 1), TZ) });
    await waitFor(() => expect(screen.getAllByTestId('report-row')).toHaveLength(3));
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn, type Routes } from '@/test/harness';
import type { ExportRecord } from '@/lib/api/exports';
import { signatureNeeds, type Endorsement, type SignatureRow } from '@/lib/api/fda';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import DownloadsPage, { formatSize } from './DownloadsPage';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

function record(change: Partial<ExportRecord> = {}): ExportRecord {
  return {
    id: 'abc', kind: 'readings', format: 'xlsx', title: 'Cold room A logger', status: 'ready', progress: 100,
    size: 123_456, fileName: 'Cold_room_A_logger_2026-05-01_2026-05-08.xlsx', deviceId: 1,
    startTime: '2026-05-01T08:00:00+08:00', endTime: '2026-05-08T08:00:00+08:00', createdAt: '2026-05-08T08:00:00+08:00',
    finishedAt: '2026-05-08T08:00:05+08:00', expiresAt: '2026-05-15T08:00:00+08:00', error: null, ...change,
  };
}

const page = (rows: ExportRecord[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });
const PERMITTED = ['home', 'device.list', 'consumer.download'];

describe('the download centre', () => {
  it('writes sizes as people read them', () => {
    expect(formatSize(null, 'en-US')).toBe('—');
    expect(formatSize(512, 'en-US')).toBe('512 B');
    expect(formatSize(123_456, 'en-US')).toBe('121 KB');
    expect(formatSize(5 * 1024 * 1024 + 300_000, 'de-DE')).toBe('5,3 MB');
  });

  it('lists the exports, polls while one is written, and downloads only a ready one', async () => {
    let calls = 0;
    const server = fakeServer({
      'POST /device/DeviceDataExport/page': () => {
        calls += 1;
        return page([
          record({ id: 'new', format: 'pdf', status: calls > 1 ? 'ready' : 'running', progress: calls > 1 ? 100 : 40, size: calls > 1 ? 2048 : null }),
          record({ id: 'list', kind: 'deviceList', title: '', status: 'failed', progress: 0, size: null, error: 'The device is gone', startTime: null, endTime: null }),
          record(),
        ]);
      },
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<DownloadsPage />, '/consumer/download');
    await waitFor(() => expect(screen.getAllByTestId('download-row')).toHaveLength(3));
    const [running, failed, ready] = screen.getAllByTestId('download-row');
    expect(running).toHaveAttribute('data-status', 'running');
    expect(within(running!).getByText('Writing')).toBeInTheDocument();
    expect(within(running!).getByTestId('download-file')).toBeDisabled();
    expect(within(failed!).getByText('Device list')).toBeInTheDocument();
    expect(within(failed!).getByText('The device is gone')).toBeInTheDocument();
    expect(within(failed!).queryByTestId('download-file')).toBeNull();
    expect(within(failed!).getByTestId('download-retry')).toBeEnabled();
    expect(within(ready!).getByText('121 KB')).toBeInTheDocument();
    expect(within(ready!).getByTestId('download-file')).toBeEnabled();
    // asked again while one is being written, until it is ready
    await waitFor(() => expect(screen.getAllByTestId('download-row')[0]).toHaveAttribute('data-status', 'ready'), { timeout: 4000 });
    expect(server.callsTo('POST /device/DeviceDataExport/page')[0]?.body).toEqual({ start: 1, pageSize: 10 });
  });

  it('deletes an export and asks for the list again', async () => {
    let rows = [record()];
    const server = fakeServer({
      'POST /device/DeviceDataExport/page': () => page(rows),
      'DELETE /device/DeviceDataExport/delete': () => {
        rows = [];
        return envelope(null);
      },
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<DownloadsPage />, '/consumer/download');
    await userEvent.setup().click(await screen.findByTestId('download-delete'));
    expect(await screen.findByText('No exports yet')).toBeInTheDocument();
    expect(server.callsTo('DELETE /device/DeviceDataExport/delete')[0]?.params.get('id')).toBe('abc');
  });

  it('tries a failed export again: the new one replaces it in the list', async () => {
    let rows = [record({ id: 'bad', status: 'failed', progress: 0, size: null, fileName: null, error: 'The file could not be written' })];
    const server = fakeServer({
      'POST /device/DeviceDataExport/page': () => page(rows),
      'POST /device/DeviceDataExport/retry': () => {
        rows = [record({ id: 'again' })];
        return envelope(rows[0]);
      },
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<DownloadsPage />, '/consumer/download');
    await userEvent.setup().click(await screen.findByTestId('download-retry'));
    await waitFor(() => expect(screen.getByTestId('download-row')).toHaveAttribute('data-status', 'ready'));
    expect(screen.queryByTestId('download-retry')).toBeNull();
    expect(server.callsTo('POST /device/DeviceDataExport/retry')[0]?.params.get('id')).toBe('bad');
  });
});

describe('the download centre where FDA mode is on', () => {
  const RETRY = 'POST /device/DeviceDataExport/retry';
  const FDA_PERMITTED = [...PERMITTED, 'fda', 'fda:query'];
  const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const failed = () => record({ id: 'bad', status: 'failed', progress: 0, size: null, fileName: null, error: 'The file could not be written' });

  function signature(change: Partial<SignatureRow> = {}): SignatureRow {
    return {
      id: 51, recordType: 'export', recordId: 'again', recordLabel: 'Cold room A logger 2026-05-01 00:00 – 2026-05-08 00:00 UTC (XLSX)',
      signerName: 'Alice Doe', signerLogin: 'alice', meaning: 'authored', meaningText: 'Authored', reason: null,
      signedAt: '2026-05-08T00:00:00+00:00', timeZone: 'Europe/Berlin', localTime: '2026-05-08T02:00:00+02:00',
      endorsementId: null, endorsementName: null, valid: true, ...change,
    };
  }

  function endorsement(id: number, name: string, recordTypes: string[]): Endorsement {
    return { id, name, description: null, meaning: 'approved', meaningText: 'Approved', recordTypes, roleIds: [], accountIds: [],
      distinctSigner: false, organizationId: 3 };
  }

  /** A failed export whose retry the server answers 428 while unsigned, as it does where FDA mode is on for its device. */
  function server(routes: Routes = {}) {
    let rows = [failed()];
    const signed: Record<string, SignatureRow[]> = {};
    return fakeServer({
      'POST /device/DeviceDataExport/page': () => page(rows),
      'GET /device/FdaRecord/status': () => envelope({ subjects: [
        { accountId: 7, organizationId: null, name: 'alice', enabled: false, changeable: true },
        { accountId: null, organizationId: 3, name: 'Acme Cold Chain', enabled: true, changeable: false },
      ] }),
      'GET /device/FdaRecord/signingState': () =>
        envelope({ needsUserName: true, locked: false, lockedUntil: null, reauthMinutes: 15, userName: 'alice' }),
      'POST /device/FdaEndorsement/page': () => envelope({ start: 1, pageSize: 200, totalCount: 0, data: [] }),
      'GET /device/FdaRecord/recordSignatures': (call) => envelope(signed[call.params.get('recordId') ?? ''] ?? []),
      [RETRY]: (call) => {
        if ((call.body as { signature?: unknown } | undefined)?.signature === undefined) {
          return envelope(null, 2321, 428, 'This change needs your electronic signature');
        }
        rows = [record({ id: 'again', status: 'pending', progress: 0, size: null })];
        signed.again = [signature()];
        return envelope(rows[0]);
      },
      ...routes,
    });
  }

  async function retryAsSigner(permissions = FDA_PERMITTED) {
    signIn(accountInfo({}, { permissionRoutes: permissions }), permissions);
    renderApp(<DownloadsPage />, '/consumer/download');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('download-retry'));
    return { user, dialog: await screen.findByTestId('signature-dialog') };
  }

  afterEach(() => signatureNeeds.forget());

  it("asks for the author's signature when the retry is answered 428, asks again with it, and shows it on the new export", async () => {
    const api = server();
    const error = vi.spyOn(notify, 'error').mockImplementation(() => {});
    const { user, dialog } = await retryAsSigner();
    expect(within(dialog).getByTestId('signature-label')).toHaveTextContent(/^Cold room A logger · .+ – .+ · XLSX$/);
    expect(within(dialog).getByTestId('signature-intro')).toHaveTextContent('the export is asked for again with your electronic signature as its author');
    expect(within(dialog).getByTestId('signature-meaning-select')).toHaveValue('m:authored');
    expect(within(dialog).getByTestId('signature-submit')).toHaveTextContent('Sign and try again');
    expect(error).not.toHaveBeenCalled(); // the 428 is the dialog's cue, not a failure
    await user.type(within(dialog).getByTestId('signature-user'), 'alice');
    await user.type(within(dialog).getByTestId('signature-password'), 'Coldchain#2026');
    await user.click(within(dialog).getByTestId('signature-submit'));

    await waitFor(() => expect(screen.queryByTestId('signature-dialog')).toBeNull());
    const [unsigned, signed] = api.callsTo(RETRY);
    expect(unsigned?.params.get('id')).toBe('bad');
    expect(unsigned?.body ?? {}).not.toHaveProperty('signature');
    expect(signed?.params.get('id')).toBe('bad');
    expect(signed?.body).toEqual({ signature: { userName: 'alice', password: 'Coldchain#2026', meaning: 'authored', timeZone: TZ } });
    // the new export, in the list in place of the failed one, with its author's signature
    const row = await screen.findByTestId('download-row');
    expect(row).toHaveAttribute('data-status', 'pending');
    const manifestation = await within(row).findByTestId('signature');
    expect(within(manifestation).getByTestId('signature-meaning')).toHaveTextContent('Authored');
    expect(within(manifestation).getByTestId('signature-name')).toHaveTextContent('Alice Doe (alice)');
    expect(within(manifestation).getByTestId('signature-time')).toHaveTextContent('Europe/Berlin');
    expect(api.callsTo('GET /device/FdaRecord/recordSignatures').at(-1)?.params.toString()).toBe('recordType=export&recordId=again');
    expect(error).not.toHaveBeenCalled();
  });

  it('asks for nothing once the signer cancels', async () => {
    const api = server();
    const { user, dialog } = await retryAsSigner();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('signature-dialog')).toBeNull());
    expect(api.callsTo(RETRY)).toHaveLength(1);
    expect(screen.getByTestId('download-row')).toHaveAttribute('data-status', 'failed');
    expect(screen.getByTestId('download-retry')).toBeEnabled();
  });

  it('shows a refused signature in the dialog and keeps the session', async () => {
    const api = server({
      [RETRY]: (call) => ((call.body as { signature?: unknown } | undefined)?.signature === undefined
        ? envelope(null, 2321, 428, 'This change needs your electronic signature')
        : envelope(null, 2323, 403, 'Wrong user name or password: 4 tries left')),
    });
    const { user, dialog } = await retryAsSigner();
    await user.type(within(dialog).getByTestId('signature-user'), 'alice');
    await user.type(within(dialog).getByTestId('signature-password'), 'wrong');
    await user.click(within(dialog).getByTestId('signature-submit'));
    expect(await within(dialog).findByTestId('signature-error')).toHaveTextContent('4 tries left');
    expect(session.get().info).not.toBeNull();
    expect(api.callsTo(RETRY)).toHaveLength(2);
  });

  it('offers the endorsements that cover exports, and only those', async () => {
    server({
      'POST /device/FdaEndorsement/page': () => envelope({ start: 1, pageSize: 200, totalCount: 2, data: [
        endorsement(21, 'Data release', ['export', 'report']), endorsement(22, 'Waybill sign-off', ['waybill']),
      ] }),
    });
    const { dialog } = await retryAsSigner();
    const select = within(dialog).getByTestId('signature-meaning-select');
    expect(await within(select).findByRole('option', { name: 'Data release: Approved' })).toHaveValue('e:21');
    expect(within(select).queryByRole('option', { name: /Waybill sign-off/ })).toBeNull();
  });

  it("says why the server refused a retry that needs no signature", async () => {
    server({ [RETRY]: () => envelope(null, 1201, 400, 'At most 3 exports may be in progress') });
    const error = vi.spyOn(notify, 'error').mockImplementation(() => {});
    signIn(accountInfo({}, { permissionRoutes: FDA_PERMITTED }), FDA_PERMITTED);
    renderApp(<DownloadsPage />, '/consumer/download');
    await userEvent.setup().click(await screen.findByTestId('download-retry'));
    await waitFor(() => expect(error).toHaveBeenCalledWith('At most 3 exports may be in progress'));
    expect(screen.queryByTestId('signature-dialog')).toBeNull();
  });

  it("reads a readings export's signatures, never a device list's, and none without the right to read them", async () => {
    const rows = [record({ id: 'signed' }), record({ id: 'plain' }), record({ id: 'list', kind: 'deviceList', title: '', deviceId: null })];
    const api = fakeServer({
      'POST /device/DeviceDataExport/page': () => page(rows),
      'GET /device/FdaRecord/recordSignatures': (call) =>
        call.params.get('recordId') === 'signed' ? envelope([signature({ recordId: 'signed' })])
          : call.params.get('recordId') === 'plain' ? envelope([])
            : envelope(null, 404, 404, 'No such record'),
    });
    const error = vi.spyOn(notify, 'error').mockImplementation(() => {});
    signIn(accountInfo({}, { permissionRoutes: FDA_PERMITTED }), FDA_PERMITTED);
    const { unmount } = renderApp(<DownloadsPage />, '/consumer/download');
    await waitFor(() => expect(screen.getAllByTestId('download-row')).toHaveLength(3));
    const [signedRow, plainRow, listRow] = screen.getAllByTestId('download-row');
    expect(await within(signedRow!).findByTestId('signature-list')).toHaveTextContent('Authored');
    await waitFor(() => expect(api.callsTo('GET /device/FdaRecord/recordSignatures')).toHaveLength(2));
    expect(api.callsTo('GET /device/FdaRecord/recordSignatures').map((call) => call.params.get('recordId')).sort()).toEqual(['plain', 'signed']);
    expect(within(plainRow!).queryByTestId('signature-list')).toBeNull();
    expect(within(listRow!).queryByTestId('signature-list')).toBeNull();
    expect(error).not.toHaveBeenCalled();
    unmount();
    session.clear();

    // a caller who may not read signatures is not asked for them (a 403 would end the session)
    api.calls.length = 0;
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<DownloadsPage />, '/consumer/download');
    await waitFor(() => expect(screen.getAllByTestId('download-row')).toHaveLength(3));
    expect(api.callsTo('GET /device/FdaRecord/recordSignatures')).toHaveLength(0);
  });
});

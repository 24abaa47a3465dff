import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n, type Routes } from '@/test/harness';
import { signatureNeeds } from '@/lib/api/fda';
import type { ExportRecord } from '@/lib/api/exports';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import { signInWith } from '@/test/devices';
import { ExportDeviceButton, type ExportedDevice } from './ExportDialog';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  signatureNeeds.forget();
  vi.restoreAllMocks();
});

const CREATE = 'POST /device/DeviceDataExport/create';
const PERMISSIONS = ['home', 'device.list', 'device.detail', 'consumer.download', 'fda', 'fda:query'];
const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;
const COLD_ROOM: ExportedDevice = { deviceId: 1, deviceName: 'Cold room A logger', organizationId: 3, ownerId: 9 };

const record: ExportRecord = {
  id: 'e1', kind: 'readings', format: 'xlsx', title: 'Cold room A logger', status: 'pending', progress: 0, size: null, fileName: null,
  deviceId: 1, startTime: '2026-11-01T00:00:00+00:00', endTime: '2026-11-02T00:00:00+00:00', createdAt: '2026-11-02T00:00:00+00:00',
  finishedAt: null, expiresAt: '2026-11-09T00:00:00+00:00', error: null,
};

const NEEDS_SIGNATURE = () => envelope(null, 2321, 428, 'This change needs your electronic signature');

/** The export call answers 428 to an unsigned body where FDA mode is on (`fdaOn`), as the server does. */
function server(fdaOn: boolean | null, routes: Routes = {}) {
  return fakeServer({
    'GET /device/FdaRecord/status': () => envelope({ subjects: [
      { accountId: 7, organizationId: null, name: 'alice', enabled: false, changeable: true },
      ...(fdaOn === null ? [] : [{ accountId: null, organizationId: 3, name: 'Acme Cold Chain', enabled: fdaOn, changeable: false }]),
    ] }),
    'GET /device/FdaRecord/signingState': () =>
      envelope({ needsUserName: true, locked: false, lockedUntil: null, reauthMinutes: 15, userName: 'alice' }),
    'POST /device/FdaEndorsement/page': () => envelope({ start: 1, pageSize: 200, totalCount: 0, data: [] }),
    [CREATE]: (call) => ((call.body as { signature?: unknown }).signature === undefined && fdaOn !== false
      ? NEEDS_SIGNATURE() : envelope(record)),
    ...routes,
  });
}

async function openExport() {
  signInWith(PERMISSIONS);
  renderApp(<ExportDeviceButton device={COLD_ROOM} />, '/device/detail/1');
  const user = userEvent.setup();
  await user.click(screen.getByTestId('device-export'));
  await user.click(await screen.findByTestId('export-format-pdf'));
  return user;
}

async function signAs(user: ReturnType<typeof userEvent.setup>, password = 'Coldchain#2026') {
  const dialog = await screen.findByTestId('signature-dialog');
  if (within(dialog).queryByTestId('signature-user')) await user.type(within(dialog).getByTestId('signature-user'), 'alice');
  await user.type(within(dialog).getByTestId('signature-password'), password);
  await user.click(within(dialog).getByTestId('signature-submit'));
  return dialog;
}

describe("a device's export where FDA mode is on", () => {
  it("asks for the author's signature when the server answers 428, then asks again with it", async () => {
    const api = server(null); // the caller's switches do not say: the device is shared with it
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    const error = vi.spyOn(notify, 'error').mockImplementation(() => {});
    const user = await openExport();
    await user.click(screen.getByTestId('export-submit'));
    const dialog = await screen.findByTestId('signature-dialog');
    expect(within(dialog).getByTestId('signature-label')).toHaveTextContent('Cold room A logger · 24 hours · PDF report');
    expect(within(dialog).getByTestId('signature-intro')).toHaveTextContent('the export goes out with your electronic signature as its author');
    expect(within(dialog).getByTestId('signature-meaning-select')).toHaveValue('m:authored');
    expect(within(dialog).getByTestId('signature-submit')).toHaveTextContent('Sign and export');
    expect(error).not.toHaveBeenCalled(); // the 428 is the dialog's cue, not a failure
    await signAs(user);

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/consumer/download'));
    const [unsigned, signed] = api.callsTo(CREATE).map((call) => call.body as Record<string, unknown>);
    expect(unsigned).toMatchObject({ deviceId: 1, format: 'pdf' });
    expect(unsigned).not.toHaveProperty('signature');
    expect(signed).toEqual({ ...unsigned, signature: { userName: 'alice', password: 'Coldchain#2026', meaning: 'authored', timeZone: TZ } });
    expect(notify.success).toHaveBeenCalledWith('Export started: it appears in the download centre');
  });

  it('asks first where the switch says FDA mode is on, sending one signed call', async () => {
    const api = server(true);
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    const user = await openExport();
    await waitFor(() => expect(api.callsTo('GET /device/FdaRecord/status')).toHaveLength(1));
    await user.click(screen.getByTestId('export-submit'));
    await signAs(user);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/consumer/download'));
    expect(api.callsTo(CREATE)).toHaveLength(1);
    expect(api.callsTo(CREATE)[0]?.body).toMatchObject({ signature: { meaning: 'authored' } });
  });

  it('offers the endorsements of the organization that cover exports, and signs with the one chosen', async () => {
    const endorsement = (id: number, name: string, recordTypes: string[]) => ({ id, name, description: null, meaning: 'approved',
      meaningText: 'Approved', recordTypes, roleIds: [], accountIds: [], distinctSigner: false, organizationId: 3 });
    const api = server(true, {
      'POST /device/FdaEndorsement/page': () => envelope({ start: 1, pageSize: 200, totalCount: 2, data: [
        endorsement(21, 'Data release', ['export']), endorsement(22, 'Report sign-off', ['report']),
      ] }),
    });
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    const user = await openExport();
    await waitFor(() => expect(api.callsTo('GET /device/FdaRecord/status')).toHaveLength(1));
    await user.click(screen.getByTestId('export-submit'));
    const dialog = await screen.findByTestId('signature-dialog');
    const select = within(dialog).getByTestId('signature-meaning-select');
    await within(select).findByRole('option', { name: 'Data release: Approved' });
    expect(within(select).queryByRole('option', { name: /Report sign-off/ })).toBeNull();
    expect(api.callsTo('POST /device/FdaEndorsement/page')[0]?.body).toMatchObject({ organizationId: 3 });
    await user.selectOptions(select, 'e:21');
    await signAs(user);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/consumer/download'));
    const sent = (api.callsTo(CREATE)[0]?.body as { signature: Record<string, unknown> }).signature;
    expect(sent).toMatchObject({ endorsementId: 21 });
    expect(sent).not.toHaveProperty('meaning');
  });

  it('exports unsigned where the switch is off', async () => {
    const api = server(false);
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    const user = await openExport();
    await waitFor(() => expect(api.callsTo('GET /device/FdaRecord/status')).toHaveLength(1));
    await user.click(screen.getByTestId('export-submit'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/consumer/download'));
    expect(api.callsTo(CREATE)[0]?.body).not.toHaveProperty('signature');
    expect(screen.queryByTestId('signature-dialog')).toBeNull();
  });

  it('shows a refused signature in the dialog, keeps the session, and asks for nothing once cancelled', async () => {
    const api = server(true, {
      [CREATE]: () => envelope(null, 2323, 403, 'Wrong user name or password: 4 tries left'),
    });
    const user = await openExport();
    await waitFor(() => expect(api.callsTo('GET /device/FdaRecord/status')).toHaveLength(1));
    await user.click(screen.getByTestId('export-submit'));
    const dialog = await signAs(user, 'wrong');
    expect(await within(dialog).findByTestId('signature-error')).toHaveTextContent('4 tries left');
    expect(session.get().info).not.toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('signature-dialog')).toBeNull());
    expect(api.callsTo(CREATE)).toHaveLength(1);
    expect(screen.getByTestId('location')).toHaveTextContent('/device/detail/1');
    expect(screen.getByTestId('export-submit')).toBeInTheDocument(); // the export dialog stays for another try
  });

  it("says why the server refused an export that needs no signature", async () => {
    server(false, { [CREATE]: () => envelope(null, 1201, 400, 'At most 3 exports may be in progress') });
    const error = vi.spyOn(notify, 'error').mockImplementation(() => {});
    const user = await openExport();
    await user.click(screen.getByTestId('export-submit'));
    await waitFor(() => expect(error).toHaveBeenCalledWith('At most 3 exports may be in progress'));
    expect(screen.queryByTestId('signature-dialog')).toBeNull();
  });
});

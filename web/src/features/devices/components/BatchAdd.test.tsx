import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, setUpI18n } from '@/test/harness';
import { session } from '@/lib/session';
import { ALL_DEVICE_PERMISSIONS, device, page, signInWith } from '@/test/devices';
import DeviceListPage from '../DeviceListPage';
import { SHEET_MAX_BYTES, type SheetReport } from '../api/manage';

const CONNECTION = {
  host: 'mqtt.example.com',
  port: 8883,
  tls: true,
  topics: { telemetry: 'devices/{guid}/telemetry', status: 'devices/{guid}/status', commands: 'devices/{guid}/commands', acks: 'devices/{guid}/acks' },
  examplePayload: '{"t": 4.5}',
};
const REPORT: SheetReport = {
  rows: [
    { row: 2, deviceGuid: 'BATCHLOGGER01', outcome: 'added', message: null, deviceId: 11, credentials: { username: 'BATCHLOGGER01', password: 'first-password-0123456789' } },
    { row: 3, deviceGuid: 'BATCHLOGGER02', outcome: 'added', message: null, deviceId: 12, credentials: { username: 'BATCHLOGGER02', password: '-starts-with-a-dash-12345' } },
    { row: 4, deviceGuid: 'BATCHLOGGER01', outcome: 'alreadyAdded', message: 'This device has already been added', deviceId: null, credentials: null },
    { row: 5, deviceGuid: 'bad guid!', outcome: 'invalid', message: 'A GUID is 8 to 32 letters and digits', deviceId: null, credentials: null },
  ],
  added: 2,
};
const SHEET = new File(['PK fake workbook'], 'loggers.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

function server(batchInsert = () => envelope(REPORT)) {
  return fakeServer({
    'POST /device/Device/page': () => envelope(page([device({ isOwner: true })])),
    'GET /device/Device/connection': () => envelope(CONNECTION),
    'POST /device/Device/batchInsert': batchInsert,
    'GET /device/Device/batchInsert/template': () =>
      new Response('PK', { headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename="devices.xlsx"' } }),
  });
}

/** The files the page hands to the browser to save (URL.createObjectURL is not in jsdom). */
function savedFiles(): Blob[] {
  const saved: Blob[] = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    saved.push(blob);
    return 'blob:saved';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  return saved;
}

vi.setConfig({ testTimeout: 20_000 });
beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

async function openBatchAdd() {
  const user = userEvent.setup();
  renderApp(<DeviceListPage />, '/device/list');
  await user.click(await screen.findByTestId('device-batch-add'));
  const form = await screen.findByTestId('batch-add-form');
  return { user, form };
}

describe('adding devices from a sheet', () => {
  it('uploads the sheet, reports every row, shows the logins once and refreshes the list', async () => {
    const api = server();
    const saved = savedFiles();
    signInWith([...ALL_DEVICE_PERMISSIONS, 'device.list:import']);
    const { user, form } = await openBatchAdd();
    await user.click(within(form).getByTestId('batch-template'));
    await waitFor(() => expect(api.callsTo('GET /device/Device/batchInsert/template')).toHaveLength(1));
    await waitFor(() => expect(saved).toHaveLength(1));
    const listed = api.callsTo('POST /device/Device/page').length;

    expect((within(form).getByTestId('batch-upload') as HTMLButtonElement).disabled).toBe(true);
    await user.upload(within(form).getByTestId('batch-file'), SHEET);
    expect(form.textContent).toContain('loggers.xlsx');
    await user.click(within(form).getByTestId('batch-upload'));

    const report = await screen.findByTestId('batch-report');
    const sent = api.spy.mock.calls.find(([url]) => String(url).includes('/batchInsert') && !String(url).includes('template'));
    expect((sent?.[1]?.body as FormData).get('file')).toBeInstanceOf(File);
    expect(((sent?.[1]?.body as FormData).get('file') as File).name).toBe('loggers.xlsx');

    const rows = within(report).getAllByTestId('batch-row');
    expect(rows.map((row) => row.getAttribute('data-outcome'))).toEqual(['added', 'added', 'alreadyAdded', 'invalid']);
    expect(rows[0]?.textContent).toContain('Added');
    expect(rows[0]?.textContent).toContain('first-password-0123456789');
    expect(rows[2]?.textContent).toContain('Already added');
    expect(rows[2]?.textContent).toContain('This device has already been added');
    expect(rows[3]?.textContent).toContain('Invalid');
    expect(screen.getByTestId('batch-count-added').textContent).toBe('Added: 2');
    expect(screen.getByTestId('batch-count-alreadyAdded').textContent).toBe('Already added: 1');
    expect(screen.getByTestId('batch-count-unknownType').textContent).toBe('Unknown type: 0');
    expect(screen.getByTestId('batch-count-invalid').textContent).toBe('Invalid: 1');
    expect(screen.getByTestId('batch-once-warning').textContent).toContain('shown only this once');
    await waitFor(() => expect(api.callsTo('POST /device/Device/page').length).toBeGreaterThan(listed));

    // The logins as CSV: the added rows only, with where to connect.
    await waitFor(() => expect((screen.getByTestId('batch-save-logins') as HTMLButtonElement).disabled).toBe(false));
    await user.click(screen.getByTestId('batch-save-logins'));
    expect(saved).toHaveLength(2);
    const bytes = new Uint8Array(await saved[1]!.arrayBuffer());
    // A BOM first, so that a spreadsheet reads the file as UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes).split('\r\n')).toEqual([
      '"Row","GUID (user name and client ID)","Password","MQTT host","Port"',
      '"2","BATCHLOGGER01","first-password-0123456789","mqtt.example.com","8883 (TLS)"',
      `"3","BATCHLOGGER02","'-starts-with-a-dash-12345","mqtt.example.com","8883 (TLS)"`,
      '',
    ]);

    await user.click(screen.getByTestId('batch-done'));
    await waitFor(() => expect(screen.queryByTestId('batch-report')).toBeNull());
  });

  it('refuses a file that is not an .xlsx or too large without sending it', async () => {
    const api = server();
    signInWith([...ALL_DEVICE_PERMISSIONS, 'device.list:import']);
    const { form } = await openBatchAdd();
    const drop = within(form).getByTestId('batch-drop');
    fireEvent.drop(drop, { dataTransfer: { files: [new File(['a,b'], 'loggers.csv', { type: 'text/csv' })] } });
    expect((await within(form).findByRole('alert')).textContent).toBe('Choose an Excel workbook (.xlsx)');
    fireEvent.drop(drop, { dataTransfer: { files: [new File([new Uint8Array(SHEET_MAX_BYTES + 1)], 'huge.xlsx')] } });
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe('The file is too large: at most 512 KB'));
    expect((within(form).getByTestId('batch-upload') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.drop(drop, { dataTransfer: { files: [new File([new Uint8Array(SHEET_MAX_BYTES)], 'just-fits.xlsx')] } });
    await waitFor(() => expect(within(form).queryByRole('alert')).toBeNull());
    expect((within(form).getByTestId('batch-upload') as HTMLButtonElement).disabled).toBe(false);
    expect(api.callsTo('POST /device/Device/batchInsert')).toHaveLength(0);
  });

  it("shows the server's refusal of the whole file and no report", async () => {
    server(() => envelope(null, 422, 422, 'Invalid input', { file: ['The sheet may hold at most 500 devices'] }));
    signInWith([...ALL_DEVICE_PERMISSIONS, 'device.list:import']);
    const { user, form } = await openBatchAdd();
    await user.upload(within(form).getByTestId('batch-file'), SHEET);
    await user.click(within(form).getByTestId('batch-upload'));
    expect((await within(form).findByRole('alert')).textContent).toBe('The sheet may hold at most 500 devices');
    expect(screen.queryByTestId('batch-report')).toBeNull();
  });

  it('has no batch add without the import permission', async () => {
    server();
    signInWith([...ALL_DEVICE_PERMISSIONS, 'device.list:add']);
    renderApp(<DeviceListPage />, '/device/list');
    await screen.findAllByTestId('device-row');
    expect(screen.getByTestId('device-add')).toBeTruthy();
    expect(screen.queryByTestId('device-batch-add')).toBeNull();
  });
});

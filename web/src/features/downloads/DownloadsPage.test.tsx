import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import type { ExportRecord } from '@/lib/api/exports';
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

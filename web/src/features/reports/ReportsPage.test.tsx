import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import { device, page as devices } from '@/test/devices';
import type { RunRecord, ScheduleRecord } from './api/reports';
import ReportsPage, { scheduleFormSchema, splitRecipients } from './ReportsPage';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const PERMITTED = ['home', 'device.list', 'consumer.download'];
const page = <T,>(rows: T[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });

function schedule(change: Partial<ScheduleRecord> = {}): ScheduleRecord {
  return {
    id: 7, name: 'Cold rooms', frequency: 'weekly', weekday: 0, monthDay: null, deviceIds: [1, 2], devices: [{ deviceId: 1, deviceName: 'Cold room A logger' }, { deviceId: 2, deviceName: 'Cold room B logger' }], format: 'xlsx',
    recipients: ['qa@example.com'], enabled: true, createdAt: '2026-05-01T08:00:00+08:00', ...change,
  };
}

const devicePage = envelope(devices([device({ deviceId: 1, deviceName: 'Cold room A logger' }),
  device({ deviceId: 2, deviceName: 'Cold room B logger' })]));

describe('scheduled reports', () => {
  it('checks the form as the server does', () => {
    const schema = scheduleFormSchema(i18n.t.bind(i18n) as never);
    const good = { name: 'Daily', frequency: 'daily', weekday: 0, monthDay: 1, deviceIds: [1], format: 'csv',
      recipients: 'a@example.com, b@example.com', enabled: true } as const;
    expect(schema.safeParse(good).success).toBe(true);
    expect(schema.safeParse({ ...good, recipients: 'a@example.com\nA@Example.com' }).success).toBe(false);
    expect(schema.safeParse({ ...good, recipients: 'not an address' }).success).toBe(false);
    expect(schema.safeParse({ ...good, deviceIds: [] }).success).toBe(false);
    expect(schema.safeParse({ ...good, name: 'x'.repeat(21) }).success).toBe(false);
    expect(schema.safeParse({ ...good, monthDay: 29 }).success).toBe(false);
    expect(splitRecipients(' a@x.io;b@x.io\n\nc@x.io ')).toEqual(['a@x.io', 'b@x.io', 'c@x.io']);
  });

  it('lists schedules, switches one off, and shows its runs', async () => {
    const run: RunRecord = {
      id: 1, periodStart: '2026-05-04T00:00:00+08:00', periodEnd: '2026-05-11T00:00:00+08:00',
      startedAt: '2026-05-11T00:05:00+08:00', finishedAt: '2026-05-11T00:06:00+08:00', outcome: 'partial',
      files: [{ deviceId: 1, deviceName: 'Cold room A logger', exportId: 'x', fileName: 'a.xlsx', size: 10, error: null },
        { deviceId: 9, deviceName: '', exportId: null, fileName: null, size: null, error: 'The device is gone' }],
      sentTo: ['qa@example.com'], attempts: 1, error: null,
    };
    const server = fakeServer({
      'POST /device/ScheduledReport/page': () => page([schedule()]),
      'POST /device/ScheduledReport/update': () => envelope(schedule({ enabled: false })),
      'POST /device/ScheduledReport/runs': () => page([run]),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<ReportsPage />, '/service/scheduledBackup');
    const row = await screen.findByTestId('report-row');
    expect(within(row).getByText('Weekly on Monday')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(row).getByTestId('report-enabled'));
    await waitFor(() => expect(server.callsTo('POST /device/ScheduledReport/update')).toHaveLength(1));
    // exactly the fields the server takes: the names that came with the schedule are not sent back
    expect(server.callsTo('POST /device/ScheduledReport/update')[0]?.body).toEqual({
      id: 7, name: 'Cold rooms', frequency: 'weekly', weekday: 0, monthDay: null, deviceIds: [1, 2], format: 'xlsx',
      recipients: ['qa@example.com'], enabled: false,
    });
    await user.click(within(row).getByTestId('report-runs'));
    const runs = await screen.findByTestId('report-run');
    expect(within(runs).getByText('Sent in part')).toBeInTheDocument();
    expect(within(runs).getByText(/The device is gone/)).toBeInTheDocument();
    expect(server.callsTo('POST /device/ScheduledReport/runs')[0]?.body).toMatchObject({ scheduleId: 7 });
  });

  it('makes a schedule from the dialog and deletes one only after confirmation', async () => {
    let rows: ScheduleRecord[] = [];
    const server = fakeServer({
      'POST /device/ScheduledReport/page': () => page(rows),
      'POST /device/Device/page': () => devicePage,
      'POST /device/ScheduledReport/insert': () => {
        rows = [schedule({ frequency: 'monthly', weekday: null, monthDay: 1 })];
        return envelope(rows[0]);
      },
      'DELETE /device/ScheduledReport/delete': () => {
        rows = [];
        return envelope(null);
      },
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<ReportsPage />, '/service/scheduledBackup');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('report-add'));
    await user.type(screen.getByTestId('report-name'), 'Cold rooms');
    await user.selectOptions(screen.getByTestId('report-frequency'), 'monthly');
    await user.click(await screen.findByLabelText('Cold room B logger'));
    await user.type(screen.getByTestId('report-recipients'), 'qa@example.com, qa@example.com');
    await user.click(screen.getByTestId('report-save'));
    expect(await screen.findByText('Each address may be given only once')).toBeInTheDocument();
    expect(server.callsTo('POST /device/ScheduledReport/insert')).toHaveLength(0);
    await user.clear(screen.getByTestId('report-recipients'));
    await user.type(screen.getByTestId('report-recipients'), 'qa@example.com');
    await user.click(screen.getByTestId('report-save'));
    await waitFor(() => expect(server.callsTo('POST /device/ScheduledReport/insert')).toHaveLength(1));
    expect(server.callsTo('POST /device/ScheduledReport/insert')[0]?.body).toEqual({
      name: 'Cold rooms', frequency: 'monthly', weekday: null, monthDay: 1, deviceIds: [2], format: 'xlsx',
      recipients: ['qa@example.com'], enabled: true,
    });
    await user.click(await screen.findByTestId('report-delete'));
    expect(await screen.findByTestId('report-delete-confirm')).toBeInTheDocument();
    expect(server.callsTo('DELETE /device/ScheduledReport/delete')).toHaveLength(0);
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No scheduled reports yet')).toBeInTheDocument();
    expect(server.callsTo('DELETE /device/ScheduledReport/delete')[0]?.params.get('id')).toBe('7');
  });

  it('finds devices by name on the server, beyond the first page, and keeps the chosen ones as tags', async () => {
    const many = Array.from({ length: 20 }, (_, i) => device({ deviceId: 100 + i, deviceName: `Freezer ${i + 1}` }));
    const server = fakeServer({
      'POST /device/ScheduledReport/page': () => page([schedule({ deviceIds: [1], devices: [{ deviceId: 1, deviceName: 'Cold room A logger' }] })]),
      'POST /device/Device/page': (call) => {
        const { deviceName } = call.body as { deviceName?: string };
        if (deviceName === '4999') return envelope(devices([device({ deviceId: 4999, deviceName: 'Dock 4999' })]));
        return envelope({ ...JSON.parse(JSON.stringify(devices(many))), totalCount: 5000 });
      },
      'POST /device/ScheduledReport/update': (call) => envelope({ ...schedule(), ...(call.body as object) }),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<ReportsPage />, '/service/scheduledBackup');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('report-edit'));
    // the schedule's device is named although it is not among the first matches
    expect(await screen.findByTestId('report-picker-chosen')).toHaveTextContent('Cold room A logger');
    expect(await screen.findByTestId('report-picker-more')).toHaveTextContent('20 of 5000 shown');
    await user.type(screen.getByTestId('report-picker-search'), '4999');
    await user.click(await screen.findByLabelText('Dock 4999'));
    await user.clear(screen.getByTestId('report-picker-search'));
    await screen.findByLabelText('Freezer 1');
    expect(screen.getByTestId('report-picker-chosen')).toHaveTextContent('Dock 4999');
    expect(server.callsTo('POST /device/Device/page').map((c) => (c.body as { deviceName?: string }).deviceName)).toContain('4999');
    await user.click(screen.getByTestId('report-save'));
    await waitFor(() => expect(server.callsTo('POST /device/ScheduledReport/update')).toHaveLength(1));
    expect((server.callsTo('POST /device/ScheduledReport/update')[0]?.body as { deviceIds: number[] }).deviceIds).toEqual([1, 4999]);
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderRoute, setUpI18n, type Routes } from '@/test/harness';
import { ALL_DEVICE_PERMISSIONS, detail, signInWith } from '@/test/devices';
import { everyElement } from '@/lib/access';
import { session } from '@/lib/session';
import type { DeviceDetail } from '@/lib/api/devices';
import { signatureNeeds } from '@/lib/api/fda';
import type { MaintenanceRecord, ParamsState } from '../api/detailTabs';
import DeviceDetailPage from '../DeviceDetailPage';
import { maintenanceFormSchema } from './MaintenanceTab';
import { paramsFormSchema } from './ParamsTab';

const PATTERN = '/device/detail/:deviceId';
const DESIRED = { displayPrecision: 1, temperatureUnit: 'C' as const, uploadInterval: 300, recordInterval: 60 };
const NEVER_SENT: ParamsState = {
  desired: DESIRED, acknowledged: null, state: null, commandId: null, sentAt: null, answeredAt: null, error: null, access: 2,
};
const RECORD: MaintenanceRecord = {
  id: 5, deviceId: 1, maintainDate: '2026-01-15', person: 'Li Wei', approver: 'Zhang', reason: 'Door seal worn',
  content: 'Replaced the door seal', standard: null, result: 'Holds 2-8 °C',
  createdAt: '2026-01-15T10:00:00+08:00', updatedAt: '2026-01-15T10:00:00+08:00',
};

function server(device: DeviceDetail = detail(), extra: Routes = {}) {
  return fakeServer({
    'GET /device/Device/get': () => envelope(device),
    'GET /device/DeviceParam/get': () => envelope({ ...NEVER_SENT, access: device.access }),
    'POST /device/DeviceOperationLog/page': () => envelope({
      start: 1, pageSize: 10, totalCount: 2, data: [
        { id: 2, kind: 'params_changed', at: '2026-11-22T10:00:00+08:00', detail: 'precision=2 unit=F upload=600s record=120s', actorName: 'alice' },
        { id: 1, kind: 'credentials_rotated', at: '2026-11-21T10:00:00+08:00', detail: null, actorName: null },
      ],
    }),
    'POST /device/DeviceMaintenance/page': () => envelope({ start: 1, pageSize: 10, totalCount: 1, data: [RECORD], access: device.access }),
    ...extra,
  });
}

const open = (tab: string) => renderRoute(<DeviceDetailPage />, PATTERN, `/device/detail/1?tab=${tab}`);

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  signatureNeeds.forget();
  vi.restoreAllMocks();
});

describe('the parameter settings tab', () => {
  it('sends the parameters and shows the device has not confirmed them yet', async () => {
    const sent: ParamsState = { ...NEVER_SENT, desired: { ...DESIRED, uploadInterval: 600 }, state: 'pending', commandId: 'c1',
      sentAt: '2026-11-22T10:00:00+08:00' };
    const api = server(detail(), { 'POST /device/DeviceParam/save': () => envelope(sent) });
    const user = userEvent.setup();
    signInWith();
    open('params');
    expect(await screen.findByTestId('params-state')).toHaveTextContent('Never sent');
    const upload = screen.getByTestId('param-upload');
    await user.clear(upload);
    await user.type(upload, '600');
    await user.click(screen.getByTestId('params-save'));
    await waitFor(() => expect(screen.getByTestId('params-state')).toHaveAttribute('data-state', 'pending'));
    expect(api.callsTo('POST /device/DeviceParam/save')[0]?.body).toEqual({ ...DESIRED, uploadInterval: 600, deviceId: 1 });
    expect(screen.getByTestId('acknowledged-upload')).toHaveTextContent('—');
  });

  it('says so when the device did not answer, and shows what it refused in its own words', async () => {
    server(detail(), {
      'GET /device/DeviceParam/get': () => envelope({ ...NEVER_SENT, state: 'failed', commandId: 'c2', error: 'flash busy',
        sentAt: '2026-11-22T10:00:00+08:00', acknowledged: DESIRED }),
    });
    signInWith();
    open('params');
    expect(await screen.findByTestId('params-state')).toHaveTextContent('Refused by the device');
    expect(screen.getByTestId('params-device-error')).toHaveTextContent('flash busy');
    expect(screen.getByTestId('acknowledged-upload')).toHaveTextContent('300 s');
  });

  it('refuses what the device would refuse as the user types, and never sends it', async () => {
    const api = server();
    const user = userEvent.setup();
    signInWith();
    open('params');
    const record = await screen.findByTestId('param-record');
    await user.clear(record);
    await user.type(record, '900');
    expect(await screen.findByText('The record interval may not be longer than the upload interval')).toBeInTheDocument();
    await user.click(screen.getByTestId('params-save'));
    expect(api.callsTo('POST /device/DeviceParam/save')).toEqual([]);
  });

  describe('where FDA is on for the device', () => {
    const FDA = [...ALL_DEVICE_PERMISSIONS, 'fda', 'fda:query'];
    const signingState = () => envelope({ needsUserName: false, locked: false, lockedUntil: null, reauthMinutes: 15, userName: 'alice' });
    const status = (enabled: boolean) => () => envelope({ subjects: [
      { accountId: 7, organizationId: null, name: 'alice', enabled: false, changeable: true },
      { accountId: null, organizationId: 3, name: 'Acme Cold Chain', enabled, changeable: true },
    ] });
    const sent: ParamsState = { ...NEVER_SENT, desired: { ...DESIRED, uploadInterval: 600 }, state: 'pending', commandId: 'c1',
      sentAt: '2026-11-22T10:00:00+08:00' };

    async function change(user: ReturnType<typeof userEvent.setup>) {
      const upload = await screen.findByTestId('param-upload');
      await user.clear(upload);
      await user.type(upload, '600');
      await user.click(screen.getByTestId('params-save'));
    }

    it("signs the change at once when the organization's switch says FDA is on, sending it with the signature", async () => {
      const api = server(detail({ organizationId: 3, organizationName: 'Acme Cold Chain' }), {
        'GET /device/FdaRecord/status': status(true),
        'GET /device/FdaRecord/signingState': signingState,
        'POST /device/DeviceParam/save': () => envelope(sent),
      });
      const user = userEvent.setup();
      signInWith(FDA);
      open('params');
      await waitFor(() => expect(api.callsTo('GET /device/FdaRecord/status')).toHaveLength(1));
      await change(user);
      const dialog = await screen.findByTestId('signature-dialog');
      expect(api.callsTo('POST /device/DeviceParam/save')).toEqual([]);
      expect(within(dialog).getByTestId('signature-label')).toHaveTextContent('Cold room A logger');
      expect(within(dialog).getByTestId('signature-meaning-select')).toHaveValue('m:approved');
      await user.type(within(dialog).getByTestId('signature-password'), 'Coldchain#2026');
      await user.type(within(dialog).getByTestId('signature-reason-input'), 'Faster uploads for the audit');
      await user.click(within(dialog).getByTestId('signature-submit'));
      await waitFor(() => expect(screen.getByTestId('params-state')).toHaveAttribute('data-state', 'pending'));
      expect(api.callsTo('POST /device/DeviceParam/save')[0]?.body).toEqual({ ...DESIRED, uploadInterval: 600, deviceId: 1, signature: {
        password: 'Coldchain#2026', meaning: 'approved', reason: 'Faster uploads for the audit',
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      } });
    });

    it("asks on the server's 428 when the switches do not say, and saves nothing when the signer cancels", async () => {
      const api = server(detail({ ownerId: 99, isOwner: false, sharedWithMe: true }), {
        'GET /device/FdaRecord/status': status(false),
        'GET /device/FdaRecord/signingState': signingState,
        'POST /device/DeviceParam/save': () => envelope(null, 428, 428, 'This change needs your electronic signature'),
      });
      const user = userEvent.setup();
      signInWith(FDA);
      open('params');
      await change(user);
      const dialog = await screen.findByTestId('signature-dialog');
      expect(within(dialog).getByTestId('signature-intro')).toHaveTextContent('This change needs your electronic signature');
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByTestId('signature-dialog')).toBeNull());
      expect(api.callsTo('POST /device/DeviceParam/save')).toHaveLength(1);
      expect(screen.queryByTestId('params-failure')).toBeNull();
      expect(screen.getByTestId('params-state')).toHaveTextContent('Never sent');
    });

    it('saves unsigned where the switch is off', async () => {
      const api = server(detail({ organizationId: 3 }), {
        'GET /device/FdaRecord/status': status(false),
        'POST /device/DeviceParam/save': () => envelope(sent),
      });
      const user = userEvent.setup();
      signInWith(FDA);
      open('params');
      await waitFor(() => expect(api.callsTo('GET /device/FdaRecord/status')).toHaveLength(1));
      await change(user);
      await waitFor(() => expect(api.callsTo('POST /device/DeviceParam/save')).toHaveLength(1));
      expect(api.callsTo('POST /device/DeviceParam/save')[0]?.body).not.toHaveProperty('signature');
      expect(screen.queryByTestId('signature-dialog')).toBeNull();
    });
  });

  it('is read-only for a member who may only read the device', async () => {
    server(detail({ access: 1, isOwner: false }));
    signInWith();
    open('params');
    expect(await screen.findByTestId('params-read-only')).toBeInTheDocument();
    expect(screen.queryByTestId('params-save')).toBeNull();
    expect(screen.getByTestId('param-upload')).toBeDisabled();
  });
});

describe('the operation log tab', () => {
  it('lists who did what, newest first, and says when the account is gone', async () => {
    server();
    signInWith();
    open('log');
    const rows = await screen.findAllByTestId('log-row');
    expect(rows.map((row) => row.getAttribute('data-kind'))).toEqual(['params_changed', 'credentials_rotated']);
    expect(rows[0]).toHaveTextContent('Parameters changed');
    expect(rows[0]).toHaveTextContent('alice');
    expect(rows[1]).toHaveTextContent('Deleted account');
  });
});

describe('the maintenance tab', () => {
  it('adds a record with what was typed, optional fields left out as null', async () => {
    const api = server(detail(), { 'POST /device/DeviceMaintenance/insert': () => envelope({ ...RECORD, id: 6 }) });
    const user = userEvent.setup();
    signInWith();
    open('maintenance');
    expect(await screen.findByTestId('maintenance-record')).toHaveTextContent('Door seal worn');
    await user.click(screen.getByTestId('maintenance-add'));
    const form = await screen.findByTestId('maintenance-form');
    await user.type(within(form).getByTestId('maintenance-person'), 'Wang Fang');
    await user.type(within(form).getByTestId('maintenance-reason'), 'Yearly check');
    await user.type(within(form).getByTestId('maintenance-content'), 'Cleaned the condenser');
    await user.click(within(form).getByTestId('maintenance-save'));
    await waitFor(() => expect(api.callsTo('POST /device/DeviceMaintenance/insert')).toHaveLength(1));
    expect(api.callsTo('POST /device/DeviceMaintenance/insert')[0]?.body).toMatchObject({
      deviceId: 1, person: 'Wang Fang', reason: 'Yearly check', content: 'Cleaned the condenser', approver: null, standard: null,
      result: null,
    });
  });

  it('shows the server\'s refusal under its field', async () => {
    server(detail(), {
      'POST /device/DeviceMaintenance/insert': () =>
        envelope(null, 422, 422, 'Invalid input', { person: ['At most 50 characters'] }),
    });
    const user = userEvent.setup();
    signInWith();
    open('maintenance');
    await user.click(await screen.findByTestId('maintenance-add'));
    const form = await screen.findByTestId('maintenance-form');
    await user.type(within(form).getByTestId('maintenance-person'), 'Wang Fang');
    await user.type(within(form).getByTestId('maintenance-reason'), 'Check');
    await user.type(within(form).getByTestId('maintenance-content'), 'Done');
    await user.click(within(form).getByTestId('maintenance-save'));
    expect(await within(form).findByText('At most 50 characters')).toBeInTheDocument();
  });

  it('offers no change to a member who may only read the device', async () => {
    server(detail({ access: 1, isOwner: false }));
    signInWith();
    open('maintenance');
    expect(await screen.findByTestId('maintenance-record')).toBeInTheDocument();
    expect(screen.queryByTestId('maintenance-add')).toBeNull();
    expect(screen.queryByTestId('maintenance-edit')).toBeNull();
    expect(screen.getByTestId('maintenance-read-only')).toBeInTheDocument();
  });

  it('checks the spec\'s lengths, required fields and the date as typed', () => {
    const t = ((key: string, options?: { max?: number }) => (options?.max ? `${key}:${options.max}` : key)) as never;
    const schema = maintenanceFormSchema(t, '2026-11-22');
    const valid = { maintainDate: '2026-11-22', person: 'p'.repeat(50), approver: '审'.repeat(20), reason: 'r', content: 'c'.repeat(1000),
      standard: '', result: '' };
    expect(schema.safeParse(valid).success).toBe(true);
    const problems = (change: Partial<typeof valid>) =>
      schema.safeParse({ ...valid, ...change }).error?.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    expect(problems({ person: 'p'.repeat(51) })).toEqual(['person maintenanceTab.error.tooLong:50']);
    expect(problems({ approver: 'a'.repeat(21) })).toEqual(['approver maintenanceTab.error.tooLong:20']);
    expect(problems({ content: '   ' })).toEqual(['content maintenanceTab.error.required']);
    expect(problems({ maintainDate: '2026-11-23' })).toEqual(['maintainDate maintenanceTab.error.future']);
    expect(problems({ result: 'x'.repeat(1001) })).toEqual(['result maintenanceTab.error.tooLong:1000']);
  });
});

describe('the recharge tab', () => {
  it('shows the service and opens the recharge flow for this device', async () => {
    const api = server(detail(), {
      'GET /payment/PayServicePackages/selectDeviceDepositInfo': () => envelope(detail()),
    });
    const user = userEvent.setup();
    signInWith();
    open('recharge');
    expect(await screen.findByTestId('recharge-tab-level')).toHaveTextContent('Basic');
    expect(screen.getByTestId('recharge-tab-sms')).toHaveTextContent('120');
    await user.click(screen.getByTestId('recharge-tab-renew'));
    await waitFor(() => expect(api.callsTo('GET /payment/PayServicePackages/selectDeviceDepositInfo').length).toBeGreaterThan(0));
  });

  it('offers no renewal to a member who may only read the device', async () => {
    server(detail({ access: 1, isOwner: false }));
    signInWith();
    open('recharge');
    expect(await screen.findByTestId('recharge-tab-renew')).toHaveAttribute('aria-disabled', 'true');
  });
});

describe('the device actions', () => {
  it('shows the new broker login once after a confirmed rotation', async () => {
    const api = server(detail(), {
      'POST /device/Device/credentials/rotate': () => envelope({ username: 'RCW360A0000001', password: 'new-secret-password' }),
      'GET /device/Device/connection': () => envelope({ host: 'mqtt.example', port: 1883, tls: false,
        topics: { telemetry: 'devices/{guid}/telemetry', status: 'devices/{guid}/status', commands: 'devices/{guid}/commands',
          acks: 'devices/{guid}/acks' }, examplePayload: '{}' }),
    });
    const user = userEvent.setup();
    signInWith();
    open('info');
    await user.click(await screen.findByTestId('device-rotate'));
    expect(api.callsTo('POST /device/Device/credentials/rotate')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Rotate password' }));
    expect(await screen.findByDisplayValue('new-secret-password')).toBeInTheDocument();
  });

  it('lets only the owner rotate, and nobody who may only read clear data', async () => {
    server(detail({ access: 1, isOwner: false }));
    signInWith();
    open('info');
    expect(await screen.findByTestId('device-rotate')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByTestId('device-clear')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByTestId('device-scrap')).toHaveAttribute('aria-disabled', 'true');
  });

  it('scraps the device with its reason only once confirmed', async () => {
    const api = server(detail(), { 'POST /device/Device/scrap': () => envelope({ scrapped: 1 }) });
    const user = userEvent.setup();
    signInWith();
    open('info');
    await user.click(await screen.findByTestId('device-scrap'));
    await user.type(screen.getByTestId('scrap-reason'), 'Dropped off the truck');
    expect(api.callsTo('POST /device/Device/scrap')).toEqual([]);
    const [, confirm] = screen.getAllByRole('button', { name: 'Scrap device' });
    await user.click(confirm as HTMLElement);
    await waitFor(() => expect(api.callsTo('POST /device/Device/scrap')).toHaveLength(1));
    expect(api.callsTo('POST /device/Device/scrap')[0]?.body).toEqual({ deviceIds: [1], reason: 'Dropped off the truck' });
  });

  it('refuses a reason too long for the log and sends nothing', async () => {
    const api = server(detail(), { 'POST /device/Device/scrap': () => envelope({ scrapped: 1 }) });
    const user = userEvent.setup();
    signInWith();
    open('info');
    await user.click(await screen.findByTestId('device-scrap'));
    await user.click(screen.getByTestId('scrap-reason'));
    await user.paste('x'.repeat(201));
    const [, confirm] = screen.getAllByRole('button', { name: 'Scrap device' });
    await user.click(confirm as HTMLElement);
    expect(await screen.findByText('At most 200 characters')).toBeInTheDocument();
    expect(api.callsTo('POST /device/Device/scrap')).toEqual([]);
  });

  it('shows a scrapped device as scrapped and restores it once confirmed', async () => {
    const api = server(detail({ scrappedAt: '2026-11-20T09:00:00+08:00' }), {
      'POST /device/Device/restore': () => envelope({ restored: true }),
    });
    const user = userEvent.setup();
    signInWith();
    open('info');
    expect(await screen.findByTestId('device-state')).toHaveAttribute('data-state', 'scrapped');
    expect(screen.getByTestId('device-state')).toHaveTextContent('Scrapped');
    expect(screen.getByTestId('device-scrap-hint')).toHaveTextContent('Scrapped on');
    await user.click(screen.getByTestId('device-restore'));
    expect(api.callsTo('POST /device/Device/restore')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(api.callsTo('POST /device/Device/restore')).toHaveLength(1));
    expect(api.callsTo('POST /device/Device/restore')[0]?.params.get('deviceId')).toBe('1');
  });
});

describe('the parameter form rules', () => {
  it('bound both intervals and keep recording within an upload', () => {
    const t = ((key: string) => key) as never;
    const schema = paramsFormSchema(t);
    const ok = { displayPrecision: '2', temperatureUnit: 'F', uploadInterval: '600', recordInterval: '120' };
    expect(schema.safeParse(ok).success).toBe(true);
    for (const change of [{ uploadInterval: '59' }, { uploadInterval: '86401' }, { recordInterval: '9' }, { uploadInterval: '1e3' },
      { recordInterval: '601' }, { uploadInterval: '' }]) {
      expect(schema.safeParse({ ...ok, ...change }).success, JSON.stringify(change)).toBe(false);
    }
  });
});

describe('a device shared with the caller', () => {
  const VIEW_ONLY = { access: 1, isOwner: false, ownerName: 'alice', sharedWithMe: true, permissions: everyElement(false) };

  it('shows every tab of a view-only share, the chart among them, and no change anywhere', async () => {
    server(detail(VIEW_ONLY), {
      'POST /device/DeviceAlarmRule/page': () => envelope({ start: 1, pageSize: 10, totalCount: 0, data: [] }),
      'GET /device/DeviceAlarmPushSetting/get': () => envelope({ deviceId: 1, smsKinds: [1], voiceKinds: [], emailKinds: [],
        quietStart: null, quietEnd: null, timeZone: 'Asia/Shanghai', stored: false, access: 1 }),
    });
    const user = userEvent.setup();
    signInWith([...ALL_DEVICE_PERMISSIONS, 'consumer.sharer']);
    open('chart');
    expect(await screen.findByTestId('device-tab-chart')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('shared-by')).toHaveTextContent('Shared by alice');
    const enabledChanges = () => screen.queryAllByRole('button').filter((button) =>
      /Edit|Save|Add|Send|Renew|Share|Transfer|Rotate|Clear|Scrap/.test(button.textContent ?? '') &&
      button.getAttribute('aria-disabled') !== 'true' && !(button as HTMLButtonElement).disabled);
    for (const tab of ['info', 'params', 'maintenance', 'recharge', 'push']) {
      await user.click(screen.getByTestId(`device-tab-${tab}`));
      await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
      expect(enabledChanges(), tab).toEqual([]);
    }
    expect(screen.getByTestId('alarm-settings-read-only')).toHaveTextContent('Not allowed by the permission template');
  });

  it('shows only the tabs the template lets the caller see', async () => {
    const seen = new Set(['chart', 'log']);
    server(detail({ ...VIEW_ONLY, permissions: everyElement(false).map((p) => ({ ...p, viewStatus: seen.has(p.code) ? 1 : 0 })) }));
    signInWith();
    open('params');
    // a tab it may not see opens the first it may
    expect(await screen.findByTestId('device-tab-chart')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('tab').map((tab) => tab.getAttribute('data-testid'))).toEqual(['device-tab-chart', 'device-tab-log']);
    expect(screen.queryByTestId('params-save')).toBeNull();
  });

  it('offers the changes of an element the template lets the caller operate, and no owner\'s action', async () => {
    server(detail({ ...VIEW_ONLY, permissions: everyElement(false).map((p) => (p.code === 'maintenance' ? { ...p, setStatus: 1 } : p)) }));
    const user = userEvent.setup();
    signInWith([...ALL_DEVICE_PERMISSIONS, 'consumer.sharer']);
    open('maintenance');
    expect(await screen.findByTestId('maintenance-add')).toBeInTheDocument();
    await user.click(screen.getByTestId('device-tab-params'));
    expect(await screen.findByTestId('params-read-only')).toBeInTheDocument();
    expect(screen.queryByTestId('params-save')).toBeNull();
    await user.click(screen.getByTestId('device-tab-info'));
    expect(await screen.findByTestId('device-share')).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByTestId('device-transfer')).toHaveAttribute('aria-disabled', 'true');
  });

  it('opens the share and transfer dialogs for its owner', async () => {
    const api = server(detail(), {
      'POST /device/DevicePermissionModel/list': () => envelope({ list: [{ id: 1, name: 'View only', builtIn: true,
        permissions: everyElement(false), shares: 0 }] }),
      'POST /device/Device/transferPreview': () => envelope({ devices: 1, shares: 0, projects: 0, organizations: 0 }),
    });
    const user = userEvent.setup();
    signInWith([...ALL_DEVICE_PERMISSIONS, 'consumer.sharer']);
    open('info');
    await user.click(await screen.findByTestId('device-share'));
    expect(await screen.findByTestId('share-dialog')).toHaveTextContent('Cold room A logger');
    await user.click(within(screen.getByTestId('share-dialog')).getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByTestId('device-transfer'));
    expect(await screen.findByTestId('transfer-shares')).toHaveTextContent('0 shares of them will be dropped');
    expect(api.callsTo('POST /device/Device/transferPreview')[0]?.body).toEqual({ deviceIds: [1] });
  });
});

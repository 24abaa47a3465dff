import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import type { ShareLink, WaybillDetail } from './api/waybills';
import { ShareDialog } from './components/ShareDialog';
import { toFields, toForm, waybillFormSchema, type WaybillForm } from './waybillForm';
import WaybillsPage from './WaybillsPage';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const PERMITTED = ['home', 'device.list', 'waybill.list', 'waybill.list:add', 'waybill.list:edit', 'waybill.list:delete'];
const page = <T,>(rows: T[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });

function waybill(change: Partial<WaybillDetail> = {}): WaybillDetail {
  return {
    id: 4, orderNum: 'WB-001', goodsName: 'Vaccines', expressNumber: null, coolerCode: null, upperLimit: 8, lowerLimit: 2,
    senderName: null, senderPhone: null, senderAddress: null, receiverName: null, receiverPhone: null, receiverAddress: null,
    alarmContacts: [], startTime: null, stopTime: null, originFenceId: null, destinationFenceId: null, state: 1,
    startedAt: '2026-11-01T08:00:00+08:00', finishedAt: null, createdAt: '2026-11-01T07:00:00+08:00', organizationId: null,
    changeable: true, devices: [{ deviceId: 3, deviceName: 'Truck logger', deviceGuid: 'RCW360A0000003' }],
    corrected: false, spanStart: null, spanEnd: null, alarmCount: 0, ...change,
  };
}

describe('the waybill form', () => {
  const schema = waybillFormSchema(i18n.t.bind(i18n) as never);
  const blank = toForm(null);
  const ok = (change: Partial<WaybillForm>) => schema.safeParse({ ...blank, ...change }).success;

  it('checks the fields as the server does', () => {
    expect(ok({})).toBe(true);
    expect(ok({ orderNum: 'x'.repeat(20), goodsName: 'g'.repeat(20), coolerCode: 'c'.repeat(20) })).toBe(true);
    expect(ok({ orderNum: 'x'.repeat(21) })).toBe(false);
    expect(ok({ goodsName: 'g'.repeat(21) })).toBe(false);
    expect(ok({ coolerCode: 'c'.repeat(21) })).toBe(false);
    expect(ok({ senderName: 'n'.repeat(21) })).toBe(false);
    expect(ok({ expressNumber: 'e'.repeat(100) })).toBe(true);
    expect(ok({ expressNumber: 'e'.repeat(101) })).toBe(false);
    expect(ok({ goodsName: 'Ice 🧊' })).toBe(false);
    expect(ok({ senderPhone: '+86 138-0000' })).toBe(true);
    expect(ok({ senderPhone: 'call me' })).toBe(false);
  });

  it('wants the upper limit above the lower one and the planned start not after the stop', () => {
    expect(ok({ lowerLimit: '2', upperLimit: '8' })).toBe(true);
    expect(ok({ lowerLimit: '8', upperLimit: '8' })).toBe(false);
    expect(ok({ lowerLimit: '8', upperLimit: '2' })).toBe(false);
    expect(ok({ upperLimit: '201' })).toBe(false);
    expect(ok({ startTime: '2026-12-01T08:00', stopTime: '2026-12-01T08:00' })).toBe(true);
    expect(ok({ startTime: '2026-12-02T08:00', stopTime: '2026-12-01T08:00' })).toBe(false);
  });

  it('wants each alarm contact named and reachable, at most ten', () => {
    const contact = { name: 'Ann', phone: '123', email: '' };
    expect(ok({ alarmContacts: [contact] })).toBe(true);
    expect(ok({ alarmContacts: [{ ...contact, name: ' ' }] })).toBe(false);
    expect(ok({ alarmContacts: [{ ...contact, phone: '' }] })).toBe(false);
    expect(ok({ alarmContacts: [{ ...contact, phone: '', email: 'ann@example.com' }] })).toBe(true);
    expect(ok({ alarmContacts: Array.from({ length: 11 }, () => contact) })).toBe(false);
  });

  it('sends trimmed text, null for empty, numbers for the limits', () => {
    const fields = toFields({ ...blank, orderNum: ' WB-9 ', upperLimit: '8', lowerLimit: '-2.5', startTime: '2026-12-01T08:00' });
    expect(fields).toMatchObject({ orderNum: 'WB-9', goodsName: null, upperLimit: 8, lowerLimit: -2.5, stopTime: null });
    expect(new Date(fields.startTime ?? '').getTime()).toBe(new Date('2026-12-01T08:00').getTime());
  });
});

describe('the waybill list', () => {
  it('filters by keyword and state, restarts at page 1, and exports what it shows', async () => {
    const server = fakeServer({
      'POST /device/Waybill/page': () => page([waybill()]),
      'GET /device/Waybill/alarmCount': () => envelope({ alarmCount: 2 }),
      'POST /device/Waybill/export': () => new Response(new Blob(['xlsx']), { status: 200,
        headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename="waybills.xlsx"' } }),
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<WaybillsPage />, '/waybill/list');
    const row = await screen.findByTestId('waybill-row');
    expect(row).toHaveTextContent('WB-001');
    expect(row).toHaveTextContent('Vaccines');
    expect(row).toHaveTextContent('In progress');
    expect(row).toHaveTextContent('Truck logger');
    expect(await within(row).findByTestId('waybill-alarms')).toHaveTextContent('2');
    expect(server.callsTo('POST /device/Waybill/page')[0]?.body).toEqual({ start: 1, pageSize: 10 });
    const user = userEvent.setup();
    await user.selectOptions(screen.getByTestId('waybill-state-filter'), '1');
    await user.type(screen.getByTestId('waybill-search'), ' WB ');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(server.callsTo('POST /device/Waybill/page').at(-1)?.body)
      .toEqual({ start: 1, pageSize: 10, keyword: 'WB', state: 1 }));
    await user.click(screen.getByTestId('waybill-export'));
    await waitFor(() => expect(server.callsTo('POST /device/Waybill/export')).toHaveLength(1));
    expect(server.callsTo('POST /device/Waybill/export')[0]?.body).toEqual({ keyword: 'WB', state: 1 });
  });

  it('shows no edit, delete or add without the button permissions', async () => {
    const only = ['home', 'waybill.list'];
    fakeServer({
      'POST /device/Waybill/page': () => page([waybill()]),
      'GET /device/Waybill/alarmCount': () => envelope({ alarmCount: 0 }),
    });
    signIn(accountInfo({}, { permissionRoutes: only }), only);
    renderApp(<WaybillsPage />, '/waybill/list');
    const row = await screen.findByTestId('waybill-row');
    expect(within(row).queryByTestId('waybill-edit')).toBeNull();
    expect(within(row).queryByTestId('waybill-delete')).toBeNull();
    expect(screen.queryByTestId('waybill-add')).toBeNull();
  });
});

describe('the share dialog', () => {
  it('shows a new link once, lists the links with their opens and revokes one', async () => {
    let links: ShareLink[] = [];
    const link = (change: Partial<ShareLink>): ShareLink => ({ shareId: 1, createdAt: '2026-11-01T08:00:00+08:00',
      expiresAt: '2026-11-02T08:00:00+08:00', revokedAt: null, active: true, opens: [], ...change });
    const server = fakeServer({
      'GET /device/Waybill/shareList': () => envelope(links),
      'POST /device/Waybill/share': () => {
        links = [link({ opens: [{ at: '2026-11-01T09:00:00+08:00', address: '10.0.0.1' }] })];
        return envelope({ ...links[0], token: 'tok-en' });
      },
      'POST /device/Waybill/shareRevoke': () => {
        links = [link({ active: false, revokedAt: '2026-11-01T10:00:00+08:00' })];
        return envelope(null);
      },
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<ShareDialog waybillId={4} isOpen onClose={() => undefined} />, '/waybill/detail/4');
    expect(await screen.findByTestId('waybill-share-none')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByTestId('waybill-share-validity'), 'custom');
    expect(screen.getByTestId('waybill-share-create')).toBeDisabled();
    await user.selectOptions(screen.getByTestId('waybill-share-validity'), '3d');
    await user.click(screen.getByTestId('waybill-share-create'));
    await waitFor(() => expect(server.callsTo('POST /device/Waybill/share')[0]?.body).toEqual({ id: 4, validity: '3d' }));
    expect(await screen.findByTestId('waybill-share-url')).toHaveValue(`${window.location.origin}/pcQuick/waybill?token=tok-en`);
    expect(await screen.findByTestId('waybill-share-opens')).toHaveTextContent('1');
    await user.click(screen.getByTestId('waybill-share-revoke'));
    await waitFor(() => expect(server.callsTo('POST /device/Waybill/shareRevoke')[0]?.body).toEqual({ shareId: 1 }));
    await waitFor(() => expect(screen.queryByTestId('waybill-share-revoke')).toBeNull());
    expect(screen.getByTestId('waybill-share-link')).toHaveTextContent('Expired or revoked');
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { everyElement, ELEMENT_CODES } from '@/lib/access';
import type { Share, Template } from '@/lib/api/sharing';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import SharingPage from './SharingPage';
import { gridOf, permissionsOf, templateFormSchema, tick } from './templateForm';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const PERMITTED = ['home', 'device.list', 'device.detail', 'consumer.sharer', 'consumer.sharer:add', 'consumer.sharer:edit',
  'consumer.sharer:delete'];
const VIEW_ONLY: Template = { id: 1, name: 'View only', builtIn: true, permissions: everyElement(false), shares: 1 };
const FULL: Template = { id: 2, name: 'Full control', builtIn: true, permissions: everyElement(true), shares: 0 };
const AUDITOR: Template = {
  id: 7, name: 'Auditor', builtIn: false, shares: 2,
  permissions: ELEMENT_CODES.map((code) => ({ code, viewStatus: code === 'chart' || code === 'log' ? 1 : 0, setStatus: 0 })),
};

function share(change: Partial<Share> = {}): Share {
  return { id: 11, deviceId: 1, deviceName: 'Cold room A logger', deviceGuid: 'RCW360A0000001', ownerName: 'alice', shareeName: 'bob',
    templateId: 1, templateName: 'View only', createdAt: '2026-11-20T08:00:00+08:00', endTime: null, active: true, ...change };
}

const sharePage = (rows: Share[]) => ({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });

const open = (path = '/consumer/sharer') => {
  signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
  return renderApp(<SharingPage />, path);
};

describe('the template form', () => {
  it('ticks Visible with Operable, and unticks Operable with Visible', () => {
    let grid = gridOf([]);
    expect(grid.params).toEqual({ view: false, operate: false });
    grid = tick(grid, 'params', 'operate', true);
    expect(grid.params).toEqual({ view: true, operate: true });
    grid = tick(grid, 'params', 'operate', false);
    expect(grid.params).toEqual({ view: true, operate: false });
    grid = tick(tick(grid, 'params', 'operate', true), 'params', 'view', false);
    expect(grid.params).toEqual({ view: false, operate: false });
    // an operate the server sent without view is read as both
    expect(gridOf([{ code: 'push', viewStatus: 0, setStatus: 1 }]).push).toEqual({ view: true, operate: true });
    expect(permissionsOf(tick(gridOf([]), 'chart', 'view', true)).find((p) => p.code === 'chart'))
      .toEqual({ code: 'chart', viewStatus: 1, setStatus: 0 });
  });

  it('checks a name as the server does: 1 to 10 characters, no emoji', () => {
    const schema = templateFormSchema(i18n.t.bind(i18n) as never);
    const ok = (name: string) => schema.safeParse({ name }).success;
    expect(ok('Auditor')).toBe(true);
    expect(ok('审计员')).toBe(true);
    expect(ok('x'.repeat(10))).toBe(true);
    expect(ok('  ')).toBe(false);
    expect(ok('x'.repeat(11))).toBe(false);
    expect(ok('Ice 🧊')).toBe(false);
    expect(ok('a\u200db')).toBe(false);
  });
});

describe('the sharing page', () => {
  it('lists what I shared and revokes one only once confirmed', async () => {
    let rows = [share(), share({ id: 12, deviceId: 2, deviceName: 'Cold room B logger', shareeName: 'carol', endTime: '2026-12-01T00:00:00Z',
      active: false })];
    const server = fakeServer({
      'POST /device/DeviceShare/page': () => envelope(sharePage(rows)),
      'POST /device/DeviceShare/revoke': (call) => {
        const { ids } = call.body as { ids: number[] };
        rows = rows.filter((row) => !ids.includes(row.id));
        return envelope({ revoked: ids.length });
      },
    });
    const success = vi.spyOn(notify, 'success');
    open();
    const found = await screen.findAllByTestId('share-row');
    expect(server.callsTo('POST /device/DeviceShare/page')[0]?.body).toEqual({ direction: 'mine', start: 1, pageSize: 10 });
    expect(found[0]).toHaveTextContent('bob');
    expect(found[0]).toHaveTextContent('View only');
    expect(within(found[0]!).getByTestId('share-state')).toHaveTextContent('Active');
    expect(within(found[1]!).getByTestId('share-state')).toHaveTextContent('Ended');
    const user = userEvent.setup();
    await user.click(within(found[0]!).getByTestId('share-revoke'));
    expect(await screen.findByTestId('share-revoke-confirm')).toHaveTextContent('Revoke the share of Cold room A logger with bob?');
    expect(server.callsTo('POST /device/DeviceShare/revoke')).toEqual([]);
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(server.callsTo('POST /device/DeviceShare/revoke')[0]?.body).toEqual({ ids: [11] }));
    await waitFor(() => expect(screen.getAllByTestId('share-row')).toHaveLength(1));
    expect(success).toHaveBeenCalledWith('Share revoked');
  });

  it('revokes the ticked shares together', async () => {
    const rows = [share(), share({ id: 12, shareeName: 'carol' }), share({ id: 13, shareeName: 'dave' })];
    const server = fakeServer({
      'POST /device/DeviceShare/page': () => envelope(sharePage(rows)),
      'POST /device/DeviceShare/revoke': () => envelope({ revoked: 2 }),
    });
    open();
    const user = userEvent.setup();
    const [first, , third] = await screen.findAllByTestId('share-row');
    await user.click(within(first!).getByTestId('share-select'));
    await user.click(within(third!).getByTestId('share-select'));
    await user.click(screen.getByTestId('shares-revoke-selected'));
    expect(await screen.findByTestId('share-revoke-confirm')).toHaveTextContent('Revoke these 2 shares?');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Revoke 2' }));
    await waitFor(() => expect(server.callsTo('POST /device/DeviceShare/revoke')[0]?.body).toEqual({ ids: [11, 13] }));
  });

  it('changes a share\'s template and end time', async () => {
    const server = fakeServer({
      'POST /device/DeviceShare/page': () => envelope(sharePage([share()])),
      'POST /device/DevicePermissionModel/list': () => envelope({ list: [VIEW_ONLY, FULL, AUDITOR] }),
      'PUT /device/DeviceShare/update': () => envelope(null),
    });
    open();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('share-edit'));
    const form = await screen.findByTestId('share-edit-form');
    await waitFor(() => expect(within(form).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(within(form).getByTestId('share-edit-template'), 'Auditor');
    await user.click(within(form).getByTestId('share-end-7'));
    await user.click(within(form).getByTestId('share-edit-save'));
    await waitFor(() => expect(server.callsTo('PUT /device/DeviceShare/update')).toHaveLength(1));
    const body = server.callsTo('PUT /device/DeviceShare/update')[0]?.body as { id: number; templateId: number; endTime: string };
    expect(body.id).toBe(11);
    expect(body.templateId).toBe(7);
    const days = (new Date(body.endTime).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.01);
  });

  it('lets the person a device was shared with leave it, and offers no edit', async () => {
    const server = fakeServer({
      'POST /device/DeviceShare/page': () => envelope(sharePage([share()])),
      'POST /device/DeviceShare/revoke': () => envelope({ revoked: 1 }),
    });
    open('/consumer/sharer?tab=withMe');
    const row = await screen.findByTestId('share-row');
    expect(server.callsTo('POST /device/DeviceShare/page')[0]?.body).toMatchObject({ direction: 'withMe' });
    expect(row).toHaveTextContent('alice');
    expect(within(row).queryByTestId('share-edit')).toBeNull();
    const user = userEvent.setup();
    await user.click(within(row).getByTestId('share-revoke'));
    expect(await screen.findByTestId('share-revoke-confirm')).toHaveTextContent('Stop seeing Cold room A logger, shared by alice?');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(server.callsTo('POST /device/DeviceShare/revoke')[0]?.body).toEqual({ ids: [11] }));
  });

  it('makes a template from the grid, ticking Visible with Operable', async () => {
    let list = [VIEW_ONLY, FULL];
    const server = fakeServer({
      'POST /device/DevicePermissionModel/list': () => envelope({ list }),
      'POST /device/DevicePermissionModel/insert': (call) => {
        const made = { ...(call.body as Template), id: 9, builtIn: false, shares: 0 };
        list = [...list, made];
        return envelope(made);
      },
    });
    open('/consumer/sharer?tab=templates');
    const rows = await screen.findAllByTestId('template-row');
    // the built-ins cannot be changed
    expect(within(rows[0]!).queryByTestId('template-edit')).toBeNull();
    expect(within(rows[0]!).queryByTestId('template-delete')).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('template-add'));
    const form = await screen.findByTestId('template-form');
    const name = within(form).getByTestId('template-name');
    await user.type(name, 'Carrier of goods');
    expect(await within(form).findByText('Between 1 and 10 characters')).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'Carrier');
    await user.click(within(form).getByTestId('grid-chart-view'));
    await user.click(within(form).getByTestId('grid-maintenance-operate'));
    expect(within(form).getByTestId('grid-maintenance-view')).toBeChecked();
    await user.click(within(form).getByTestId('template-save'));
    await waitFor(() => expect(server.callsTo('POST /device/DevicePermissionModel/insert')).toHaveLength(1));
    const body = server.callsTo('POST /device/DevicePermissionModel/insert')[0]?.body as { name: string; permissions: unknown[] };
    expect(body.name).toBe('Carrier');
    expect(body.permissions).toHaveLength(ELEMENT_CODES.length);
    expect(body.permissions).toContainEqual({ code: 'chart', viewStatus: 1, setStatus: 0 });
    expect(body.permissions).toContainEqual({ code: 'maintenance', viewStatus: 1, setStatus: 1 });
    expect(body.permissions).toContainEqual({ code: 'params', viewStatus: 0, setStatus: 0 });
    await waitFor(() => expect(screen.getAllByTestId('template-row')).toHaveLength(3));
  });

  it('drops emoji from a template name as typed', async () => {
    fakeServer({ 'POST /device/DevicePermissionModel/list': () => envelope({ list: [VIEW_ONLY] }) });
    open('/consumer/sharer?tab=templates');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('template-add'));
    await user.type(await screen.findByTestId('template-name'), 'Ice🧊');
    expect(screen.getByTestId('template-name')).toHaveValue('Ice');
  });

  it('says how many shares use a template before deleting it, and leaves the refusal to the server', async () => {
    const server = fakeServer({
      'POST /device/DevicePermissionModel/list': () => envelope({ list: [VIEW_ONLY, FULL, AUDITOR] }),
      'DELETE /device/DevicePermissionModel/delete': () => envelope(null, 409, 409, '2 shares use this template'),
    });
    open('/consumer/sharer?tab=templates');
    const user = userEvent.setup();
    const rows = await screen.findAllByTestId('template-row');
    await user.click(within(rows[2]!).getByTestId('template-delete'));
    expect(await screen.findByTestId('template-delete-confirm')).toHaveTextContent('Auditor is used by 2 shares');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(server.callsTo('DELETE /device/DevicePermissionModel/delete')[0]?.params.get('id')).toBe('7'));
  });

  it('offers no change to a caller who may only look', async () => {
    fakeServer({
      'POST /device/DeviceShare/page': () => envelope(sharePage([share()])),
      'POST /device/DevicePermissionModel/list': () => envelope({ list: [VIEW_ONLY, AUDITOR] }),
    });
    signIn(accountInfo({}, { permissionRoutes: ['home', 'consumer.sharer'] }), ['home', 'consumer.sharer']);
    renderApp(<SharingPage />, '/consumer/sharer');
    const row = await screen.findByTestId('share-row');
    expect(within(row).queryByTestId('share-revoke')).toBeNull();
    expect(within(row).queryByTestId('share-edit')).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Permission templates' }));
    await screen.findAllByTestId('template-row');
    expect(screen.queryByTestId('template-add')).toBeNull();
    expect(screen.queryByTestId('template-edit')).toBeNull();
  });
});

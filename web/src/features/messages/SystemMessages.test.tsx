import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn, type Call } from '@/test/harness';
import { session } from '@/lib/session';
import MessageListPage from './MessageListPage';
import type { SystemMessage } from './api/systemMessages';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const message = (id: number, extra: Partial<SystemMessage> = {}): SystemMessage => ({
  messageId: id, kind: 'payment', title: `Order ${id} is paid`, content: `Your payment for order ${id} has been received.`,
  target: null, createdAt: '2026-05-01T08:00:00+08:00', read: false, needsDecision: false, decision: null, decidedAt: null,
  ...extra,
});

function inbox(messages: SystemMessage[]) {
  const store = messages.map((m) => ({ ...m }));
  return fakeServer({
    'POST /base/BaseMessage/page': (call: Call) => {
      const body = call.body as { start: number; pageSize: number; unread: boolean };
      const rows = store.filter((m) => !body.unread || !m.read);
      return envelope({ start: body.start, pageSize: body.pageSize, totalCount: rows.length, data: rows });
    },
    'GET /base/BaseMessage/unreadCount': () => envelope(store.filter((m) => !m.read).length),
    'GET /device/DeviceAlarm/count': () => envelope(0),
    'POST /base/BaseMessage/read': (call: Call) => {
      const ids = (call.body as { messageIds?: number[] }).messageIds;
      const marked = store.filter((m) => !m.read && (!ids || ids.includes(m.messageId)));
      marked.forEach((m) => (m.read = true));
      return envelope({ marked: marked.length });
    },
    'POST /base/BaseMessage/answer': (call: Call) => {
      const body = call.body as { messageId: number; decision: 'approved' | 'rejected' };
      const row = store.find((m) => m.messageId === body.messageId)!;
      if (row.decision) return envelope(null, 1631, 409, 'This message has already been answered');
      Object.assign(row, { decision: body.decision, decidedAt: '2026-05-01T09:00:00+08:00', read: true });
      return envelope(row);
    },
  });
}

function open() {
  signIn(accountInfo({}, { permissionRoutes: ['home', 'message.list'] }), ['home', 'message.list']);
  return renderApp(<MessageListPage />, '/message/list?tab=system');
}

const items = () => screen.getAllByTestId('system-message');

describe('system messages', () => {
  it('lists the messages with the unread ones marked and the unread count on the tab', async () => {
    inbox([message(2), message(1, { read: true })]);
    open();
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(items()[0]).toHaveClass('is-unread');
    expect(items()[1]).not.toHaveClass('is-unread');
    expect(within(items()[0]!).getByText('Order 2 is paid')).toBeInTheDocument();
    expect(within(items()[0]!).getByText('Payment')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('system-tab')).toHaveTextContent('1'));
  });

  it('says under the title what the system tab holds, not the alarms', async () => {
    inbox([message(1)]);
    open();
    await waitFor(() => expect(items()).toHaveLength(1));
    const subtitle = screen.getByTestId('message-subtitle');
    expect(subtitle).toHaveTextContent(/^What the system tells you, newest first: invitations/);
    expect(subtitle).not.toHaveTextContent(/alarm/i);
  });

  it('approves an invitation once and shows the outcome instead of the buttons', async () => {
    const api = inbox([message(5, { kind: 'invitation', title: 'Join Acme', needsDecision: true })]);
    open();
    await waitFor(() => expect(items()).toHaveLength(1));
    await userEvent.click(screen.getByTestId('approve'));
    await waitFor(() => expect(screen.getByTestId('decision')).toHaveTextContent('Approved'));
    expect(screen.queryByTestId('approve')).toBeNull();
    expect(screen.queryByTestId('reject')).toBeNull();
    expect(api.callsTo('POST /base/BaseMessage/answer').map((c) => c.body)).toEqual([{ messageId: 5, decision: 'approved' }]);
  });

  it('reads the account again after an approved invitation and leads to the new organization', async () => {
    const joined = ['home', 'message.list', 'organization.list'];
    const api = inbox([message(6, { kind: 'invitation', title: 'Join Acme', needsDecision: true })]);
    const routes = {
      'GET /base/BaseAccount/accountInfo': () => envelope(accountInfo({}, { permissionRoutes: joined, orgWithMyRole: [
        { organizationId: 3, organizationName: 'Acme', roleId: 9, roleCode: 'org_member', roleName: 'Member', creator: false }] })),
      'GET /base/BaseAccount/getScenePermissionList': () => envelope(joined),
    };
    const answered = api.spy.getMockImplementation()!;
    api.spy.mockImplementation(async (input, init) => {
      const path = new URL(String(input), 'http://localhost').pathname.replace(/^\/api/, '');
      const route = routes[`GET ${path}` as keyof typeof routes];
      return route ? route() : answered(input, init);
    });
    open();
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(screen.queryByTestId('message-organizations')).toBeNull();
    await userEvent.click(screen.getByTestId('approve'));
    const link = await screen.findByTestId('message-organizations');
    expect(link).toHaveAttribute('href', '/organization/list');
    expect(session.get().info?.orgWithMyRole.map((o) => o.organizationName)).toEqual(['Acme']);
  });

  it('marks one message, or all, as read', async () => {
    const api = inbox([message(3), message(2), message(1)]);
    open();
    await waitFor(() => expect(items()).toHaveLength(3));
    await userEvent.click(within(items()[0]!).getByTestId('mark-read'));
    await waitFor(() => expect(items()[0]).not.toHaveClass('is-unread'));
    await userEvent.click(screen.getByTestId('mark-all-read'));
    await waitFor(() => expect(screen.getAllByTestId('system-message').every((i) => !i.classList.contains('is-unread'))).toBe(true));
    expect(api.callsTo('POST /base/BaseMessage/read').map((c) => c.body)).toEqual([{ messageIds: [3] }, {}]);
  });

  it('links an export message to the download centre and reads it when followed', async () => {
    const api = inbox([
      message(7, { kind: 'export', title: 'Export Cold_room_A.xlsx is ready', target: 'downloads' }),
      message(6, { target: 'somewhere-new' }),
    ]);
    open();
    await waitFor(() => expect(items()).toHaveLength(2));
    const link = within(items()[0]!).getByTestId('message-link');
    expect(link).toHaveAttribute('href', '/consumer/download');
    expect(link).toHaveTextContent('Open the download centre');
    expect(within(items()[0]!).getByText('Export')).toBeInTheDocument();
    expect(within(items()[1]!).queryByTestId('message-link')).toBeNull(); // a page this client does not know
    await userEvent.click(link);
    await waitFor(() => expect(api.callsTo('POST /base/BaseMessage/read').map((c) => c.body)).toEqual([{ messageIds: [7] }]));
  });

  it('says so when there is nothing', async () => {
    inbox([]);
    open();
    expect(await screen.findByTestId('system-empty')).toHaveTextContent('No system messages');
  });
});

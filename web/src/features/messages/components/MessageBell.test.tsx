import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import { session } from '@/lib/session';
import { COUNT_REFRESH_MS, messageKeys } from '@/lib/api/alarms';
import { READER } from '@/test/alarms';
import { badgeText, MessageBell } from './MessageBell';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function countServer(counts: number[]) {
  let asked = 0;
  return fakeServer({
    'GET /device/DeviceAlarm/count': () => envelope(counts[Math.min(asked++, counts.length - 1)]),
  });
}

function open(permissions: string[] = READER) {
  signIn(accountInfo({}, { permissionRoutes: permissions }), permissions);
  return renderApp(<MessageBell />, '/home');
}

describe('the message bell', () => {
  it('shows the untreated count and leads to the untreated alarms', async () => {
    countServer([3]);
    open();
    expect(await screen.findByTestId('message-bell-count')).toHaveTextContent('3');
    const bell = screen.getByTestId('message-bell');
    expect(bell).toHaveAccessibleName('Message centre: 3 untreated alarms');
    expect(bell).toHaveAttribute('href', '/message/list?state=0');
    await userEvent.setup().click(bell);
    expect(screen.getByTestId('location')).toHaveTextContent('/message/list?state=0');
  });

  it('shows no number when nothing waits', async () => {
    const api = countServer([0]);
    open();
    await waitFor(() => expect(api.callsTo('GET /device/DeviceAlarm/count')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('message-bell')).toHaveAccessibleName('Message centre: No untreated alarms'));
    expect(screen.queryByTestId('message-bell-count')).toBeNull();
    expect(screen.getByTestId('message-bell')).toHaveAttribute('href', '/message/list');
  });

  it('asks again every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = countServer([1, 4]);
    open();
    expect(await screen.findByTestId('message-bell-count')).toHaveTextContent('1');
    await act(() => vi.advanceTimersByTimeAsync(COUNT_REFRESH_MS));
    await waitFor(() => expect(screen.getByTestId('message-bell-count')).toHaveTextContent('4'));
    expect(api.callsTo('GET /device/DeviceAlarm/count').length).toBeGreaterThanOrEqual(2);
  });

  it('follows an invalidation at once (after a handling)', async () => {
    countServer([2, 1]);
    const { queryClient } = open();
    expect(await screen.findByTestId('message-bell-count')).toHaveTextContent('2');
    await act(() => queryClient.invalidateQueries({ queryKey: messageKeys.all }));
    await waitFor(() => expect(screen.getByTestId('message-bell-count')).toHaveTextContent('1'));
  });

  it('is not there, and asks nothing, without the permission to read messages', () => {
    const api = countServer([5]);
    open(['home', 'message.list']);
    expect(screen.queryByTestId('message-bell')).toBeNull();
    expect(api.calls).toHaveLength(0);
  });

  it('caps the number at 99+', () => {
    expect([0, 7, 99, 100, 4321].map(badgeText)).toEqual(['0', '7', '99', '99+', '99+']);
  });
});

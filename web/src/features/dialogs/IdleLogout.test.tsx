import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IDLE_TIMEOUT_MS } from '@/lib/idle';
import { session } from '@/lib/session';
import { IdleLogout } from './IdleLogout';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('IdleLogout', () => {
  it('logs out after five idle minutes and says so; OK reloads', async () => {
    vi.useFakeTimers();
    const api = fakeServer({ 'GET /base/BaseAccount/loginOut': () => envelope(null) });
    const reload = vi.fn();
    signIn(accountInfo({ enableProtect: 1, enableFda: 1 }));
    renderApp(<IdleLogout reload={reload} />);
    await advance(IDLE_TIMEOUT_MS - 1_000);
    expect(screen.queryByTestId('idle-dialog')).toBeNull();
    await advance(1_000);
    expect(screen.getByTestId('idle-dialog')).toHaveTextContent('Login timed out');
    expect(screen.getByText('You have been logged out')).toBeInTheDocument();
    expect(api.callsTo('GET /base/BaseAccount/loginOut')).toHaveLength(1);
    expect(session.get().info).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(reload).toHaveBeenCalledTimes(1);
    await advance(IDLE_TIMEOUT_MS);
    expect(api.callsTo('GET /base/BaseAccount/loginOut')).toHaveLength(1);
  });

  it('keeps the session while the user is active', async () => {
    vi.useFakeTimers();
    const api = fakeServer({ 'GET /base/BaseAccount/loginOut': () => envelope(null) });
    signIn(accountInfo({ enableProtect: 1, enableFda: 1 }));
    renderApp(<IdleLogout reload={() => {}} />);
    for (let minute = 0; minute < 12; minute += 1) {
      await advance(60_000);
      fireEvent.keyDown(window, { key: 'a' });
    }
    expect(screen.queryByTestId('idle-dialog')).toBeNull();
    expect(api.calls).toHaveLength(0);
  });

  it.each([
    { enableProtect: 1, enableFda: 0 },
    { enableProtect: 0, enableFda: 1 },
  ])('does nothing unless both switches are on (%j)', async (flags) => {
    vi.useFakeTimers();
    const api = fakeServer({});
    signIn(accountInfo(flags));
    renderApp(<IdleLogout reload={() => {}} />);
    await advance(IDLE_TIMEOUT_MS * 2);
    expect(screen.queryByTestId('idle-dialog')).toBeNull();
    expect(api.calls).toHaveLength(0);
  });

  it('starts when FDA mode comes on mid-session (the FDA page reads the account again), and stops when it goes off', async () => {
    vi.useFakeTimers();
    const api = fakeServer({ 'GET /base/BaseAccount/loginOut': () => envelope(null) });
    signIn(accountInfo({ enableProtect: 1, enableFda: 0 }));
    renderApp(<IdleLogout reload={() => {}} />);
    await advance(IDLE_TIMEOUT_MS * 2);
    expect(screen.queryByTestId('idle-dialog')).toBeNull();

    // FDA mode turned on for the own records: the session's profile now says so
    act(() => session.loaded(accountInfo({ enableProtect: 1, enableFda: 1 }), 1, ['home']));
    await advance(IDLE_TIMEOUT_MS - 1_000);
    act(() => session.loaded(accountInfo({ enableProtect: 1, enableFda: 0 }), 1, ['home']));
    await advance(IDLE_TIMEOUT_MS * 2);
    expect(screen.queryByTestId('idle-dialog')).toBeNull();
    expect(api.calls).toHaveLength(0);

    act(() => session.loaded(accountInfo({ enableProtect: 1, enableFda: 1 }), 1, ['home']));
    await advance(IDLE_TIMEOUT_MS);
    expect(screen.getByTestId('idle-dialog')).toBeInTheDocument();
    expect(api.callsTo('GET /base/BaseAccount/loginOut')).toHaveLength(1);
  });
});

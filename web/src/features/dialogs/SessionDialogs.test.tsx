import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session';
import { silenceNotice } from '@/lib/storage';
import type { ExpiredInfo } from '@/lib/api/expired';
import { closeExpiredDialog } from '@/lib/expiredDialogStore';
import { reminderDue, SessionDialogs } from './SessionDialogs';
import { sessionProgress } from './sessionSteps';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';

const NOTICE = { noticeId: 3, noticeContent: '<p><strong>Scheduled maintenance</strong> on Sunday.</p>' };
const REMINDER: ExpiredInfo = { id: 7, pushMessages: 'Devices with expired service: 1; expiring within 30 days: 1', expiredFlag: 1 };

function server({ notice = NOTICE as typeof NOTICE | null, reminder = REMINDER } = {}) {
  return fakeServer({
    'POST /base/BaseNotice/queryNotice': () => envelope(notice),
    'GET /device/DeviceExpireInfo/getExpiredInfoByType': () => envelope(reminder),
    'GET /device/Device/getExpiredServiceDevice': () =>
      envelope({
        list: [{ id: 1, typeId: 1, deviceTypeName: 'Logger', deviceName: 'Cold room B logger', deviceGuid: 'G1', serviceExpiredDate: '2030-01-01', access: 2 }],
        total: 1,
      }),
    'GET /base/BaseDict/queryByType': () => envelope([]),
  });
}

const reminderButton = () => screen.queryByTestId('expiry-reminder-open');

beforeAll(setUpI18n);
afterEach(() => {
  act(() => closeExpiredDialog());
  session.clear();
  sessionProgress.reset();
  vi.restoreAllMocks();
});

describe('reminderDue', () => {
  it.each([
    [1, 'x', true],
    [2, 'x', true],
    [0, 'x', false],
    [1, null, false],
  ])('flag %s with message %j: %s', (expiredFlag, pushMessages, due) => {
    expect(reminderDue({ id: 1, expiredFlag, pushMessages })).toBe(due);
  });
});

describe('SessionDialogs', () => {
  it('shows nothing without a session', () => {
    const api = server();
    renderApp(<SessionDialogs />);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls).toHaveLength(0);
  });

  it('asks for identity and industry first, and nothing else meanwhile', async () => {
    server();
    signIn(accountInfo({ elitechIdentity: null, elitechIndustry: null }));
    renderApp(<SessionDialogs />);
    expect(await screen.findByTestId('identity-dialog')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('notice-dialog')).toBeNull();
    expect(reminderButton()).toBeNull();
  });

  it('then shows the notice, and the expiry reminder only once the notice is closed', async () => {
    const api = server();
    const user = userEvent.setup();
    signIn();
    renderApp(<SessionDialogs />);
    const notice = await screen.findByTestId('notice-dialog');
    expect(api.callsTo('POST /base/BaseNotice/queryNotice')[0]!.body).toEqual({
      noticeCamp: 0,
      noticePlatform: 1,
      noticeType: 1,
    });
    expect(within(notice).getByText('Scheduled maintenance')).toBeInTheDocument();
    expect(reminderButton()).toBeNull();

    await user.click(within(notice).getByRole('button', { name: 'Close' }));
    const open = await screen.findByTestId('expiry-reminder-open');
    expect(screen.getByText(REMINDER.pushMessages ?? '')).toBeInTheDocument();
    expect(screen.queryByTestId('notice-dialog')).toBeNull();

    await user.click(open);
    expect(await screen.findByTestId('expired-dialog')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('expiry-reminder')).toBeNull()); // its work done
    expect(screen.getByTestId('expired-flag')).toHaveValue('2');
    expect(await screen.findAllByTestId('expired-row')).toHaveLength(1);
  });

  it('goes straight to the reminder when the notice is silenced for this account', async () => {
    server();
    silenceNotice(7, 3);
    signIn();
    renderApp(<SessionDialogs />);
    expect(await screen.findByTestId('expiry-reminder-open')).toBeInTheDocument();
    expect(screen.queryByTestId('notice-dialog')).toBeNull();
  });

  it('still shows a notice silenced by another account', async () => {
    server();
    silenceNotice(8, 3);
    signIn();
    renderApp(<SessionDialogs />);
    expect(await screen.findByTestId('notice-dialog')).toBeInTheDocument();
  });

  it('gives no reminder when nothing expires soon', async () => {
    const api = server({ notice: null, reminder: { id: 7, pushMessages: null, expiredFlag: 0 } });
    signIn();
    renderApp(<SessionDialogs />);
    await waitFor(() => expect(api.callsTo('GET /device/DeviceExpireInfo/getExpiredInfoByType')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reminderButton()).toBeNull();
    expect(screen.queryByTestId('notice-dialog')).toBeNull();
  });

  it('shows the notice and the reminder once per sign-in, not again on the next page', async () => {
    server();
    const user = userEvent.setup();
    signIn();
    const first = renderApp(<SessionDialogs />);
    await user.click(within(await screen.findByTestId('notice-dialog')).getByRole('button', { name: 'Close' }));
    await screen.findByTestId('expiry-reminder-open');
    first.unmount();

    renderApp(<SessionDialogs />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('notice-dialog')).toBeNull();
    expect(reminderButton()).toBeNull();
  });

  it('moves on to the notice once the identity is saved', async () => {
    const bob = accountInfo({ elitechIdentity: null, elitechIndustry: null });
    server();
    signIn(bob);
    renderApp(<SessionDialogs />);
    await screen.findByTestId('identity-dialog');
    act(() => session.loaded(accountInfo(), 1, ['home']));
    expect(await screen.findByTestId('notice-dialog')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('identity-dialog')).toBeNull());
  });
});

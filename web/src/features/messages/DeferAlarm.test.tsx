import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, renderApp, setUpI18n, signIn } from '@/test/harness';
import { changeLanguage } from '@/lib/i18n';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import { untilFirstReturn } from '@/lib/api/alarms';
import MessageListPage from './MessageListPage';
import { alarm, alarmServer, HANDLER } from '@/test/alarms';

beforeAll(setUpI18n);
afterEach(async () => {
  session.clear();
  vi.restoreAllMocks();
  if (i18next.language !== 'en-US') await act(() => changeLanguage('en-US'));
});

const UNTIL = '2026-05-01T11:00:00+08:00';
const ALARMS = [
  alarm({ id: 3 }),
  alarm({ id: 2, state: 2, deferredUntil: UNTIL, deferralCount: 2 }),
];

function open(path = '/message/list') {
  signIn(accountInfo({}, { permissionRoutes: HANDLER }), HANDLER);
  return renderApp(<MessageListPage />, path);
}

const rows = () => screen.getAllByTestId('alarm-row');
const row = (id: number) => rows().find((r) => r.getAttribute('data-alarm-id') === String(id))!;

async function openDialog(id: number) {
  const user = userEvent.setup();
  await waitFor(() => expect(rows().length).toBeGreaterThan(0));
  await user.click(within(row(id)).getByTestId('alarm-deal'));
  return { user, dialog: await screen.findByTestId('deal-dialog') };
}

describe('deferring an alarm', () => {
  it('offers the delay only for a deferral: 15 minutes, 1 hour, 4 hours or 1 day, an hour unless another is chosen', async () => {
    alarmServer(ALARMS);
    open();
    const { user, dialog } = await openDialog(3);
    expect(within(dialog).queryByTestId('defer-delay')).toBeNull();
    await user.click(within(dialog).getByRole('radio', { name: 'Approve' }));
    expect(within(dialog).queryByTestId('defer-delay')).toBeNull();

    await user.click(within(dialog).getByRole('radio', { name: 'Defer' }));
    const delay = within(within(dialog).getByTestId('defer-delay'));
    expect(delay.getAllByRole('radio').map((choice) => choice.textContent)).toEqual(['15 minutes', '1 hour', '4 hours', '1 day']);
    expect(delay.getByRole('radio', { name: '1 hour' })).toBeChecked();
    expect(within(dialog).getByTestId('defer-back-at')).toHaveTextContent(/^Untreated again at .+, when its contacts are reminded\.$/);
    expect(within(dialog).getByText('It comes back untreated after the delay you choose.')).toBeInTheDocument();
  });

  it('defers for the delay chosen: the row shows until when, leaves the badge and may be handled again', async () => {
    const api = alarmServer(ALARMS);
    const success = vi.spyOn(notify, 'success').mockImplementation(() => {});
    open();
    await waitFor(() => expect(screen.getByRole('tab', { name: /Alarm messages/ })).toHaveTextContent('1'));
    const { user, dialog } = await openDialog(3);
    await user.click(within(dialog).getByRole('radio', { name: 'Defer' }));
    await user.click(within(dialog).getByRole('radio', { name: '4 hours' }));
    await user.type(within(dialog).getByTestId('deal-result'), 'Technician on the way');
    await user.click(within(dialog).getByTestId('deal-submit'));

    await waitFor(() => expect(screen.queryByTestId('deal-dialog')).toBeNull());
    expect(api.callsTo('POST /device/DeviceAlarm/deal')[0]?.body).toEqual({
      id: 3, handling: 3, result: 'Technician on the way', deferMinutes: 240,
    });
    expect(success).toHaveBeenCalledWith(expect.stringMatching(/^The alarm is deferred until \S/));
    await waitFor(() => expect(within(row(3)).getByTestId('alarm-state')).toHaveTextContent(/^Deferred\s*Until \S/));
    expect(within(row(3)).getByTestId('alarm-deal')).toBeEnabled();
    expect(within(row(3)).getByTestId('alarm-deferrals')).toHaveTextContent('Deferred once');
    await waitFor(() => expect(screen.getByRole('tab', { name: /Alarm messages/ })).toHaveTextContent(/^Alarm messages$/));
  });

  it('shows a deferred alarm as such, and its deferrals: who, when, for how long and why', async () => {
    const api = alarmServer(ALARMS);
    api.deferrals.set(2, [
      { deferredAt: '2026-05-01T10:00:00+08:00', deferredUntil: UNTIL, minutes: 60, deferredBy: 'alice', result: null },
      { deferredAt: '2026-05-01T09:00:00+08:00', deferredUntil: '2026-05-01T09:15:00+08:00', minutes: 15, deferredBy: 'bob',
        result: 'Door being fixed' },
    ]);
    const user = userEvent.setup();
    open();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(within(row(2)).getByTestId('alarm-state')).toHaveTextContent('Deferred');
    expect(within(row(2)).getByTestId('alarm-deferred-until')).toHaveAttribute('dateTime', UNTIL);
    expect(row(2)).toHaveAttribute('data-state', '2');
    expect(within(row(3)).queryByTestId('alarm-deferrals')).toBeNull();

    await user.click(within(row(2)).getByTestId('alarm-deferrals'));
    const history = await screen.findByTestId('deferral-history');
    const entries = within(history).getAllByTestId('deferral');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toHaveTextContent(/^For 1 hour, until .+No reason givenBy alice/);
    expect(entries[1]).toHaveTextContent(/^For 15 minutes, until .+Door being fixedBy bob/);
    expect(api.callsTo('POST /device/DeviceAlarm/deferrals')[0]?.body).toEqual({ id: 2, start: 1, pageSize: 10 });
  });

  it('filters the deferred alarms', async () => {
    const api = alarmServer(ALARMS);
    const user = userEvent.setup();
    open();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(screen.getByRole('radio', { name: 'Deferred' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.callsTo('POST /device/DeviceAlarm/page').at(-1)?.body).toEqual({ start: 1, pageSize: 10, state: 2 });
    expect(screen.getByTestId('location')).toHaveTextContent('/message/list?state=2');
  });

  it('shows the server’s refusal of a delay under it', async () => {
    alarmServer(ALARMS, {
      'POST /device/DeviceAlarm/deal': () =>
        envelope(null, 422, 422, 'Invalid input', { deferMinutes: ['Defer the alarm by 1 minute to 1 day (1440 minutes)'] }),
    });
    open();
    const { user, dialog } = await openDialog(3);
    await user.click(within(dialog).getByRole('radio', { name: 'Defer' }));
    await user.click(within(dialog).getByTestId('deal-submit'));
    expect(await within(dialog).findByText('Defer the alarm by 1 minute to 1 day (1440 minutes)')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('deal-error')).toBeNull();
  });

  it('says it in the user’s language', async () => {
    alarmServer(ALARMS);
    await act(() => changeLanguage('zh-CN'));
    open();
    const { user, dialog } = await openDialog(3);
    await user.click(within(dialog).getByRole('radio', { name: '暂缓' }));
    const delay = within(within(dialog).getByTestId('defer-delay'));
    expect(delay.getAllByRole('radio').map((choice) => choice.textContent)).toEqual(['15 分钟', '1 小时', '4 小时', '1 天']);
    expect(within(dialog).getByTestId('defer-back-at')).toHaveTextContent(/恢复为未处理/);
    expect(within(row(2)).getByTestId('alarm-state')).toHaveTextContent('已暂缓');
    await act(() => changeLanguage('ru-RU'));
    expect(delay.getByRole('radio', { name: '1 день' })).toBeInTheDocument();
    expect(within(row(2)).getByTestId('alarm-deferrals')).toHaveTextContent('Отложена 2 раза');
  });
});

describe('the list asks again when a deferral ends', () => {
  const now = Date.parse('2026-05-01T10:00:00+08:00');
  it('a second after the first deferral on the page ends', () => {
    expect(untilFirstReturn([{ deferredUntil: null }], now)).toBe(false);
    expect(untilFirstReturn(undefined, now)).toBe(false);
    expect(untilFirstReturn([{ deferredUntil: '2026-05-01T10:15:00+08:00' }, { deferredUntil: UNTIL }], now)).toBe(15 * 60_000 + 1000);
  });

  it('in a few seconds for one already past, and at least hourly for one far away', () => {
    expect(untilFirstReturn([{ deferredUntil: '2026-05-01T09:00:00+08:00' }], now)).toBe(5000);
    expect(untilFirstReturn([{ deferredUntil: '2026-05-02T10:00:00+08:00' }], now)).toBe(60 * 60_000);
  });
});

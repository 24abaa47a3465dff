import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, renderApp, setUpI18n, signIn } from '@/test/harness';
import { signatureNeeds } from '@/lib/api/fda';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import MessageListPage from './MessageListPage';
import { alarm, alarmServer, HANDLER } from '@/test/alarms';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  signatureNeeds.forget();
  vi.restoreAllMocks();
});

const FDA_HANDLER = [...HANDLER, 'fda', 'fda:query'];
const SIGNING_STATE = { 'GET /device/FdaRecord/signingState': () =>
  envelope({ needsUserName: true, locked: false, lockedUntil: null, reauthMinutes: 15, userName: 'alice' }) };
const NO_FDA_SUBJECTS = { 'GET /device/FdaRecord/status': () => envelope({ subjects: [] }) };

function open(permissions = FDA_HANDLER) {
  signIn(accountInfo({}, { permissionRoutes: permissions }), permissions);
  return renderApp(<MessageListPage />, '/message/list');
}

async function handle(id: number, result: string) {
  const user = userEvent.setup();
  await waitFor(() => expect(screen.getAllByTestId('alarm-row').length).toBeGreaterThan(0));
  const row = screen.getAllByTestId('alarm-row').find((r) => r.getAttribute('data-alarm-id') === String(id))!;
  await user.click(within(row).getByTestId('alarm-deal'));
  const dialog = await screen.findByTestId('deal-dialog');
  await user.click(within(dialog).getByRole('radio', { name: 'Refuse' }));
  await user.type(within(dialog).getByTestId('deal-result'), result);
  await user.click(within(dialog).getByTestId('deal-submit'));
  return { user, dialog };
}

describe('handling an alarm where FDA is on', () => {
  it('asks for the signature the server wants, with the result as the reason, and handles the alarm with it once signed', async () => {
    const api = alarmServer([alarm({ id: 5 })], { ...SIGNING_STATE, ...NO_FDA_SUBJECTS }, { password: 'Coldchain#2026' });
    const success = vi.spyOn(notify, 'success').mockImplementation(() => {});
    open();
    const { user } = await handle(5, 'Probe misplaced');
    const signature = await screen.findByTestId('signature-dialog');
    expect(within(signature).getByTestId('signature-intro')).toHaveTextContent('This change needs your electronic signature');
    expect(within(signature).getByTestId('signature-label')).toHaveTextContent('Refuse · Vaccine fridge logger · Temperature');
    expect(within(signature).getByTestId('signature-reason-input')).toHaveValue('Probe misplaced');
    expect(within(signature).getByTestId('signature-meaning-select')).toHaveValue('m:responsible');

    // a wrong password: said in the signature dialog, nothing handled, the alarm still untreated
    await user.type(await within(signature).findByTestId('signature-user'), 'alice');
    await user.type(within(signature).getByTestId('signature-password'), 'guess');
    await user.click(within(signature).getByTestId('signature-submit'));
    expect(await within(signature).findByTestId('signature-error')).toHaveTextContent('Wrong user name or password: 4 tries left');
    expect(api.alarms[0]!.state).toBe(0);
    expect(session.get().info).not.toBeNull();

    await user.type(within(signature).getByTestId('signature-password'), 'Coldchain#2026');
    await user.click(within(signature).getByTestId('signature-submit'));
    await waitFor(() => expect(screen.queryByTestId('deal-dialog')).toBeNull());
    expect(screen.queryByTestId('signature-dialog')).toBeNull();
    const deals = api.callsTo('POST /device/DeviceAlarm/deal');
    expect(deals).toHaveLength(3);
    expect(deals[0]?.body).toEqual({ id: 5, handling: 2, result: 'Probe misplaced' });
    expect(deals[2]?.body).toEqual({ id: 5, handling: 2, result: 'Probe misplaced', signature: {
      userName: 'alice', password: 'Coldchain#2026', meaning: 'responsible', reason: 'Probe misplaced',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    } });
    expect(success).toHaveBeenCalledWith('The alarm has been handled');

    // the treated alarm shows its signature's manifestation
    const row = await waitFor(() => {
      const found = screen.getAllByTestId('alarm-row').find((r) => r.getAttribute('data-alarm-id') === '5')!;
      expect(within(found).getByTestId('signature')).toBeInTheDocument();
      return found;
    });
    const manifestation = within(row).getByTestId('signature');
    expect(manifestation).toHaveTextContent('Responsible');
    expect(manifestation).toHaveTextContent('Alice Doe (alice)');
    expect(manifestation).toHaveTextContent('Reason: Probe misplaced');
    expect(within(manifestation).getByTestId('signature-validity')).toHaveTextContent('Applies');
  });

  it('handles nothing when the signer cancels, and the handling dialog stays for another try', async () => {
    const api = alarmServer([alarm({ id: 5 }), alarm({ id: 6 })], { ...SIGNING_STATE, ...NO_FDA_SUBJECTS }, { password: 'pw' });
    open();
    const { user, dialog } = await handle(5, 'x');
    const signature = await screen.findByTestId('signature-dialog');
    await user.click(within(signature).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('signature-dialog')).toBeNull());
    expect(dialog).toBeInTheDocument();
    expect(api.alarms.every((a) => a.state === 0)).toBe(true);
    expect(api.callsTo('POST /device/DeviceAlarm/deal')).toHaveLength(1);

    // the device is known to want a signature now: the next handling asks before trying
    await user.click(within(dialog).getByTestId('deal-submit'));
    await screen.findByTestId('signature-dialog');
    expect(api.callsTo('POST /device/DeviceAlarm/deal')).toHaveLength(1);
  });

  it('handles unsigned, with no dialog, where FDA is off', async () => {
    const api = alarmServer([alarm({ id: 5 })]);
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    open(HANDLER);
    await handle(5, 'ok');
    await waitFor(() => expect(screen.queryByTestId('deal-dialog')).toBeNull());
    expect(screen.queryByTestId('signature-dialog')).toBeNull();
    expect(api.callsTo('POST /device/DeviceAlarm/deal')).toHaveLength(1);
    expect(api.callsTo('GET /device/FdaRecord/signingState')).toEqual([]);
  });
});

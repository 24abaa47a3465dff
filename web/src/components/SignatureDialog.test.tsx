import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn, type Routes } from '@/test/harness';
import { api } from '@/lib/http';
import { signatureNeeds, type SignatureRow, type SigningState } from '@/lib/api/fda';
import { session } from '@/lib/session';
import { SignatureList } from './Signatures';
import { useSigning, type SigningRequest } from './SignatureDialog';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  signatureNeeds.forget();
  vi.restoreAllMocks();
});

const FDA = ['home', 'fda', 'fda:query', 'fda:enable', 'fda:disable'];
const STATE: SigningState = { needsUserName: true, locked: false, lockedUntil: null, reauthMinutes: 15, userName: 'acme' };

function server(routes: Routes = {}, state: Partial<SigningState> = {}) {
  return fakeServer({
    'GET /device/FdaRecord/signingState': () => envelope({ ...STATE, ...state }),
    'GET /device/FdaRecord/status': () => envelope({ subjects: [
      { accountId: 7, organizationId: null, name: 'acme', enabled: false, changeable: true },
      { accountId: null, organizationId: 3, name: 'Acme Cold Chain', enabled: true, changeable: true },
    ] }),
    'POST /device/FdaEndorsement/page': () => envelope({ start: 1, pageSize: 200, totalCount: 2, data: [
      { id: 12, name: 'QA release', description: 'Quality release', meaning: 'Released for shipping', meaningText: 'Released for shipping',
        recordTypes: ['alarm'], roleIds: [], accountIds: [], distinctSigner: true, organizationId: 3 },
      { id: 13, name: 'Report check', description: null, meaning: 'reviewed', meaningText: 'Reviewed', recordTypes: ['report'], roleIds: [],
        accountIds: [], distinctSigner: false, organizationId: 3 },
    ] }),
    'POST /x/change': () => envelope({ done: true }),
    ...routes,
  });
}

/** A button that runs a change through the signing hook, and what came of it. */
function Harness({ request, mode = 'sign' }: { request: SigningRequest; mode?: 'sign' | 'ifNeeded' }) {
  const signing = useSigning();
  const [outcome, setOutcome] = useState('none');
  const call = (signature?: unknown) => api.post<{ done: boolean }>('/x/change', { signature }, { silent: true, denialIsAnswer: true });
  const run = async () => {
    try {
      const answer = mode === 'sign' ? await signing.sign(request, call) : await signing.signIfNeeded(request, call, { key: 'device:1' });
      setOutcome(answer === null ? 'cancelled' : 'done');
    } catch {
      setOutcome('failed');
    }
  };
  return (
    <>
      <button type="button" onClick={() => void run()}>change</button>
      <output data-testid="outcome">{outcome}</output>
      {signing.dialog}
    </>
  );
}

const open = (request: SigningRequest = {}, mode: 'sign' | 'ifNeeded' = 'sign') => {
  signIn(accountInfo({}, { permissionRoutes: FDA }), FDA);
  return renderApp(<Harness request={request} mode={mode} />);
};

describe('the signature dialog', () => {
  it('asks for both components on a first signature and sends user name, password, meaning, reason and time zone', async () => {
    const api = server();
    const user = userEvent.setup();
    open({ label: 'Cold room A: temperature above 8 °C', meaning: 'responsible', reason: 'Door closed', reasonRequired: true });
    await user.click(screen.getByRole('button', { name: 'change' }));
    const dialog = await screen.findByTestId('signature-dialog');
    expect(within(dialog).getByTestId('signature-label')).toHaveTextContent('Cold room A: temperature above 8 °C');
    expect(within(dialog).getByTestId('signature-statement'))
      .toHaveTextContent('Signing is the legally binding equivalent of your handwritten signature.');
    const userName = await within(dialog).findByTestId('signature-user');
    await user.click(within(dialog).getByTestId('signature-submit'));
    expect(await within(dialog).findByText('Enter your user name')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter your password')).toBeInTheDocument();
    expect(api.callsTo('POST /x/change')).toEqual([]);

    await user.type(userName, ' acme ');
    await user.type(within(dialog).getByTestId('signature-password'), 'Coldchain#2026');
    await user.click(within(dialog).getByTestId('signature-submit'));
    await waitFor(() => expect(screen.getByTestId('outcome')).toHaveTextContent('done'));
    expect(api.callsTo('POST /x/change')[0]?.body).toEqual({ signature: {
      userName: 'acme', password: 'Coldchain#2026', meaning: 'responsible', reason: 'Door closed',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    } });
    await waitFor(() => expect(screen.queryByTestId('signature-dialog')).not.toBeInTheDocument());
  });

  it('asks for the password alone within the re-authentication window, naming who signs', async () => {
    const api = server({}, { needsUserName: false });
    const user = userEvent.setup();
    open({ meanings: ['approved'], reasonRequired: true });
    await user.click(screen.getByRole('button', { name: 'change' }));
    const dialog = await screen.findByTestId('signature-dialog');
    expect(await within(dialog).findByTestId('signature-as')).toHaveTextContent('Signing as acme');
    expect(within(dialog).queryByTestId('signature-user')).not.toBeInTheDocument();
    await user.type(within(dialog).getByTestId('signature-password'), 'pw');
    await user.click(within(dialog).getByTestId('signature-submit'));
    expect(await within(dialog).findByText('Give the reason for your signature')).toBeInTheDocument();
    await user.type(within(dialog).getByTestId('signature-reason-input'), 'x'.repeat(201));
    expect(await within(dialog).findByText('At most 200 characters')).toBeInTheDocument();
    await user.clear(within(dialog).getByTestId('signature-reason-input'));
    await user.type(within(dialog).getByTestId('signature-reason-input'), 'Monthly review');
    await user.click(within(dialog).getByTestId('signature-submit'));
    await waitFor(() => expect(api.callsTo('POST /x/change')).toHaveLength(1));
    expect(api.callsTo('POST /x/change')[0]?.body).toMatchObject({ signature: { password: 'pw', meaning: 'approved', reason: 'Monthly review' } });
    expect((api.callsTo('POST /x/change')[0]?.body as { signature: object }).signature).not.toHaveProperty('userName');
  });

  it("shows a wrong password's refusal in the dialog, keeps the session and reads the signing state again", async () => {
    const api = server({ 'POST /x/change': () => envelope(null, 403, 403, 'Wrong user name or password: 4 tries left') }, { needsUserName: false });
    const user = userEvent.setup();
    open({ meaning: 'approved' });
    await user.click(screen.getByRole('button', { name: 'change' }));
    const dialog = await screen.findByTestId('signature-dialog');
    await within(dialog).findByTestId('signature-as');
    await user.type(within(dialog).getByTestId('signature-password'), 'wrong');
    await user.click(within(dialog).getByTestId('signature-submit'));
    expect(await within(dialog).findByTestId('signature-error')).toHaveTextContent('Wrong user name or password: 4 tries left');
    expect(session.get().info).not.toBeNull();
    expect(within(dialog).getByTestId('signature-password')).toHaveValue('');
    await waitFor(() => expect(api.callsTo('GET /device/FdaRecord/signingState').length).toBeGreaterThanOrEqual(2));
    expect(screen.getByTestId('outcome')).toHaveTextContent('none');

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByTestId('outcome')).toHaveTextContent('cancelled'));
  });

  it('says signing is locked and until when, and does not let the signer try', async () => {
    server({}, { locked: true, lockedUntil: '2026-05-01T10:30:00Z', needsUserName: false });
    const user = userEvent.setup();
    open();
    await user.click(screen.getByRole('button', { name: 'change' }));
    const dialog = await screen.findByTestId('signature-dialog');
    expect(await within(dialog).findByTestId('signature-locked')).toHaveTextContent('Signing is locked after too many wrong passwords until');
    expect(within(dialog).getByTestId('signature-submit')).toBeDisabled();
  });

  it("offers the endorsements of the caller's FDA organizations for the record type, and signs with one", async () => {
    const api = server({}, { needsUserName: false });
    const user = userEvent.setup();
    open({ recordType: 'alarm', meaning: 'responsible' });
    await user.click(screen.getByRole('button', { name: 'change' }));
    const dialog = await screen.findByTestId('signature-dialog');
    const select = within(dialog).getByTestId('signature-meaning-select');
    await within(select).findByRole('option', { name: 'QA release: Released for shipping' });
    expect(within(select).queryByRole('option', { name: /Report check/ })).not.toBeInTheDocument();
    expect(api.callsTo('POST /device/FdaEndorsement/page').map((call) => call.body)).toEqual([{ organizationId: 3, start: 1, pageSize: 200 }]);
    await user.selectOptions(select, 'e:12');
    await user.type(within(dialog).getByTestId('signature-password'), 'pw');
    await user.click(within(dialog).getByTestId('signature-submit'));
    await waitFor(() => expect(api.callsTo('POST /x/change')).toHaveLength(1));
    const sent = (api.callsTo('POST /x/change')[0]?.body as { signature: object }).signature;
    expect(sent).toMatchObject({ endorsementId: 12, password: 'pw' });
    expect(sent).not.toHaveProperty('meaning');
  });
});

describe('signing when needed', () => {
  it("tries unsigned, asks on the server's 428 with its words, signs, and asks first the next time", async () => {
    let signed = 0;
    const api = server({
      'POST /x/change': (call) => {
        if (!(call.body as { signature?: object }).signature) return envelope(null, 428, 428, 'This change needs your electronic signature');
        signed += 1;
        return envelope({ done: true });
      },
    }, { needsUserName: false });
    const user = userEvent.setup();
    open({ meaning: 'responsible' }, 'ifNeeded');
    await user.click(screen.getByRole('button', { name: 'change' }));
    const dialog = await screen.findByTestId('signature-dialog');
    expect(within(dialog).getByTestId('signature-intro')).toHaveTextContent('This change needs your electronic signature');
    await user.type(within(dialog).getByTestId('signature-password'), 'pw');
    await user.click(within(dialog).getByTestId('signature-submit'));
    await waitFor(() => expect(screen.getByTestId('outcome')).toHaveTextContent('done'));
    expect(signed).toBe(1);
    expect(api.callsTo('POST /x/change')).toHaveLength(2);

    // the same record again: the dialog opens before any unsigned try
    await user.click(screen.getByRole('button', { name: 'change' }));
    await screen.findByTestId('signature-dialog');
    expect(api.callsTo('POST /x/change')).toHaveLength(2);
  });

  it('changes unsigned where FDA is off, without a dialog', async () => {
    const api = server();
    const user = userEvent.setup();
    open({}, 'ifNeeded');
    await user.click(screen.getByRole('button', { name: 'change' }));
    await waitFor(() => expect(screen.getByTestId('outcome')).toHaveTextContent('done'));
    expect(api.callsTo('POST /x/change')[0]?.body).toEqual({});
    expect(screen.queryByTestId('signature-dialog')).not.toBeInTheDocument();
  });
});

describe('the manifestation of signatures', () => {
  const row = (change: Partial<SignatureRow> = {}): SignatureRow => ({
    id: 1, recordType: 'report', recordId: '4', recordLabel: 'Cold room A 2026-04', signerName: 'Carol Reviewer', signerLogin: 'carol',
    meaning: 'reviewed', meaningText: 'Reviewed', reason: 'Checked the excursions', signedAt: '2026-05-01T07:00:00Z',
    timeZone: 'Europe/Berlin', localTime: '2026-05-01T09:00:00+02:00', endorsementId: null, endorsementName: null, valid: true, ...change,
  });

  it('shows printed name, time in the signer zone, meaning, reason, and whether it still applies', async () => {
    renderApp(<SignatureList signatures={[row(), row({ id: 2, signerName: 'dave', signerLogin: 'dave', meaning: 'approved',
      meaningText: 'Approved', reason: null, valid: false, endorsementName: 'QA release' })]} />);
    const [first, second] = await screen.findAllByTestId('signature');
    expect(within(first!).getByTestId('signature-name')).toHaveTextContent('Carol Reviewer (carol)');
    expect(within(first!).getByTestId('signature-meaning')).toHaveTextContent('Reviewed');
    expect(within(first!).getByTestId('signature-time')).toHaveTextContent(/09:00:00 GMT\+2 \(Europe\/Berlin\)/);
    expect(within(first!).getByTestId('signature-reason')).toHaveTextContent('Reason: Checked the excursions');
    expect(within(first!).getByTestId('signature-validity')).toHaveTextContent('Applies');
    expect(within(second!).getByTestId('signature-name')).toHaveTextContent(/^dave$/);
    expect(within(second!).getByTestId('signature-validity')).toHaveTextContent('No longer applies');
    expect(within(second!).getByText('Endorsement: QA release')).toBeInTheDocument();
  });
});

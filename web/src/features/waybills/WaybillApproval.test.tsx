import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderRoute, setUpI18n, signIn, type Routes } from '@/test/harness';
import type { FdaSubject, SignatureRow } from '@/lib/api/fda';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import type { WaybillDetail } from './api/waybills';
import { approvalStatus, waybillFdaOn } from './components/WaybillApproval';
import WaybillDetailPage from './WaybillDetailPage';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const PERMITTED = ['home', 'waybill.list', 'waybill.list:edit', 'waybill.list:detail', 'fda', 'fda:query'];
const ORG = 3;
const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;

function waybill(change: Partial<WaybillDetail> = {}): WaybillDetail {
  return {
    id: 4, orderNum: 'WB-001', goodsName: 'Vaccines', expressNumber: null, coolerCode: null, upperLimit: 8, lowerLimit: 2,
    senderName: null, senderPhone: null, senderAddress: null, receiverName: null, receiverPhone: null, receiverAddress: null,
    alarmContacts: [], startTime: null, stopTime: null, originFenceId: null, destinationFenceId: null, state: 2,
    startedAt: '2026-11-01T08:00:00+08:00', finishedAt: '2026-11-02T08:00:00+08:00', createdAt: '2026-11-01T07:00:00+08:00',
    organizationId: ORG, changeable: true, devices: [], corrected: false, spanStart: null, spanEnd: null, alarmCount: 0, ...change,
  };
}

function signature(change: Partial<SignatureRow> = {}): SignatureRow {
  return {
    id: 31, recordType: 'waybill', recordId: '4', recordLabel: 'WB-001', signerName: 'Carol Chen', signerLogin: 'carol',
    meaning: 'approved', meaningText: 'Approved', reason: null, signedAt: '2026-11-02T09:30:00+00:00', timeZone: 'Europe/Berlin',
    localTime: '2026-11-02T10:30:00+01:00', endorsementId: null, endorsementName: null, valid: true, ...change,
  };
}

const subjects = (organizationOn: boolean, ownOn = false) => [
  { accountId: 7, organizationId: null, name: 'alice', enabled: ownOn, changeable: true },
  { accountId: null, organizationId: ORG, name: 'Acme Cold Chain', enabled: organizationOn, changeable: false },
];

/** The waybill's page with FDA mode as `fdaOn` says; signatures are kept as the server would. */
function server(shown: WaybillDetail, { fdaOn = true, signed = [] as SignatureRow[], routes = {} as Routes } = {}) {
  const stored = [...signed];
  return fakeServer({
    'GET /device/Waybill/get': () => envelope(shown),
    'GET /device/Waybill/report': () => envelope(null, 500, 500, 'later'),
    'GET /device/FdaRecord/status': () => envelope({ subjects: subjects(fdaOn) }),
    'GET /device/FdaRecord/signingState': () =>
      envelope({ needsUserName: false, locked: false, lockedUntil: null, reauthMinutes: 15, userName: 'alice' }),
    'POST /device/FdaEndorsement/page': () => envelope({ start: 1, pageSize: 200, totalCount: 0, data: [] }),
    'GET /device/FdaRecord/recordSignatures': () => envelope(stored),
    'POST /device/FdaRecord/sign': () => {
      const made = signature({ id: 40 + stored.length, signerName: 'alice', signerLogin: 'alice', timeZone: TZ });
      stored.push(made);
      return envelope(made);
    },
    ...routes,
  });
}

function open(permissions = PERMITTED) {
  signIn(accountInfo({}, { permissionRoutes: permissions }), permissions);
  renderRoute(<WaybillDetailPage />, '/waybill/detail/:waybillPk', '/waybill/detail/4');
}

describe('whether FDA mode covers a waybill', () => {
  const status: FdaSubject[] = subjects(true, false);

  it("reads the organization's switch for an organization's waybill and the caller's own for the caller's", () => {
    expect(waybillFdaOn(status, { organizationId: ORG, changeable: false }, 7)).toBe(true);
    expect(waybillFdaOn(status, { organizationId: null, changeable: true }, 7)).toBe(false);
    expect(waybillFdaOn(subjects(false, true), { organizationId: null, changeable: true }, 7)).toBe(true);
  });

  it("knows nothing of another's waybill shared with the caller, or of an organization the caller is not in", () => {
    expect(waybillFdaOn(status, { organizationId: null, changeable: false }, 7)).toBeNull();
    expect(waybillFdaOn(status, { organizationId: 99, changeable: false }, 7)).toBeNull();
    expect(waybillFdaOn(undefined, { organizationId: ORG, changeable: true }, 7)).toBeNull();
  });

  it('is approved while an approval applies to the waybill as it is, changed once none does', () => {
    expect(approvalStatus([])).toBe('pending');
    expect(approvalStatus([signature({ meaning: 'reviewed' })])).toBe('pending');
    expect(approvalStatus([signature({ valid: false })])).toBe('changed');
    expect(approvalStatus([signature({ valid: false }), signature({ id: 32 })])).toBe('approved');
  });
});

describe("a waybill's approval", () => {
  it('is signed in the signature dialog where FDA mode is on, and shows the manifestation', async () => {
    const api = server(waybill());
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    const user = userEvent.setup();
    open();
    const card = await screen.findByTestId('waybill-approval');
    expect(await within(card).findByTestId('waybill-unsigned')).toHaveTextContent('No signatures yet');
    expect(within(card).getByTestId('waybill-approval-status')).toHaveTextContent('Not approved');
    await user.click(within(card).getByTestId('waybill-approve'));
    const dialog = await screen.findByTestId('signature-dialog');
    expect(within(dialog).getByTestId('signature-label')).toHaveTextContent('WB-001');
    expect(within(dialog).getByTestId('signature-meaning-select')).toHaveValue('m:approved');
    await user.type(within(dialog).getByTestId('signature-password'), 'Coldchain#2026');
    await user.click(within(dialog).getByTestId('signature-submit'));

    await waitFor(() => expect(screen.queryByTestId('signature-dialog')).toBeNull());
    expect(api.callsTo('POST /device/FdaRecord/sign')[0]?.body).toEqual({ recordType: 'waybill', recordId: '4',
      signature: { password: 'Coldchain#2026', meaning: 'approved', timeZone: TZ } });
    const shown = await within(card).findByTestId('signature');
    expect(within(shown).getByTestId('signature-name')).toHaveTextContent('alice');
    expect(within(shown).getByTestId('signature-meaning')).toHaveTextContent('Approved');
    expect(within(shown).getByTestId('signature-time')).toHaveTextContent(TZ === 'UTC' ? 'UTC' : /\(.+\)/);
    expect(within(shown).getByTestId('signature-validity')).toHaveAttribute('data-valid', 'true');
    expect(card).toHaveAttribute('data-status', 'approved');
    expect(within(card).queryByTestId('waybill-approve')).toBeNull(); // approved by the caller already
    expect(notify.success).toHaveBeenCalledWith('Waybill WB-001 approved');
    expect(api.callsTo('GET /device/FdaRecord/recordSignatures')[0]?.params.get('recordType')).toBe('waybill');
  });

  it("shows each signature's printed name, time in the signer's zone, meaning and that a change voided it", async () => {
    server(waybill(), { signed: [signature({ valid: false, reason: 'Cold chain intact' })] });
    open();
    const card = await screen.findByTestId('waybill-approval');
    const shown = await within(card).findByTestId('signature');
    expect(within(shown).getByTestId('signature-name')).toHaveTextContent('Carol Chen (carol)');
    expect(within(shown).getByTestId('signature-time')).toHaveTextContent('Europe/Berlin');
    expect(within(shown).getByTestId('signature-validity')).toHaveAttribute('data-valid', 'false');
    expect(within(shown).getByTestId('signature-reason')).toHaveTextContent('Cold chain intact');
    expect(card).toHaveAttribute('data-status', 'changed');
    expect(within(card).getByTestId('waybill-approval-status')).toHaveTextContent('Changed since approval');
    expect(within(card).getByTestId('waybill-approve')).toBeInTheDocument(); // the changed waybill is approved anew
  });

  it('is not offered where FDA mode is off', async () => {
    const api = server(waybill(), { fdaOn: false });
    open();
    await screen.findByTestId('waybill-title');
    await waitFor(() => expect(api.callsTo('GET /device/FdaRecord/status')).toHaveLength(1));
    await waitFor(() => expect(api.callsTo('GET /device/FdaRecord/recordSignatures')).toHaveLength(1));
    expect(screen.queryByTestId('waybill-approval')).toBeNull();
  });

  it('still shows the signatures made while FDA mode was on, with no approval offered', async () => {
    server(waybill(), { fdaOn: false, signed: [signature()] });
    open();
    const card = await screen.findByTestId('waybill-approval');
    expect(await within(card).findByTestId('signature')).toBeInTheDocument();
    expect(within(card).getByTestId('waybill-approval-status')).toHaveTextContent('Approved');
    expect(within(card).queryByTestId('waybill-approve')).toBeNull();
  });

  it('is neither read nor offered without the FDA permissions', async () => {
    const api = server(waybill());
    open(['home', 'waybill.list', 'waybill.list:detail']);
    await screen.findByTestId('waybill-title');
    expect(screen.queryByTestId('waybill-approval')).toBeNull();
    expect(api.callsTo('GET /device/FdaRecord/recordSignatures')).toEqual([]);
    expect(api.callsTo('GET /device/FdaRecord/status')).toEqual([]);
  });

  it("is not offered on another's waybill shared with the caller, whose signatures still show", async () => {
    server(waybill({ organizationId: null, changeable: false }), { signed: [signature()] });
    open();
    const card = await screen.findByTestId('waybill-approval');
    expect(await within(card).findByTestId('signature')).toBeInTheDocument();
    expect(within(card).queryByTestId('waybill-approve')).toBeNull();
  });

  it('is offered to a member who may not change the waybill only under an endorsement for waybills', async () => {
    const api = server(waybill({ changeable: false }));
    open();
    const card = await screen.findByTestId('waybill-approval');
    await waitFor(() => expect(api.callsTo('POST /device/FdaEndorsement/page')).toHaveLength(1));
    expect(api.callsTo('POST /device/FdaEndorsement/page')[0]?.body).toMatchObject({ organizationId: ORG });
    expect(within(card).queryByTestId('waybill-approve')).toBeNull();
  });

  it("says so when the server refuses the signer (403 2329), keeping the session, and offers it no more", async () => {
    const api = server(waybill({ changeable: false }), { routes: {
      'POST /device/FdaEndorsement/page': () => envelope({ start: 1, pageSize: 200, totalCount: 1, data: [
        { id: 12, name: 'Shipping QA', description: null, meaning: 'approved', meaningText: 'Approved', recordTypes: ['waybill'],
          roleIds: [], accountIds: [], distinctSigner: false, organizationId: ORG },
      ] }),
      'POST /device/FdaRecord/sign': () => envelope(null, 2329, 403, 'You may not sign this record'),
    } });
    const user = userEvent.setup();
    open();
    const card = await screen.findByTestId('waybill-approval');
    await user.click(await within(card).findByTestId('waybill-approve'));
    const dialog = await screen.findByTestId('signature-dialog');
    await user.type(within(dialog).getByTestId('signature-password'), 'Coldchain#2026');
    await user.click(within(dialog).getByTestId('signature-submit'));
    expect(await within(dialog).findByTestId('signature-error')).toHaveTextContent('You may not sign this record');
    expect(session.get().info).not.toBeNull();
    expect(api.callsTo('POST /device/FdaRecord/sign')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('signature-dialog')).toBeNull());
    expect(within(card).getByTestId('waybill-approval-refused')).toHaveTextContent('You may not sign this waybill.');
    expect(within(card).queryByTestId('waybill-approve')).toBeNull();
  });
});

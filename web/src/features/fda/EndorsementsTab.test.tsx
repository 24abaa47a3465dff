import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderApp, setUpI18n, signIn } from '@/test/harness';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import FdaPage from './FdaPage';
import { endorsementFormSchema, fieldsOf, formOf, OWN_MEANING } from './components/EndorsementDialog';
import { bodyOf, endorsement, FDA_PERMISSIONS, fdaServer, type FdaServer } from './testing';

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

function open(server: FdaServer) {
  signIn({ ...server.state.info, permissionRoutes: FDA_PERMISSIONS }, FDA_PERMISSIONS);
  return renderApp(<FdaPage />, '/fda?tab=endorsements');
}

describe('the endorsement form', () => {
  const schema = endorsementFormSchema(i18n.t.bind(i18n) as never);
  const valid = formOf(null);

  it('holds name and description to 50 characters, needs a record type, and an own meaning when chosen', () => {
    const ok = (change: object) => schema.safeParse({ ...valid, recordTypes: ['report'], name: 'QA', ...change }).success;
    expect(ok({})).toBe(true);
    expect(ok({ name: '  ' })).toBe(false);
    expect(ok({ name: 'x'.repeat(50), description: 'é'.repeat(50) })).toBe(true);
    expect(ok({ name: 'x'.repeat(51) })).toBe(false);
    expect(ok({ description: 'x'.repeat(51) })).toBe(false);
    expect(ok({ recordTypes: [] })).toBe(false);
    expect(ok({ meaningChoice: OWN_MEANING, ownMeaning: '' })).toBe(false);
    expect(ok({ meaningChoice: OWN_MEANING, ownMeaning: 'Released for shipping' })).toBe(true);
    expect(ok({ meaningChoice: OWN_MEANING, ownMeaning: 'x'.repeat(51) })).toBe(false);
  });

  it('reads a standard meaning by its code and keeps an own one as written', () => {
    expect(formOf(endorsement({ meaning: 'approved' }))).toMatchObject({ meaningChoice: 'approved', ownMeaning: '' });
    const own = formOf(endorsement({ meaning: 'Released for shipping' }));
    expect(own).toMatchObject({ meaningChoice: OWN_MEANING, ownMeaning: 'Released for shipping' });
    expect(fieldsOf({ ...own, name: ' QA ' })).toMatchObject({ name: 'QA', meaning: 'Released for shipping' });
    // no description is sent as none, and one the server has not read back as empty
    expect(fieldsOf({ ...own, description: '  ' }).description).toBeNull();
    expect(formOf(endorsement({ description: null })).description).toBe('');
  });
});

describe('the endorsements tab', () => {
  it("lists the endorsements of the organization whose FDA mode is on, naming who may sign", async () => {
    const server = fdaServer();
    open(server);
    const row = await screen.findByTestId('endorsement-row');
    expect(row).toHaveTextContent('QA release');
    expect(row).toHaveTextContent('Quality assurance release');
    expect(row).toHaveTextContent('Approved');
    expect(row).toHaveTextContent('Periodic report');
    await waitFor(() => expect(row).toHaveTextContent('Quality assurance'));
    expect(row).toHaveTextContent('Yes');
    expect(bodyOf(server.callsTo('POST /device/FdaEndorsement/page')[0])).toEqual({ organizationId: 3, start: 1, pageSize: 200 });
  });

  it('adds one with its own meaning, roles and people, after saying what is missing', async () => {
    const server = fdaServer();
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    const user = userEvent.setup();
    open(server);
    await screen.findByTestId('endorsement-row');
    await user.click(screen.getByTestId('endorsement-add'));
    const dialog = await screen.findByTestId('endorsement-dialog');
    await user.click(within(dialog).getByTestId('endorsement-save'));
    expect(await within(dialog).findByText('Give the endorsement a name')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one kind of record')).toBeInTheDocument();

    await user.type(within(dialog).getByTestId('endorsement-name'), 'x'.repeat(51));
    expect(await within(dialog).findByText('At most 50 characters')).toBeInTheDocument();
    await user.clear(within(dialog).getByTestId('endorsement-name'));
    await user.type(within(dialog).getByTestId('endorsement-name'), 'Shipping release');
    await user.type(within(dialog).getByTestId('endorsement-description'), 'Before a lot leaves');
    await user.selectOptions(within(dialog).getByTestId('endorsement-meaning'), OWN_MEANING);
    await user.type(await within(dialog).findByTestId('endorsement-own-meaning'), 'Released for shipping');
    await user.click(within(within(dialog).getByTestId('endorsement-records')).getByLabelText('Alarm handling'));
    await user.click(within(within(dialog).getByTestId('endorsement-records')).getByLabelText('Periodic report'));
    // a built-in role is offered by its id as the organization's own roles are
    const roles = within(dialog).getByTestId('endorsement-roles');
    await user.click(within(roles).getByLabelText('Quality assurance'));
    await user.click(within(roles).getByLabelText('Organization administrator'));
    await user.click(within(within(dialog).getByTestId('endorsement-people')).getByLabelText('bob'));
    await user.click(within(dialog).getByTestId('endorsement-distinct'));
    await user.click(within(dialog).getByTestId('endorsement-save'));

    await waitFor(() => expect(screen.queryByTestId('endorsement-dialog')).toBeNull());
    expect(bodyOf(server.callsTo('POST /device/FdaEndorsement/insert')[0])).toEqual({
      organizationId: 3, name: 'Shipping release', description: 'Before a lot leaves', meaning: 'Released for shipping',
      recordTypes: ['alarm', 'report'], roleIds: [41, 3], accountIds: [8], distinctSigner: true,
    });
    await waitFor(() => expect(screen.getAllByTestId('endorsement-row')).toHaveLength(2));
  });

  it('lets an endorsement cover readings exports', async () => {
    const server = fdaServer();
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    const user = userEvent.setup();
    open(server);
    await user.click(await screen.findByTestId('endorsement-edit'));
    const dialog = await screen.findByTestId('endorsement-dialog');
    const records = within(dialog).getByTestId('endorsement-records');
    expect(within(records).getAllByRole('checkbox').map((box) => box.closest('label')?.textContent)).toEqual([
      'Alarm handling', 'Device parameters', 'Waybill', 'Periodic report', 'FDA mode switch', 'Readings export']);
    await user.click(within(records).getByLabelText('Readings export'));
    await user.click(within(dialog).getByTestId('endorsement-save'));
    await waitFor(() => expect(screen.queryByTestId('endorsement-dialog')).toBeNull());
    expect(bodyOf(server.callsTo('POST /device/FdaEndorsement/update')[0])).toMatchObject({ id: 21, recordTypes: ['report', 'export'] });
    expect(await screen.findByTestId('endorsement-row')).toHaveTextContent('Readings export');
  });

  it("shows the server's refusal in the dialog", async () => {
    const server = fdaServer({
      'POST /device/FdaEndorsement/update': () => new Response(JSON.stringify({ code: 422, msg: 'Invalid input', data: null,
        errors: { name: ['An endorsement of this name exists'] } }), { status: 422, headers: { 'Content-Type': 'application/json' } }),
    });
    const user = userEvent.setup();
    open(server);
    await user.click(await screen.findByTestId('endorsement-edit'));
    const dialog = await screen.findByTestId('endorsement-dialog');
    expect(within(dialog).getByTestId('endorsement-name')).toHaveValue('QA release');
    await user.click(within(dialog).getByTestId('endorsement-save'));
    expect(await within(dialog).findByText('An endorsement of this name exists')).toBeInTheDocument();
    expect(bodyOf(server.callsTo('POST /device/FdaEndorsement/update')[0])).toMatchObject({ id: 21, name: 'QA release', roleIds: [41] });
  });

  it('deletes one once confirmed', async () => {
    const server = fdaServer();
    vi.spyOn(notify, 'success').mockImplementation(() => {});
    const user = userEvent.setup();
    open(server);
    await user.click(await screen.findByTestId('endorsement-delete'));
    expect(await screen.findByTestId('endorsement-delete-confirm')).toHaveTextContent('Delete the endorsement “QA release”?');
    expect(server.callsTo('POST /device/FdaEndorsement/delete')).toEqual([]);
    const alert = screen.getByTestId('endorsement-delete-confirm').closest('.bp6-alert') as HTMLElement;
    await user.click(within(alert).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(bodyOf(server.callsTo('POST /device/FdaEndorsement/delete')[0])).toEqual({ id: 21 }));
    expect(await screen.findByTestId('endorsements-empty')).toBeInTheDocument();
  });

  it("shows another subject's endorsements, and none to change where the caller may not switch it", async () => {
    const server = fdaServer({}, { endorsements: [endorsement(), endorsement({ id: 22, name: 'Own check', organizationId: null })] });
    server.state.subjects[0]!.changeable = false;
    const user = userEvent.setup();
    open(server);
    await screen.findByTestId('endorsement-row');
    await user.selectOptions(screen.getByTestId('fda-subject-select'), 'own');
    await waitFor(() => expect(screen.getByTestId('endorsement-row')).toHaveTextContent('Own check'));
    expect(screen.queryByTestId('endorsement-add')).toBeNull();
    expect(screen.queryByTestId('endorsement-edit')).toBeNull();
  });
});

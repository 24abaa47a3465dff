import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn, type Call } from '@/test/harness';
import type { AccountInfo } from '@/lib/api/accountInfo';
import type { ContractorAgreement } from '../api/accountType';
import { changeLanguage } from '@/lib/i18n';
import { session } from '@/lib/session';
import AccountPage from '../AccountPage';

beforeAll(setUpI18n);
afterEach(async () => {
  session.clear();
  vi.restoreAllMocks();
  if (i18next.language !== 'en-US') await act(() => changeLanguage('en-US'));
});

const PERSONAL = ['home', 'consumer.info', 'device.list'];
const ENTERPRISE = [...PERSONAL, 'organization.list', 'project.list', 'consumer.list'];
const AGREEMENT: ContractorAgreement = {
  version: '2026-01', title: 'Engineer (contractor) agreement',
  clauses: ['You install devices.', 'You keep what you learn confidential.'],
  contractorState: 0, acceptedVersion: null, appliedAt: null,
};

function infoOf(accountType: number, permissionRoutes: string[]): AccountInfo {
  const base = accountInfo({}, { permissionRoutes });
  return { ...base, baseAccount: { ...base.baseAccount, accountType } };
}

/** The server as the customer sees it: `state` changes with the upgrade and the application. */
function server(start: { type?: number; agreement?: Partial<ContractorAgreement> } = {},
  extra: Record<string, (call: Call) => Response> = {}) {
  const state = { type: start.type ?? 1, agreement: { ...AGREEMENT, ...start.agreement } };
  return fakeServer({
    'GET /base/BaseAccount/accountInfo': () =>
      envelope(infoOf(state.type, state.type === 2 ? ENTERPRISE : PERSONAL)),
    'GET /base/BaseAccount/getScenePermissionList': () => envelope(state.type === 2 ? ENTERPRISE : PERSONAL),
    'GET /base/BaseAccount/contractorAgreement': () => envelope(state.agreement),
    'GET /base/BaseDict/queryByType': () => envelope([]),
    'GET /base/BaseMessage/channels': () => envelope([]),
    'PUT /base/BaseAccount/userTypeUpgrade': () => {
      state.type = 2;
      return envelope({ accountType: 2, contractorState: 0 });
    },
    'POST /base/BaseAccount/contractorApply': () => {
      state.type = 3;
      state.agreement = { ...state.agreement, contractorState: 1, acceptedVersion: '2026-01', appliedAt: '2026-11-20T10:00:00+00:00' };
      return envelope({ accountType: 3, contractorState: 1 });
    },
    ...extra,
  });
}

function open(type = 1) {
  signIn(infoOf(type, type === 2 ? ENTERPRISE : PERSONAL), type === 2 ? ENTERPRISE : PERSONAL);
  return renderApp(<AccountPage />, '/consumer/info');
}

const section = () => within(screen.getByTestId('account-type'));

describe('the account type section', () => {
  it('upgrades a personal account after a confirmation that says what changes, and the menu follows at once', async () => {
    const api = server();
    open();
    expect(section().getByTestId('account-type-name')).toHaveTextContent('Personal');
    await userEvent.click(section().getByTestId('account-upgrade'));
    const confirm = await screen.findByTestId('account-upgrade-confirm');
    expect(confirm).toHaveTextContent('Organizations');
    expect(confirm).toHaveTextContent('Projects');
    expect(confirm).toHaveTextContent('Members');
    expect(api.callsTo('PUT /base/BaseAccount/userTypeUpgrade')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Upgrade' }));
    await waitFor(() => expect(section().getByTestId('account-type-name')).toHaveTextContent('Enterprise'));
    expect(api.callsTo('PUT /base/BaseAccount/userTypeUpgrade')[0]!.body).toEqual({});
    expect(session.get().permissions.has('organization.list')).toBe(true);
    expect(session.get().scenePermissions).toContain('project.list');
    expect(section().queryByTestId('account-upgrade')).toBeNull();
    expect(section().queryByTestId('account-contractor')).toBeNull(); // an enterprise account applies no more
  });

  it('keeps the confirmation open with the server\'s reason when it refuses', async () => {
    server({}, {
      'PUT /base/BaseAccount/userTypeUpgrade': () => envelope(null, 1907, 409, 'This account is already an enterprise account'),
    });
    open();
    await userEvent.click(section().getByTestId('account-upgrade'));
    await userEvent.click(await screen.findByRole('button', { name: 'Upgrade' }));
    expect(await screen.findByTestId('account-upgrade-error')).toHaveTextContent('This account is already an enterprise account');
    expect(section().getByTestId('account-type-name')).toHaveTextContent('Personal');
  });

  it('applies as a contractor only once the agreement is ticked, then shows the application awaiting certification', async () => {
    const api = server();
    open();
    await userEvent.click(await section().findByTestId('account-apply'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Engineer (contractor) agreement')).toBeInTheDocument();
    expect(within(dialog).getByTestId('agreement-text')).toHaveTextContent('You keep what you learn confidential.');
    await userEvent.click(within(dialog).getByTestId('agreement-submit'));
    expect(await within(dialog).findByTestId('agreement-required')).toHaveTextContent('tick the box');
    expect(api.callsTo('POST /base/BaseAccount/contractorApply')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('checkbox'));
    await userEvent.click(within(dialog).getByTestId('agreement-submit'));
    await waitFor(() => expect(api.callsTo('POST /base/BaseAccount/contractorApply')).toHaveLength(1));
    expect(api.callsTo('POST /base/BaseAccount/contractorApply')[0]!.body).toEqual({ agreementVersion: '2026-01' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await section().findByTestId('account-contractor-state')).toHaveTextContent('Applied, awaiting certification');
    expect(section().getByTestId('account-type-name')).toHaveTextContent('Engineer (contractor)');
    expect(section().queryByTestId('account-apply')).toBeNull();
  });

  it('shows a certified engineer as certified, and asks again when the agreement has a new version', async () => {
    server({ type: 3, agreement: { contractorState: 2, acceptedVersion: '2025-06', appliedAt: '2026-01-02T00:00:00+00:00' } });
    open(3);
    expect(await section().findByTestId('account-contractor-state')).toHaveTextContent('Certified');
    expect(section().getByTestId('account-new-agreement')).toBeInTheDocument();
    expect(section().queryByTestId('account-upgrade')).toBeNull();
  });

  it('offers nothing to change on a back-office account', () => {
    server({ type: 9 });
    open(9);
    expect(section().getByTestId('account-type-name')).toHaveTextContent('Back office');
    expect(section().queryByTestId('account-upgrade')).toBeNull();
    expect(section().queryByTestId('account-contractor')).toBeNull();
  });

  it('speaks Russian', async () => {
    server();
    await act(() => changeLanguage('ru-RU'));
    open();
    expect(section().getByTestId('account-type-name')).toHaveTextContent('Личная');
    expect(section().getByTestId('account-upgrade')).toHaveTextContent('Перейти на корпоративную');
  });
});

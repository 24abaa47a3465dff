/**
 * The operation log names each call, object type and column with the server's labels in the
 * reader's language (GET /base/OperationLog/labels, the words its XLSX export writes too), asked
 * once per language; a code shows as it is while they load and when it has none.
 * (tests/unit/test_operation_log.py demands a label for every call, table and column the server records.)
 */
import { screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OperationTable } from './OperationTable';
import { envelope, fakeServer, renderApp, setUpI18n } from '@/test/harness';
import type { Operation, OperationLabels } from '@/lib/api/operationLog';

const LABELS_CALL = 'GET /base/OperationLog/labels';
/** What the server answers in each language (a part of it). */
const LABELS: Record<string, OperationLabels> = {
  'en-US': {
    action: { 'BaseRole.update': 'Edit role', 'Device.transfer': 'Transfer devices' },
    object: { role: 'Role', asset: 'Asset' },
    field: { description: 'Description', enabled: 'Enabled' },
  },
  'ru-RU': {
    action: { 'BaseRole.update': 'Изменение роли', 'Device.transfer': 'Передача устройств' },
    object: { role: 'Роль', asset: 'Актив' },
    field: { description: 'Описание', enabled: 'Включено' },
  },
};

const entry = (id: number, action: string, changes: Operation['changes'] = []): Operation => ({
  id, at: '2026-11-27T01:00:00Z', accountId: 1, userName: 'alice', clientAddress: '127.0.0.1', action, method: 'POST',
  outcome: 'succeeded', status: 200, changes,
});
const CHANGED = entry(1, 'BaseRole.update', [
  { objectType: 'role', objectId: '10', objectLabel: 'Loader', kind: 'update', fields: { description: [null, 'Night shift'] }, deviceId: null },
  { objectType: 'asset', objectId: '2', objectLabel: 'Van', kind: 'update', fields: { enabled: [true, false], brand_new: [null, 'x'] }, deviceId: null },
]);

const actionsShown = () => screen.getAllByTestId('oplog-row').map((row) => row.querySelectorAll('td')[3]!.textContent);
const wordsShown = () => [...document.querySelectorAll('.jc-oplog-object, .jc-oplog-field')].map((node) => node.textContent);

beforeAll(setUpI18n);
afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en-US');
});

describe('OperationTable', () => {
  for (const language of ['en-US', 'ru-RU']) {
    it(`names calls, objects and fields with the server's labels (${language})`, async () => {
      await i18n.changeLanguage(language);
      // the request carries the console's language; the answer is in it
      fakeServer({ [LABELS_CALL]: () => envelope(LABELS[i18n.language]) });
      renderApp(<OperationTable operations={[CHANGED, entry(2, 'Device.transfer')]} />);
      const words = LABELS[language]!;
      await waitFor(() => expect(actionsShown()).toEqual([words.action['BaseRole.update'], words.action['Device.transfer']]));
      expect(wordsShown()).toEqual([
        `${words.object.role} “Loader”`, words.field.description, `${words.object.asset} “Van”`, words.field.enabled,
        'brand_new', // a column without a label shows under its name
      ]);
    });
  }

  it('shows the codes while the labels load, and asks for them once', async () => {
    let answer: (response: Response) => void = () => {};
    const server = fakeServer({ [LABELS_CALL]: () => new Promise<Response>((resolve) => { answer = resolve; }) });
    const { queryClient } = renderApp(<OperationTable operations={[CHANGED]} />);
    expect(actionsShown()).toEqual(['BaseRole.update']);
    expect(wordsShown()).toEqual(['role “Loader”', 'description', 'asset “Van”', 'enabled', 'brand_new']);
    answer(envelope(LABELS['en-US']));
    await waitFor(() => expect(actionsShown()).toEqual(['Edit role']));
    expect(server.callsTo(LABELS_CALL)).toHaveLength(1);
    expect(queryClient.getQueryData(['operationLabels', 'en-US'])).toEqual(LABELS['en-US']);
  });

  it('fetches the labels again in the language the reader switches to', async () => {
    const server = fakeServer({ [LABELS_CALL]: () => envelope(LABELS[i18n.language]) });
    renderApp(<OperationTable operations={[CHANGED]} />);
    await waitFor(() => expect(actionsShown()).toEqual(['Edit role']));
    await i18n.changeLanguage('ru-RU');
    await waitFor(() => expect(actionsShown()).toEqual(['Изменение роли']));
    expect(server.callsTo(LABELS_CALL)).toHaveLength(2);
  });
});

/**
 * The operation log names each call in the reader's language: sharing, transferring and custom
 * roles were shown as their raw call names ("Device.transfer") until they had labels, and so were
 * assets, ownership moves and the back office's calls, with roles' and assets' tables and columns.
 * (tests/unit/test_operation_log.py demands a label for every call, table and column the server records.)
 */
import { render, screen } from '@testing-library/react';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { OperationTable } from './OperationTable';
import { setUpI18n } from '@/test/harness';
import type { Operation } from '@/lib/api/operationLog';

const entry = (id: number, action: string): Operation => ({
  id, at: '2026-11-27T01:00:00Z', accountId: 1, userName: 'alice', clientAddress: '127.0.0.1', action, method: 'POST',
  outcome: 'succeeded', status: 200, changes: [],
});
const ACTIONS = ['Device.share', 'DeviceShare.update', 'DeviceShare.revoke', 'Device.transfer', 'DevicePermissionModel.insert',
  'DevicePermissionModel.update', 'DevicePermissionModel.delete', 'BaseRole.insert', 'BaseRole.update', 'BaseRole.delete',
  'Asset.disable', 'Device.changeOrganization', 'BaseAccount.sysModifyUser', 'PayServiceLevel.update', 'activity.PayCoupon.createCoupon'];

beforeAll(setUpI18n);

describe('OperationTable', () => {
  for (const language of ['en-US', 'ru-RU']) {
    it(`names sharing, transfer and role calls in words (${language})`, async () => {
      await i18n.changeLanguage(language);
      render(<OperationTable operations={ACTIONS.map((action, index) => entry(index + 1, action))} />);
      const shown = screen.getAllByTestId('oplog-row').map((row) => row.querySelectorAll('td')[3]!.textContent);
      expect(shown).toHaveLength(ACTIONS.length);
      for (const [index, text] of shown.entries()) expect(text, ACTIONS[index]).not.toBe(ACTIONS[index]);
      if (language === 'en-US') expect(shown).toContain('Transfer devices');
      await i18n.changeLanguage('en-US');
    });

    it(`names a role's and an asset's objects and fields in words (${language})`, async () => {
      await i18n.changeLanguage(language);
      const changed: Operation = {
        ...entry(1, 'BaseRole.update'),
        changes: [
          { objectType: 'role', objectId: '10', objectLabel: 'Loader', kind: 'update', fields: { description: [null, 'Night shift'], built_in: [false, false] }, deviceId: null },
          { objectType: 'rolePermission', objectId: '10/device.list', objectLabel: null, kind: 'insert', fields: { role_id: [null, 10] }, deviceId: null },
          { objectType: 'asset', objectId: '2', objectLabel: 'Van', kind: 'update', fields: { enabled: [true, false], asset_type: [null, 'Truck'] }, deviceId: null },
        ],
      };
      render(<OperationTable operations={[changed]} />);
      const row = screen.getByTestId('oplog-row');
      const shown = [...row.querySelectorAll('.jc-oplog-field, .jc-oplog-object')].map((node) => node.textContent ?? '');
      expect(shown).toHaveLength(8);
      const raw = ['role', 'rolePermission', 'asset', 'description', 'built_in', 'role_id', 'enabled', 'asset_type'];
      for (const text of shown) expect(raw.some((code) => text === code || text.startsWith(`${code} `)), text).toBe(false);
      if (language === 'en-US') expect(shown).toContain('Role “Loader”');
      await i18n.changeLanguage('en-US');
    });
  }
});

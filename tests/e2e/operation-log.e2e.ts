/**
 * The operation log in a real browser against `coldchain serve` with demo data: alice renames her
 * Dock cold room from its detail, finds the entry (old name -> new name) on /operation/log and in
 * the device's log tab, and the name goes back; in English and Russian, on a desktop and a 375 px
 * phone. acme changes a custom role and disables an asset: both entries name the call, the object
 * and its fields in the reader's language (the server's labels, GET /base/OperationLog/labels).
 * Screenshots go to var/screenshots/ (operation-log-*).
 */
import { describe, expect, inject, it } from 'vitest';
import { asUser, browserSession, logInPastNotice, operationLabels, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const DOCK = 'Dock cold room';

describe('the operation log', () => {
  for (const language of ['en-US', 'ru-RU'] as const) {
    for (const width of [1280, 375]) {
      it(`shows a rename with the old and new name, on the log page and in the device's tab (${language}, ${width} px)`, async () => {
        const { page } = session;
        const strings = readLocale('operationLog/locales', language);
        const labels = await operationLabels(baseURL, 'alice', language);
        const renamed = `Dock ${language} ${width}`;
        await page.setViewportSize({ width, height: 900 });
        await logInPastNotice(page, baseURL, 'alice', language);
        const token = await page.evaluate(() => JSON.parse(localStorage.getItem('jc__token') ?? '{}').value as string);
        const found = await fetch(`${baseURL}/api/device/Device/page`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify({ deviceName: DOCK, pageSize: 10 }),
        });
        const id: number = ((await found.json()) as { data: { data: { deviceId: number }[] } }).data.data[0]!.deviceId;
        await page.goto(`${baseURL}/device/detail/${id}`);
        await page.getByTestId('device-detail-page').waitFor();
        try {
          await page.getByTestId('device-tab-info').click();
          await page.getByTestId('device-edit').click();
          const form = page.getByTestId('device-edit-form');
          await form.locator('#deviceName').fill(renamed);
          await form.getByTestId('device-edit-save').click();
          await form.waitFor({ state: 'detached' });

          await page.goto(`${baseURL}/operation/log`);
          await page.getByTestId('operation-log-page').waitFor();
          const entry = page.getByTestId('oplog-row').filter({ hasText: renamed }).first();
          await entry.waitFor();
          await expect(entry.getAttribute('data-action')).resolves.toBe('Device.update');
          const text = await entry.textContent();
          expect(text).toContain(DOCK);
          expect(text).toContain(labels.action['Device.update']);
          expect(text).toContain(strings.outcome.succeeded);
          await shot(page, `operation-log-page-${language}-${width}`);
          await page.getByTestId('oplog-user').fill('nobody-at-all');
          await page.getByTestId('oplog-search').click();
          await page.getByTestId('oplog-empty').waitFor();
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow).toBeLessThanOrEqual(0);

          await page.goto(`${baseURL}/device/detail/${id}`);
          await page.getByTestId('device-tab-log').click();
          await page.locator('.jc-tab-log-switch').getByText(strings.tab.changes).click();
          const tabEntry = page.getByTestId('device-changes').getByTestId('oplog-row').filter({ hasText: renamed }).first();
          await tabEntry.waitFor();
          await shot(page, `operation-log-device-tab-${language}-${width}`);
        } finally {
          // leave the demo as it was for the other suites (the log keeps both renames, as it should)
          await fetch(`${baseURL}/api/device/Device/update`, {
            method: 'PUT',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
            body: JSON.stringify({ deviceId: id, deviceName: DOCK }),
          });
        }
      });
    }
  }

  for (const language of ['en-US', 'ru-RU'] as const) {
    it(`names a custom role change and an asset disabled in words (${language})`, async () => {
      const { page } = session;
      const labels = await operationLabels(baseURL, 'acme', language);
      const suffix = `${language}-${Date.now() % 100000}`;
      const made = await asUser(baseURL, 'acme', language, async (headers) => {
        const call = async (method: string, path: string, body?: unknown) => {
          const reply = await fetch(`${baseURL}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
          const json = (await reply.json()) as { code: number; data: never };
          expect(json.code, `${method} ${path}`).toBe(0);
          return json.data;
        };
        const organizations: { organizationId: number; creator: boolean }[] = await call('GET', '/base/BaseOrganization/list');
        const organizationId = organizations.find((o) => o.creator)!.organizationId;
        const role: { roleId: number } = await call('POST', '/base/BaseRole/insert', { organizationId, roleName: `Log ${suffix}`, permissions: [] });
        await call('PUT', '/base/BaseRole/update', { roleId: role.roleId, roleName: `Loader ${suffix}`, description: 'Night shift', permissions: [] });
        const asset: { id: number } = await call('POST', '/device/Asset/insert', { assetName: `Van ${suffix}`, brand: 'Thermo' });
        await call('PUT', '/device/Asset/disable', { id: asset.id });
        return { roleId: role.roleId, assetId: asset.id };
      });
      try {
        await page.setViewportSize({ width: 1280, height: 900 });
        await logInPastNotice(page, baseURL, 'acme', language);
        await page.goto(`${baseURL}/operation/log`);
        await page.getByTestId('operation-log-page').waitFor();
        const roleEntry = page.locator('[data-testid="oplog-row"][data-action="BaseRole.update"]').filter({ hasText: `Loader ${suffix}` });
        const assetEntry = page.locator('[data-testid="oplog-row"][data-action="Asset.disable"]').filter({ hasText: `Van ${suffix}` });
        await roleEntry.first().waitFor();
        await assetEntry.first().waitFor();
        const roleText = (await roleEntry.first().textContent())!;
        expect(roleText).toContain(labels.action['BaseRole.update']);
        expect(roleText).toContain(`${labels.object.role} “Loader ${suffix}”`);
        expect(roleText).toContain(`${labels.field.description}: — → Night shift`);
        const assetText = (await assetEntry.first().textContent())!;
        expect(assetText).toContain(labels.action['Asset.disable']);
        expect(assetText).toContain(`${labels.object.asset} “Van ${suffix}”`);
        expect(assetText).toContain(`${labels.field.enabled}: true → false`);
        for (const text of [roleText, assetText]) expect(text).not.toMatch(/BaseRole\.|Asset\.|role_id|built_in|\broles\b|\bassets\b/);
        await shot(page, `operation-log-role-asset-${language}`);
      } finally {
        await asUser(baseURL, 'acme', language, async (headers) => {
          await fetch(`${baseURL}/api/base/BaseRole/delete?roleId=${made.roleId}`, { method: 'DELETE', headers });
          await fetch(`${baseURL}/api/device/Asset/delete?id=${made.assetId}`, { method: 'DELETE', headers });
        });
      }
    });
  }
});

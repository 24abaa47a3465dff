/**
 * Issue 17's "done when", walked as a new user would against `coldchain serve` with demo data:
 *
 * 1. A new account (made by the operator, as user-admin.e2e.ts does) is invited by acme into Acme
 *    Cold Chain by phone, approves in the message centre and finds Acme's devices in its list; acme
 *    gives it a role without device access (made in the role editor) and the devices are gone at
 *    the next page load; a member again, then removed: gone again. The role is deleted afterwards.
 * 2. alice shares her vaccine fridge logger with bob under the built-in "View only" template; bob
 *    reads its chart, is offered no change, and the server refuses his writes; alice revokes it.
 * 3. alice transfers her Truck 12 tracker to the new account (the dialog says what goes); the new
 *    owner reads its week of history on the chart and alice no longer has it; the new owner gives
 *    it back the same way, so the suites after this one find it as the demo made it.
 * 4. acme's and alice's operation logs show each of those actions.
 *
 * In English at 1280 px and in Russian on a 375 px phone. Screenshots go to var/screenshots/ (teams-walk-*).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import {
  asUser, browserSession, logInPastNotice, offeredChanges, operationLabels, preferLanguage, readLocale, shot, submitLogin,
  withProfileFilledIn,
} from './browser';

/** A whole walk through the console: minutes, not the suite's two (a loaded machine takes its time). */
const WALK_TIMEOUT = 360_000;

const baseURL = inject('baseURL');
const session = browserSession();
const ORG = 'Acme Cold Chain';
const ACME_DEVICES = ['Warehouse 1 cold room', 'Warehouse 1 door logger'];
const SHARED = 'Vaccine fridge logger';
const MOVED = 'Truck 12 tracker';
const PASSWORD = 'Frost!Line42';
/** For polls that load the three tabs of the device list. */
const LONG = { timeout: 60_000, interval: 500 };  // each try loads three pages; a loaded CI machine is slow
const VIEW_ONLY: Record<string, string> = { 'en-US': 'View only', 'ru-RU': 'Только просмотр' };

type Headers = Record<string, string>;

async function call<T>(headers: Headers, path: string, init: RequestInit = {}): Promise<{ code: number; data: T }> {
  const reply = await fetch(`${baseURL}/api${path}`, { ...init, headers });
  return (await reply.json()) as { code: number; data: T };
}

/** Through the API: the newcomer out of Acme, then the walk's role gone (a role a member holds stays). */
async function leaveAcme(newcomer: string, roleName: string): Promise<void> {
  await asUser(baseURL, 'acme', 'en-US', async (headers) => {
    const mine = await call<{ organizationId: number; organizationName: string }[]>(headers, '/base/BaseOrganization/list');
    const organizationId = mine.data.find((o) => o.organizationName === ORG)!.organizationId;
    const members = await call<{ members: { accountId: number; userName: string }[] }>(
      headers, `/base/BaseOrganization/members?organizationId=${organizationId}`);
    const member = members.data.members.find((m) => m.userName === newcomer);
    if (member) {
      await call(headers, `/base/BaseAccount/deleteInOrganization?organizationId=${organizationId}&accountId=${member.accountId}`,
        { method: 'DELETE' });
    }
    const roles = await call<{ roleId: number | null; roleName: string }[]>(
      headers, `/base/BaseRole/queryRoleByOrganizationType?organizationType=2&organizationId=${organizationId}`);
    const role = roles.data.find((r) => r.roleName === roleName);
    if (role?.roleId) await call(headers, `/base/BaseRole/delete?roleId=${role.roleId}`, { method: 'DELETE' });
  });
}

async function deviceId(headers: Headers, name: string): Promise<number> {
  const found = await call<{ data: { deviceId: number; deviceName: string }[] }>(headers, '/device/Device/page', {
    method: 'POST', body: JSON.stringify({ deviceName: name, pageSize: 10 }) });
  return found.data.data.find((d) => d.deviceName === name)!.deviceId;
}

/** The tracker back to alice by the API when a failed walk left it with the newcomer (no-op otherwise). */
async function giveBack(newcomer: string) {
  const reply = await fetch(`${baseURL}/api/base/BaseAccount/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ userName: newcomer, accountPassword: PASSWORD, loginType: 1 }) });
  const token = ((await reply.json()) as { data?: { token: string } }).data?.token;
  if (!token) return;
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const found = await call<{ data: { deviceId: number; deviceName: string }[] }>(headers, '/device/Device/page', {
    method: 'POST', body: JSON.stringify({ deviceName: MOVED, pageSize: 10 }) });
  const ids = (found.data?.data ?? []).filter((d) => d.deviceName === MOVED).map((d) => d.deviceId);
  if (ids.length) await call(headers, '/device/Device/transfer', { method: 'POST', body: JSON.stringify({ deviceIds: ids, account: 'alice' }) });
}

async function noSideways(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The device names of the list's three tabs (loggers, cold storage, freezers), each loaded anew. */
async function listedDevices(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (const path of ['/device/list', '/device/list/storage', '/device/list/freezer']) {
    await page.goto(`${baseURL}${path}`);
    // a list, an empty one, or the page refused (a role without the device pages): each is an answer;
    // a page still loading is asked again by the caller's poll rather than waited for to its end
    await page.locator('[data-testid="device-row"], .jc-devices-empty, [data-testid="error-403"]').first()
      .waitFor({ timeout: 10_000 });
    names.push(...await page.getByTestId('device-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-device-name') ?? '')));
  }
  return names.sort();
}

/** A fresh account's first login: its identity and industry asked once, the notice closed for good. */
async function firstLogin(page: Page, userName: string, language: string) {
  await preferLanguage(page, language);
  await submitLogin(page, baseURL, userName, PASSWORD);
  const identity = page.getByTestId('identity-dialog');
  const notice = page.getByTestId('notice-dialog');
  for (let round = 0; round < 2; round++) {
    await Promise.race([identity.waitFor({ timeout: 10_000 }), notice.waitFor({ timeout: 10_000 })]).catch(() => undefined);
    if (await identity.count()) {
      for (const select of await identity.locator('select').all()) {
        await expect.poll(() => select.locator('option').count()).toBeGreaterThan(1);
        await select.selectOption({ index: 1 });
      }
      await identity.locator('button[type=submit]').click();
      await identity.waitFor({ state: 'detached' });
    }
    if (await notice.count()) {
      await notice.getByRole('checkbox').check();
      await notice.getByRole('button').last().click();
      await notice.waitFor({ state: 'detached' });
    }
  }
}

async function newContext(browser: Browser, width: number, language: string): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width, height: 900 }, locale: language,
    ...(width > 600 ? {} : { isMobile: true, hasTouch: true }) });
}

describe('teams walk (issue 17)', () => {
  for (const [language, width] of [['en-US', 1280], ['ru-RU', 375]] as const) {
    const size = `${language}-${width}`;
    it(`invites, re-roles and removes a member; shares view-only; transfers with history; all in the log (${size})`, async () => {
      const { page } = session;
      const org = readLocale('organizations/locales', language);
      const roleStrings = readLocale('organizations/rolesLocales', language);
      const sharing = readLocale('sharing/locales', language);
      const system = readLocale('messages/systemLocales', language);
      const log = await operationLabels(baseURL, 'acme', language);
      const stamp = Date.now() % 100000;
      const newcomer = `walk_${language.slice(0, 2)}_${stamp}`;
      const phone = `139${String(Date.now()).slice(-8)}`;
      const roleName = `NoDev ${language.slice(0, 2)} ${stamp}`.slice(0, 20);
      await asUser(baseURL, 'operator', language, async (headers) => {
        const made = await call(headers, '/base/BaseAccount/sysAddUser', { method: 'POST', body: JSON.stringify({
          userName: newcomer, accountPassword: PASSWORD, roleCode: 'customer_personal', accountType: 1,
          realName: 'Walker', phone, company: 'Frost Logistics' }) });
        expect(made.code, JSON.stringify(made)).toBe(0);
      });

      // --- 1. acme invites the newcomer by phone -------------------------------------------------------
      await page.setViewportSize({ width, height: 900 });
      await logInPastNotice(page, baseURL, 'acme', language);
      await page.goto(`${baseURL}/organization/list`);
      await page.getByTestId('org-item').filter({ hasText: ORG }).click();
      await expect.poll(() => page.getByTestId('org-title').textContent()).toBe(ORG);
      await page.getByTestId('org-invite').click();
      await page.getByTestId('invite-uep').fill(phone);
      await page.getByTestId('invite-role').selectOption('org_member');
      await page.getByTestId('invite-send').click();
      await page.getByTestId('invite-sent').waitFor();
      await shot(page, `teams-walk-invite-${size}`);
      await page.getByTestId('invite-close').click();
      await page.getByTestId('invitation-row').filter({ hasText: `${newcomer[0]}*` }).first().waitFor();

      const browser = session.context.browser()!;
      const theirs = await newContext(browser, width, language);
      try {
        const member = await theirs.newPage();
        await firstLogin(member, newcomer, language);
        expect(await listedDevices(member)).toEqual([]);
        await member.goto(`${baseURL}/message/list`);
        await member.getByTestId('system-tab').click();
        const invitation = member.locator('[data-testid="system-message"][data-kind="invitation"]').filter({ hasText: ORG });
        await invitation.waitFor();
        await shot(member, `teams-walk-invitation-${size}`);
        await invitation.getByTestId('approve').click();
        await expect(invitation.getByTestId('decision').textContent()).resolves.toBe(system.system.decision.approved);
        // a member sees the organization's devices
        await expect.poll(() => listedDevices(member), LONG).toEqual(ACME_DEVICES);
        await member.goto(`${baseURL}/device/list/storage`);
        await member.getByTestId('device-row').first().waitFor();
        await shot(member, `teams-walk-member-devices-${size}`);
        await noSideways(member);

        // --- acme makes a role without device access and gives it to the newcomer -----------------
        await page.goto(`${baseURL}/consumer/role`);
        await page.getByTestId('roles-page').waitFor();
        await page.getByTestId('role-add').click();
        await page.getByTestId('role-name').fill(roleName);
        await page.getByTestId('role-description').fill(roleStrings.roles.permission.consumer_list);
        await page.locator('[data-testid="perm-route"][data-route="consumer.list"]').locator('xpath=..').click();
        await page.getByTestId('role-save').click();
        const roleRow = page.locator(`[data-testid="role-row"][data-name="${roleName}"]`);
        await roleRow.waitFor();
        try {
          await page.goto(`${baseURL}/organization/list`);
          await page.getByTestId('org-item').filter({ hasText: ORG }).click();
          const row = page.locator(`[data-testid="member-row"][data-user="${newcomer}"]`);
          await row.waitFor();
          await row.getByTestId('member-role').selectOption({ label: roleName });
          await expect.poll(() => listedDevices(member), LONG).toEqual([]);
          await shot(member, `teams-walk-role-without-devices-${size}`);

          // a member again: the devices are back; removed: gone, without logging out
          await row.getByTestId('member-role').selectOption('org_member');
          await expect.poll(() => listedDevices(member), LONG).toEqual(ACME_DEVICES);
          await shot(page, `teams-walk-members-${size}`);
          await noSideways(page);
          await row.getByTestId('member-remove').click();
          await expect(page.getByTestId('org-confirm').textContent()).resolves.toContain(newcomer);
          await page.locator('.bp6-alert').getByRole('button', { name: org.remove }).click();
          await row.waitFor({ state: 'detached' });
          await expect.poll(() => listedDevices(member), LONG).toEqual([]);
        } catch (failure) {
          await leaveAcme(newcomer, roleName); // what a failed step left, so later files see Acme as it was
          throw failure;
        }
        await page.goto(`${baseURL}/consumer/role`);
        await roleRow.getByTestId('role-delete').click();
        await page.locator('.bp6-alert').getByRole('button', { name: roleStrings.roles.delete }).click();
        await roleRow.waitFor({ state: 'detached' });

        // --- acme's operation log: invitation, its approval, the role changes and the removal ------
        await page.goto(`${baseURL}/operation/log`);
        await page.getByTestId('operation-log-page').waitFor();
        for (const action of ['BaseAccount.invite', 'BaseRole.updateRoleInOrganization', 'BaseAccount.deleteInOrganization']) {
          const entry = page.locator(`[data-testid="oplog-row"][data-action="${action}"]`).first();
          await entry.waitFor();
          expect(await entry.textContent()).toContain(log.action[action]);
        }
        await shot(page, `teams-walk-acme-log-${size}`);
        await noSideways(page);

        // --- 2. alice shares her fridge logger with bob, view-only -------------------------------
        const alice = await (await newContext(browser, width, language)).newPage();
        try {
          await logInPastNotice(alice, baseURL, 'alice', language);
          await alice.goto(`${baseURL}/device/list`);
          const fridge = alice.locator(`[data-testid="device-row"][data-device-name="${SHARED}"]`);
          await fridge.getByTestId('device-select').dispatchEvent('click');
          await alice.getByTestId('device-share-selected').click();
          const dialog = alice.getByTestId('share-dialog');
          await dialog.getByTestId('share-account').fill('bob');
          await expect.poll(() => dialog.getByTestId('share-template').locator('option').count()).toBeGreaterThan(0);
          // the built-in view-only template, in the user's language
          await dialog.getByTestId('share-template').selectOption({ label: VIEW_ONLY[language] });
          await shot(alice, `teams-walk-share-${size}`);
          await dialog.getByTestId('share-confirm').click();
          await dialog.waitFor({ state: 'detached' });

          const bobContext = await newContext(browser, width, language);
          try {
            const bob = await bobContext.newPage();
            await withProfileFilledIn(bob);
            await logInPastNotice(bob, baseURL, 'bob', language);
            await bob.goto(`${baseURL}/device/list`);
            const shared = bob.locator(`[data-testid="device-row"][data-device-name="${SHARED}"]`);
            await expect(shared.getByTestId('shared-by').textContent()).resolves.toContain('alice');
            await shared.getByTestId('device-link').click();
            await bob.getByTestId('device-detail-page').waitFor();
            await bob.getByTestId('device-tab-chart').click();
            await bob.locator('.jc-history-chart canvas').first().waitFor();
            await shot(bob, `teams-walk-bob-chart-${size}`);
            await bob.getByTestId('device-tab-info').click();
            await bob.getByTestId('device-info').waitFor();
            expect(await offeredChanges(bob)).toEqual([]);
            // the server refuses his writes, whatever the console offers
            await asUser(baseURL, 'bob', language, async (headers) => {
              const id = await deviceId(headers, SHARED);
              const renamed = await call(headers, '/device/Device/update', { method: 'PUT', body: JSON.stringify({ deviceId: id, deviceName: 'Mine now' }) });
              expect(renamed.code).not.toBe(0);
              const cleared = await call(headers, '/device/Device/clearData', { method: 'POST', body: JSON.stringify({ deviceIds: [id] }) });
              expect(cleared.code).not.toBe(0);
              const moved = await call(headers, '/device/Device/transfer', { method: 'POST', body: JSON.stringify({ deviceIds: [id], account: 'bob' }) });
              expect(moved.code).not.toBe(0);
            });
            await asUser(baseURL, 'alice', language, async (headers) => {
              const id = await deviceId(headers, SHARED);
              expect(id).toBeGreaterThan(0); // still hers, under its own name
            });
          } finally {
            await bobContext.close();
          }
          // alice revokes it
          await alice.goto(`${baseURL}/consumer/sharer`);
          const mine = alice.getByTestId('share-row').filter({ hasText: SHARED }).filter({ hasText: 'bob' });
          await mine.getByTestId('share-revoke').click();
          await alice.getByRole('alertdialog').getByRole('button', { name: sharing.revoke.confirm_one.replace('{{count}}', '1') }).click();
          await mine.waitFor({ state: 'detached' });

          // --- 3. alice transfers her truck tracker to the newcomer --------------------------------
          await alice.goto(`${baseURL}/device/list`);
          const truck = alice.locator(`[data-testid="device-row"][data-device-name="${MOVED}"]`);
          await truck.getByTestId('device-select').dispatchEvent('click');
          await alice.getByTestId('device-transfer-selected').click();
          const transfer = alice.getByTestId('transfer-dialog');
          await transfer.getByTestId('transfer-account').fill(newcomer);
          await transfer.getByTestId('transfer-preview').waitFor();
          await transfer.getByTestId('transfer-understand').dispatchEvent('click');
          await shot(alice, `teams-walk-transfer-${size}`);
          await transfer.getByTestId('transfer-confirm').click();
          await transfer.waitFor({ state: 'detached' });
          await expect.poll(async () => (await listedDevices(alice)).includes(MOVED), LONG).toBe(false);

          // the new owner reads its history
          await expect.poll(() => listedDevices(member), LONG).toEqual([MOVED]);
          await member.goto(`${baseURL}/device/list`);
          await member.locator(`[data-testid="device-row"][data-device-name="${MOVED}"]`).getByTestId('device-link').click();
          await member.getByTestId('device-detail-page').waitFor();
          await member.getByTestId('device-tab-chart').click();
          await member.locator('.jc-history-chart canvas').first().waitFor();
          expect(await member.getByTestId('history-empty').count()).toBe(0);
          await shot(member, `teams-walk-new-owner-chart-${size}`);

          // --- alice's operation log: the share, its revocation and the transfer ---------------------
          await alice.goto(`${baseURL}/operation/log`);
          await alice.getByTestId('operation-log-page').waitFor();
          for (const action of ['Device.share', 'DeviceShare.revoke', 'Device.transfer']) {
            const entry = alice.locator(`[data-testid="oplog-row"][data-action="${action}"]`).first();
            await entry.waitFor();
            expect(await entry.textContent()).toContain(log.action[action]);
          }
          await shot(alice, `teams-walk-alice-log-${size}`);
          await noSideways(alice);

          // the newcomer gives the tracker back the same way
          await member.goto(`${baseURL}/device/list`);
          await member.locator(`[data-testid="device-row"][data-device-name="${MOVED}"]`).getByTestId('device-select').dispatchEvent('click');
          await member.getByTestId('device-transfer-selected').click();
          const back = member.getByTestId('transfer-dialog');
          await back.getByTestId('transfer-account').fill('alice');
          await back.getByTestId('transfer-preview').waitFor();
          await back.getByTestId('transfer-understand').dispatchEvent('click');
          await back.getByTestId('transfer-confirm').click();
          await back.waitFor({ state: 'detached' });
          await expect.poll(async () => (await listedDevices(alice)).includes(MOVED), LONG).toBe(true);
        } finally {
          await alice.context().close();
        }
      } finally {
        await theirs.close();
        await giveBack(newcomer);
      }
    }, WALK_TIMEOUT);
  }
});

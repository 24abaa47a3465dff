/**
 * Custom roles in a real browser against `coldchain serve` with demo data: acme opens /consumer/role,
 * makes a role with the permission tree (a whole route, and one action of another, which shows as
 * partly checked), gives it to bob on the organization's page, then gives bob his member's role
 * back and deletes the role, so the suites that follow see bob as the demo made him.
 * In English and in Russian; screenshots of desktop and phone go to var/screenshots/.
 */
import { describe, expect, inject, it } from 'vitest';
import { asUser, browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();

async function bobsPermissions(language: string): Promise<string[]> {
  return asUser(baseURL, 'bob', language, async (headers) => {
    const reply = await fetch(`${baseURL}/api/base/BaseAccount/accountInfo`, { headers });
    return ((await reply.json()) as { data: { permissionRoutes: string[] } }).data.permissionRoutes;
  });
}

describe('custom roles', () => {
  for (const language of ['en-US', 'ru-RU'] as const) {
    it(`makes a role with the permission tree and gives it to a member (${language})`, async () => {
      const strings = readLocale('organizations/rolesLocales', language);
      const name = language === 'en-US' ? 'Dispatcher' : 'Диспетчер';
      const { page } = session;
      await page.setViewportSize({ width: 1280, height: 900 });
      await logInPastNotice(page, baseURL, 'acme', language);
      await page.goto(`${baseURL}/consumer/role`);
      await page.getByTestId('roles-page').waitFor();
      await expect.poll(() => page.getByTestId('role-built-in').count()).toBe(3);

      await page.getByTestId('role-add').click();
      // the server's rules, as the user types: 21 characters are refused before sending
      await page.getByTestId('role-name').fill('x'.repeat(21));
      await page.getByTestId('role-save').click();
      await page.getByText(strings.roles.error.nameLength.replace('{{max}}', '20')).waitFor();
      await page.getByTestId('role-name').fill(name);
      await page.getByTestId('role-description').fill(strings.roles.permission.consumer_list);
      const route = (r: string) => page.locator(`[data-testid="perm-route"][data-route="${r}"]`);
      const box = (r: string) => route(r).locator('xpath=..');  // the label Blueprint draws the box in
      await box('consumer.list').click();
      await expect(route('consumer.list').getAttribute('data-state')).resolves.toBe('checked');
      // open Devices and grant only searching them: the route box shows it partly checked
      await page.locator('.jc-role-tree .bp6-tree-node').filter({ has: route('device.list') })
        .locator('.bp6-tree-node-caret').first().click();
      await page.locator('[data-testid="perm-action"][data-name="device.list:query"]').locator('xpath=..').click();
      await expect(route('device.list').getAttribute('data-state')).resolves.toBe('partial');
      await shot(page, `roles-editor-${language}-desktop`);
      await page.getByTestId('role-save').click();
      const row = page.locator(`[data-testid="role-row"][data-name="${name}"]`);
      await row.waitFor();
      await expect(row.textContent()).resolves.toContain(strings.roles.permission.consumer_list);
      await shot(page, `roles-list-${language}-desktop`);

      await page.goto(`${baseURL}/organization/list`);
      const bob = page.locator('[data-testid="member-row"][data-user="bob"]');
      await bob.waitFor();
      await bob.getByTestId('member-role').selectOption({ label: name });
      await expect.poll(async () => (await bobsPermissions(language)).includes('consumer.list')).toBe(true);
      expect(await bobsPermissions(language)).toContain('device.list:query');
      await shot(page, `roles-member-${language}-desktop`);

      const phone = await session.context.browser()!.newContext({ viewport: { width: 390, height: 844 }, locale: language,
        isMobile: true, hasTouch: true });
      try {
        const small = await phone.newPage();
        await logInPastNotice(small, baseURL, 'acme', language);
        await small.goto(`${baseURL}/consumer/role`);
        await small.locator(`[data-testid="role-row"][data-name="${name}"]`).waitFor();
        await shot(small, `roles-list-${language}-phone`);
        await small.locator(`[data-testid="role-row"][data-name="${name}"]`).getByTestId('role-edit').click();
        await small.getByTestId('perm-tree').waitFor();
        await shot(small, `roles-editor-${language}-phone`);
        const overflow = await small.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      } finally {
        await phone.close();
      }

      // back to a member: bob loses the role's permissions, and the role can go
      await bob.getByTestId('member-role').selectOption('org_member');
      await expect.poll(async () => (await bobsPermissions(language)).includes('consumer.list')).toBe(false);
      await page.goto(`${baseURL}/consumer/role`);
      await row.getByTestId('role-delete').click();
      await page.locator('.bp6-alert').getByRole('button', { name: strings.roles.delete }).click();
      await row.waitFor({ state: 'detached' });
    });
  }
});

/**
 * Projects in a real browser against `coldchain serve` with demo data: acme finds Projects in its
 * menu, makes a project of Acme's organization, moves its door logger (Acme's) into it from the
 * device list's batch action, finds the project in the list's filter by name and filters by it,
 * and opens the project with its device; dave, a read-only member of Acme, sees Acme's
 * "Warehouse 1" without edit or delete; carol, its administrator, renames it and back. In English
 * and in Russian, on a desktop and a 375 px phone. Screenshots go to var/screenshots/.
 */
import { describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const DOOR = 'Warehouse 1 door logger';
const ACME = 'Acme Cold Chain';
const WAREHOUSE = 'Warehouse 1';

describe('projects', () => {
  for (const language of ['en-US', 'ru-RU'] as const) {
    for (const width of [1280, 375]) {
      it(`makes a project, moves a device into it from the device list and filters by it (${language}, ${width} px)`, async () => {
        const { page } = session;
        const strings = readLocale('projects/locales', language);
        const name = `${language.slice(0, 2)} ${width}`;
        await page.setViewportSize({ width, height: 900 });
        await logInPastNotice(page, baseURL, 'acme', language);
        if (width > 600) expect(await page.locator('a[href="/project/list"]').count()).toBeGreaterThan(0);
        await page.goto(`${baseURL}/project/list`);
        await page.getByTestId('projects-page').waitFor();
        await page.getByTestId('project-row').filter({ hasText: 'Warehouse 1' }).waitFor();
        await page.getByTestId('project-add').click();
        await page.getByTestId('project-name').fill('x');
        await page.getByText(strings.error.nameLength.replace('{{min}}', '2').replace('{{max}}', '20')).waitFor();
        // the door logger is Acme's: it goes only into a project of Acme's
        await page.getByTestId('project-owner').selectOption({ label: ACME });
        await page.getByTestId('project-name').fill(name);
        await page.getByTestId('project-remark').fill('Dock B, night shift');
        await shot(page, `projects-dialog-${language}-${width}`);
        await page.getByTestId('project-save').click();
        await page.getByTestId('project-detail').filter({ hasText: name }).waitFor();

        await page.goto(`${baseURL}/device/list`);
        const row = page.getByTestId('device-row').filter({ hasText: DOOR });
        await row.waitFor();
        // the table scrolls sideways on a phone: the box is ticked wherever it is
        await row.getByTestId('device-select').dispatchEvent('click');
        await page.getByTestId('device-move-selected').click();
        await page.getByTestId('move-project-search').fill(name);
        await page.getByTestId('move-project-target').selectOption({ label: `${name} · ${ACME}` });
        await shot(page, `projects-move-${language}-${width}`);
        await page.getByRole('alertdialog').getByRole('button', { name: readLocale('devices/locales', language).project.confirm_one }).click();
        await row.getByTestId('device-project').filter({ hasText: name }).waitFor();

        await page.getByTestId('device-project-search').fill(name.slice(0, 4));  // found on the server by name
        await page.getByTestId('device-project-filter').getByRole('option', { name: `${name} · ${ACME}` }).waitFor({ state: 'attached' });
        await page.getByTestId('device-project-filter').selectOption({ label: `${name} · ${ACME}` });
        await expect.poll(async () => page.getByTestId('device-row').count()).toBe(1);
        await expect(page.getByTestId('device-row').first().textContent()).resolves.toContain(DOOR);
        await shot(page, `projects-device-list-${language}-${width}`);

        await page.goto(`${baseURL}/project/list`);
        await page.getByTestId('project-row').filter({ hasText: name }).getByTestId('project-open').click();
        const detail = page.getByTestId('project-detail');
        await detail.getByTestId('project-device').filter({ hasText: DOOR }).waitFor();
        await shot(page, `projects-page-${language}-${width}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      });
    }
  }

  for (const [language, width] of [['en-US', 1280], ['ru-RU', 375]] as const) {
    it(`shows Acme's project read-only to dave, a read-only member (${language}, ${width} px)`, async () => {
      const { page } = session;
      const strings = readLocale('projects/locales', language);
      await page.setViewportSize({ width, height: 900 });
      await logInPastNotice(page, baseURL, 'dave', language);
      await page.goto(`${baseURL}/project/list`);
      const row = page.getByTestId('project-row').filter({ hasText: WAREHOUSE });
      await row.getByTestId('project-read-only').filter({ hasText: strings.readOnly }).waitFor();
      await expect(row.getByTestId('project-organization').textContent()).resolves.toBe(ACME);
      expect(await row.getByTestId('project-edit').count()).toBe(0);
      expect(await row.getByTestId('project-delete').count()).toBe(0);
      expect(await page.getByTestId('project-add').count()).toBe(0);  // no project pages to make one in
      await row.getByTestId('project-open').click();
      const detail = page.getByTestId('project-detail');
      await detail.getByTestId('project-device').first().waitFor();
      expect(await detail.getByRole('button', { name: strings.edit }).count()).toBe(0);
      expect(await detail.getByRole('button', { name: strings.delete }).count()).toBe(0);
      expect(await detail.getByTestId('project-device-remove').count()).toBe(0);
      await shot(page, `projects-read-only-${language}-${width}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });

    it(`lets carol, Acme's administrator, rename its project and back (${language}, ${width} px)`, async () => {
      const { page } = session;
      await page.setViewportSize({ width, height: 900 });
      await logInPastNotice(page, baseURL, 'carol', language);
      await page.goto(`${baseURL}/project/list`);
      for (const [from, to] of [[WAREHOUSE, `${WAREHOUSE} B`], [`${WAREHOUSE} B`, WAREHOUSE]] as const) {
        const row = page.getByTestId('project-row').and(page.locator(`[data-project-name="${from}"]`));
        await row.waitFor();
        expect(await row.getByTestId('project-read-only').count()).toBe(0);
        await row.getByTestId('project-edit').click();
        await expect(page.getByTestId('project-owner-name').textContent()).resolves.toBe(ACME);
        await page.getByTestId('project-name').fill(to);
        if (to !== WAREHOUSE) await shot(page, `projects-rename-${language}-${width}`);
        await page.getByTestId('project-save').click();
        // the dialog closes on the server's answer; a refusal stays in it, and is what a failure reports
        const form = page.getByTestId('project-form');
        await form.waitFor({ state: 'detached' }).catch(async (error: Error) => {
          throw new Error(`the rename to ${to} was not saved: ${await form.innerText().catch(() => '?')}\n${error.message}`);
        });
        await page.locator(`[data-testid="project-row"][data-project-name="${to}"]`).waitFor();
      }
    });
  }
});

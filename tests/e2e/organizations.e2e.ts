/**
 * Organizations in a real browser against `coldchain serve` with demo data: acme creates an
 * organization, invites alice from its page; alice approves in her message centre on a phone,
 * follows the link to her organizations and finds it; acme sees her listed with her role, then
 * dissolves it (it holds no devices), so the suites that follow see alice as the demo made her.
 * In English and in Russian; screenshots of desktop and phone go to var/screenshots/.
 */
import { describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();

describe('organizations', () => {
  for (const language of ['en-US', 'ru-RU'] as const) {
    it(`invites a member who approves in the message centre and is listed (${language})`, async () => {
      const strings = readLocale('organizations/locales', language);
      const system = readLocale('messages/systemLocales', language);
      const name = `E2E ${language} team`;
      const { page } = session;
      await page.setViewportSize({ width: 1280, height: 900 });
      await logInPastNotice(page, baseURL, 'acme', language);
      await page.goto(`${baseURL}/organization/list`);
      await page.getByTestId('organizations-page').waitFor();
      await page.getByTestId('org-create').click();
      await page.getByTestId('org-name').fill(name);
      await page.getByTestId('org-save').click();
      await page.getByTestId('org-item').filter({ hasText: name }).click();
      await expect.poll(() => page.getByTestId('org-title').textContent()).toBe(name);

      await page.getByTestId('org-invite').click();
      await page.getByTestId('invite-uep').fill('alice@example.com');
      await page.getByTestId('invite-role').selectOption('org_admin');
      await page.getByTestId('invite-send').click();
      await expect(page.getByTestId('invite-sent').textContent()).resolves.toContain('a***e');
      await shot(page, `organizations-invite-${language}-desktop`);
      await page.getByTestId('invite-close').click();
      await page.getByTestId('invitation-row').waitFor();

      const phone = await session.context.browser()!.newContext({ viewport: { width: 390, height: 844 }, locale: language,
        isMobile: true, hasTouch: true });
      try {
        const small = await phone.newPage();
        await logInPastNotice(small, baseURL, 'alice', language);
        await small.goto(`${baseURL}/message/list`);
        await small.getByTestId('system-tab').click();
        const invitation = small.locator('[data-testid="system-message"][data-kind="invitation"]').filter({ hasText: name });
        await invitation.waitFor();
        await shot(small, `organizations-invitation-${language}-phone`);
        await invitation.getByTestId('approve').click();
        await expect(invitation.getByTestId('decision').textContent()).resolves.toBe(system.system.decision.approved);
        await invitation.getByTestId('message-organizations').click();
        await small.getByTestId('org-item').filter({ hasText: name }).click();
        await expect.poll(() => small.getByTestId('org-title').textContent()).toBe(name);
        await small.locator('[data-testid="member-row"][data-user="alice"]').waitFor();
        await shot(small, `organizations-list-${language}-phone`);
        const overflow = await small.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      } finally {
        await phone.close();
      }

      await page.reload();
      await page.getByTestId('org-item').filter({ hasText: name }).click();
      const alice = page.locator('[data-testid="member-row"][data-user="alice"]');
      await alice.waitFor();
      await expect(alice.getByTestId('member-role').inputValue()).resolves.toBe('org_admin');
      await expect(page.getByTestId('invitation-row').count()).resolves.toBe(0);
      await shot(page, `organizations-members-${language}-desktop`);

      // On a 375 px phone the manager reads each member as a card: the role's select and the remove
      // button stay on the screen, nothing scrolls sideways.
      const managerPhone = await session.context.browser()!.newContext({ viewport: { width: 375, height: 812 }, locale: language,
        isMobile: true, hasTouch: true });
      try {
        const small = await managerPhone.newPage();
        await logInPastNotice(small, baseURL, 'acme', language);
        await small.goto(`${baseURL}/organization/list`);
        await small.getByTestId('org-item').filter({ hasText: name }).click();
        const row = small.locator('[data-testid="member-row"][data-user="alice"]');
        await row.getByTestId('member-remove').waitFor();
        await shot(small, `organizations-members-${language}-375`);
        const overflow = await small.evaluate(() => {
          const wrap = document.querySelector('.jc-org-table-wrap')!;
          const controls = [...document.querySelectorAll('[data-testid="member-role"], [data-testid="member-remove"]')];
          return Math.max(wrap.scrollWidth - wrap.clientWidth, document.documentElement.scrollWidth - window.innerWidth,
            ...controls.map((control) => control.getBoundingClientRect().right - wrap.getBoundingClientRect().right));
        });
        expect(overflow).toBeLessThanOrEqual(0);
      } finally {
        await managerPhone.close();
      }

      await page.getByTestId('org-dissolve').click();
      await expect(page.getByTestId('org-confirm').textContent()).resolves.toContain(name);
      await page.locator('.bp6-alert').getByRole('button', { name: strings.dissolve }).click();
      await page.getByTestId('org-item').filter({ hasText: name }).waitFor({ state: 'detached' });
    });
  }
});

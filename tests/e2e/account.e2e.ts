/**
 * My account (/consumer/info) and the system messages in a real browser against `coldchain serve`
 * with demo data: alice changes her name, picture, language and time zone, then approves the
 * organization invitation `coldchain demo-seed` left in her inbox. In order: the test that looks
 * comes first, the one that answers the invitation (once only) last; the time zone is put back.
 * Screenshots (en-US and ru-RU, desktop and a 375 px phone) go to ../account-shots/ beside the
 * worktree, or SHOTS_DIR.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_PASSWORD, asUser, launch, logInPastNotice, readLocale, watchPolicies } from './browser';

const baseURL = inject('baseURL');
const SHOTS = process.env.SHOTS_DIR ?? fileURLToPath(new URL('../../../account-shots', import.meta.url));
const en = readLocale('account/locales', 'en-US');
const ru = readLocale('account/locales', 'ru-RU');
const enSystem = readLocale('messages/systemLocales', 'en-US');
const ruSystem = readLocale('messages/systemLocales', 'ru-RU');
// A 96 x 96 PNG, a white disc on orange: a user's picture, as far as the server can tell.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAGAAAABgCAIAAABt+uBvAAABeUlEQVR4nO3aUWrCQBhF4Yl0B92mrqbbrGuwbxIQc9oy947COa9CJvPxJ1HM9n0edtBp9Qm8egJBAkECQQJBAkECQQJBAkECQQJBAkECQQJBAkECQQJBAkECQQJBAkECQQJBAkECQQJBAkEfq09gjDE+v27PPrpetuaZPLYtfHnhwOWxVVJrgP5Es6/P1Ab6N82+JlP1Jj1FZ+JxflMPaO6uakYloMR+OkYNoNxOCkZxoPQe0sfPAnWugugq/tSAgkDNh3FuLScISgE1xye6ohMECQRFgPrXV25dJwgSCBIIEggSCBIIEggSCIoArfoPK7GuEwQJBKWA+ldZaEUnCAoCNYcot5YTBGWBOkMUXSU+QWmj9PEbl1huD4UJLd2DEjvpXL+9m/Tc/dQekdWn2KxdNb9A+I4i5Fuu0Eqge74n/cb5UwMSCBIIEggSCBIIEggSCBIIEggSCBIIEggSCBIIEggSCBIIEggSCBIIEggSCBIIEggSCPoBjDhWe4iKqaAAAAAASUVORK5CYII=',
  'base64',
);

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let policyProblems: string[];

beforeAll(async () => {
  browser = await launch();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await context?.close();
  expect(errors).toEqual([]);
  expect(policyProblems).toEqual([]);
});

async function open(width: number, language: string): Promise<void> {
  context = await browser.newContext({ viewport: { width, height: width < 500 ? 812 : 900 }, locale: language, timezoneId: 'Asia/Shanghai' });
  policyProblems = await watchPolicies(context);
  page = await context.newPage();
  errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
}

async function snap(name: string): Promise<void> {
  await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => undefined);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });
}

async function accountOnServer(): Promise<{ realName: string | null; language: string | null; timeZone: string | null; accountPhoto: string | null }> {
  const login = await fetch(`${baseURL}/api/base/BaseAccount/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Accept-Language': 'ru-RU' },
    body: JSON.stringify({ userName: 'alice', accountPassword: DEMO_PASSWORD, loginType: 1 }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const info = await fetch(`${baseURL}/api/base/BaseAccount/accountInfo`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await info.json()) as { data: { baseAccount: never } }).data.baseAccount;
}

describe('my account and messages', () => {
  it('changes the name, the picture, then the language and time zone, which the console follows', async () => {
    await open(1440, 'en-US');
    await logInPastNotice(page, baseURL, 'alice', 'en-US');
    await page.goto(`${baseURL}/consumer/info`);
    await page.getByTestId('account-page').waitFor();
    await expect(page.getByRole('heading', { name: en.title })).toBeTruthy();
    await snap('account-en-desktop');

    const profile = page.getByTestId('profile-form');
    await profile.getByLabel(en.profile.realName).fill('Alice Chen');
    await profile.getByTestId('profile-save').click();
    await page.getByText(en.saved).first().waitFor();

    await page.getByTestId('photo-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await page.getByText(en.photo.saved).first().waitFor();
    // the header shows the new picture, fetched with alice's token
    await page.getByTestId('user-menu').getByTestId('avatar-photo').waitFor();

    const preferences = page.getByTestId('preferences-form');
    await preferences.getByLabel(en.preferences.language).selectOption('ru-RU');
    await preferences.getByLabel(en.preferences.timeZone).selectOption('Europe/Moscow');
    await preferences.getByTestId('preferences-save').click();
    await page.getByRole('heading', { name: ru.title }).waitFor();
    const stored = await accountOnServer();
    expect([stored.realName, stored.timeZone]).toEqual(['Alice Chen', 'Europe/Moscow']);
    expect(stored.accountPhoto).toMatch(/^\/api\/base\/BaseAccount\/headPhoto\?v=/);
    await snap('account-ru-desktop');

    // put the zone back: the other suites read times in Asia/Shanghai
    await preferences.getByLabel(ru.preferences.timeZone).selectOption('Asia/Shanghai');
    await preferences.getByTestId('preferences-save').click();
    await page.getByText(ru.saved).first().waitFor();
    expect((await accountOnServer()).timeZone).toBe('Asia/Shanghai');
  });

  it('reads well on a 375 px phone in English and Russian', async () => {
    for (const language of ['en-US', 'ru-RU']) {
      await open(375, language);
      await logInPastNotice(page, baseURL, 'alice', language);
      await page.goto(`${baseURL}/consumer/info`);
      await page.getByTestId('account-page').waitFor();
      await page.getByTestId('notifications-form').waitFor();
      await snap(`account-${language}-phone`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(375);
      await page.goto(`${baseURL}/message/list?tab=system`);
      await page.getByTestId('system-messages').waitFor();
      await snap(`system-messages-${language}-phone`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await context.close();
    }
  });

  it('shows the invitation in the system messages and approves it once', async () => {
    // An invitation of its own (acme invites alice into a throwaway organization, dissolved after):
    // the demo's may be off alice's first page by now: a full run's suites share one database.
    const name = `E2E Account ${Date.now() % 100000}`;
    const organization = await asUser(baseURL, 'acme', 'en-US', async (headers) => {
      const made = await (await fetch(`${baseURL}/api/base/BaseOrganization/insert`, {
        method: 'POST', headers, body: JSON.stringify({ organizationName: name }) })).json() as { data: { organizationId: number } };
      const invited = await fetch(`${baseURL}/api/base/BaseAccount/invite`, { method: 'POST', headers, body: JSON.stringify({
        organizationId: made.data.organizationId, uep: 'alice@example.com', roleCode: 'org_member' }) });
      expect(((await invited.json()) as { code: number }).code).toBe(0);
      return made.data.organizationId;
    });
    try {
      await answerIt(name);
    } finally {
      await asUser(baseURL, 'acme', 'en-US', (headers) => fetch(
        `${baseURL}/api/base/BaseOrganization/delete?organizationId=${organization}`, { method: 'DELETE', headers }));
    }
  });
});

/** alice answers the invitation into `organization` in her message centre, in Russian, once. */
async function answerIt(organization: string): Promise<void> {
  await open(1440, 'ru-RU');
  await logInPastNotice(page, baseURL, 'alice', 'ru-RU');
  await page.goto(`${baseURL}/message/list`);
  await page.getByTestId('system-tab').click();
  const invitation = page.locator('[data-testid="system-message"][data-kind="invitation"]').filter({ hasText: organization });
  await invitation.waitFor();
  await expect(invitation.textContent()).resolves.toContain(organization);
  await snap('system-messages-ru-desktop');
  await invitation.getByTestId('approve').click();
  await invitation.getByTestId('decision').waitFor();
  await expect(invitation.getByTestId('decision').textContent()).resolves.toBe(ruSystem.system.decision.approved);
  await expect(invitation.getByTestId('approve').count()).resolves.toBe(0);
  await page.reload();
  await invitation.getByTestId('decision').waitFor();
  await snap('system-messages-ru-answered');
  expect(enSystem.system.decision.approved).toBe('Approved');
}

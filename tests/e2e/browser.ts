/** Debian's Chromium through playwright-core, and screenshots kept under var/screenshots/. */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];
export const SCREENSHOTS = join(fileURLToPath(new URL('../..', import.meta.url)), 'var', 'screenshots');
export const DEMO_PASSWORD = 'Coldchain#2026';

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not at ${CHROMIUM}: install it with "apt-get install -y chromium" (make test does)`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Transitions run to their end first: a dialog caught fading in says nothing.
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false, animations: 'disabled' });
}

/** Fills the login form and waits until the console has taken the user elsewhere. */
/** Chooses a select's first option whose text matches, once it is there (a form's options often load after it opens). */
export async function chooseOption(select: Locator, text: string | RegExp): Promise<void> {
  const option = select.locator('option', { hasText: text }).first();
  await option.waitFor({ state: 'attached' });
  await select.selectOption((await option.getAttribute('value'))!);
}

export async function submitLogin(page: Page, baseURL: string, user: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto(`${baseURL}/user/login`);
  await page.fill('#userName', user);
  await page.fill('#accountPassword', password);
  await page.click('button[type=submit]');
  await page.waitForURL((url) => !url.pathname.startsWith('/user/login'));
}

/** A call of the API as `user`, logged in from a browser in `language`; the session ends after it. */
export async function asUser<T>(baseURL: string, user: string, language: string, call: (headers: Record<string, string>) => Promise<T>): Promise<T> {
  const login = await fetch(`${baseURL}/api/base/BaseAccount/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Accept-Language': language },
    body: JSON.stringify({ userName: user, accountPassword: DEMO_PASSWORD, loginType: 1 }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Accept-Language': language };
  try {
    return await call(headers);
  } finally {
    await fetch(`${baseURL}/api/base/BaseAccount/loginOut`, { headers });
  }
}

/**
 * Logs `user` in with the console in `language`. At login the account's saved language wins over
 * the browser's, and the suites share one database: the account is given `language` first.
 */
export async function logIn(page: Page, baseURL: string, user: string, language = 'en-US'): Promise<void> {
  await asUser(baseURL, user, language, (headers) =>
    fetch(`${baseURL}/api/base/BaseAccount/modifyPreferences`, { method: 'POST', headers, body: JSON.stringify({ language }) }),
  );
  await preferLanguage(page, language);
  await submitLogin(page, baseURL, user);
}

/** The console in `language` for this page's first visit (a language the user chose later stays). */
export async function preferLanguage(page: Page, language: string): Promise<void> {
  await page.addInitScript((lang) => {
    try {
      if (!localStorage.getItem('jc__language')) localStorage.setItem('jc__language', JSON.stringify({ value: lang }));
    } catch {
      // a frame without storage of its own (a PDF shown from a blob): nothing of the console runs there
    }
  }, language);
}

/** Closes the seeded notice for good (tick "don't remind again", close). */
export async function closeNotice(page: Page): Promise<void> {
  const dialog = page.getByTestId('notice-dialog');
  await dialog.waitFor({ timeout: 10_000 });
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button').last().click();
  await dialog.waitFor({ state: 'detached' });
}

/** Logs `user` in and closes the seeded notice for good. */
export async function logInPastNotice(page: Page, baseURL: string, user: string, language = 'en-US'): Promise<void> {
  await logIn(page, baseURL, user, language);
  await closeNotice(page);
}

/**
 * The accountInfo answers this browser receives, changed by `edit` (their `data`): what a test
 * needs of an account without storing it for good in the database other tests share.
 */
export interface AccountInfoData {
  baseAccount: Record<string, unknown>;
  userProfile: Record<string, unknown>;
}

export async function editAccountInfo(target: Page, edit: (data: AccountInfoData) => void): Promise<void> {
  await target.route('**/api/base/BaseAccount/accountInfo**', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    edit(body.data);
    await route.fulfill({ response, json: body });
  });
}

/**
 * bob's identity and industry as this browser reads them: bob has not told them yet and the
 * identity dialog (modal, not closable) asks at every page; shell.e2e.ts tests that dialog on the
 * same database, so other tests fill it into the accountInfo answers their own browser receives
 * instead of storing his profile for good.
 */
export async function withProfileFilledIn(target: Page): Promise<void> {
  await editAccountInfo(target, (data) => {
    const profile = data.userProfile;
    data.userProfile = { ...profile, elitechIdentity: profile.elitechIdentity ?? '3', elitechIndustry: profile.elitechIndustry ?? '5' };
  });
}

/**
 * The words of the elements `selector` finds that the browser split over two lines: a word's
 * boxes (one per line it is on) all sit on one line unless it was broken in the middle.
 */
export function brokenWords(target: Page, selector: string): Promise<string[]> {
  return target.evaluate((css) => {
    const broken: string[] = [];
    for (const element of document.querySelectorAll(css)) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const word of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(word[0]);
        }
      }
    }
    return broken;
  }, selector);
}

/** The device page's enabled buttons (their test ids) a reader could change the device with: none for a view-only share. */
export function offeredChanges(page: Page): Promise<(string | null)[]> {
  return page.locator('[data-testid="device-info"], [data-testid="device-actions"], .jc-device-head')
    .locator('button:not([disabled]), a.bp6-button:not([aria-disabled="true"])').evaluateAll((buttons) =>
      buttons.map((button) => button.getAttribute('data-testid')).filter((id) => id !== 'device-export'));
}

/** A web client message file, e.g. `readLocale('recharge/locales', 'en-US')`: tests read the very strings users see. */
export function readLocale(folder: string, language: string): any {
  const file = new URL(`../../web/src/features/${folder}/${language}.json`, import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(file), 'utf8'));
}

/** The operation log's labels of calls, object types and columns, as the server gives them to the console in `language`. */
export async function operationLabels(baseURL: string, user: string, language: string): Promise<Record<'action' | 'object' | 'field', Record<string, string>>> {
  return asUser(baseURL, user, language, async (headers) => {
    const reply = await fetch(`${baseURL}/api/base/OperationLog/labels`, { headers });
    return ((await reply.json()) as { data: Record<'action' | 'object' | 'field', Record<string, string>> }).data;
  });
}

/**
 * Watches a context's windows for what the server's policies refuse or Chromium finds wrong with
 * them: every Content-Security-Policy violation (the `securitypolicyviolation` event, one report
 * each) and every complaint of Chromium's about the policy headers themselves.
 * Call it before the context opens its first page; the returned list (`problems`, when given) fills
 * as it happens.
 */
export async function watchPolicies(context: BrowserContext, problems: string[] = []): Promise<string[]> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `securitypolicyviolation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} ` +
          `(${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  const watch = (page: Page) =>
    page.on('console', (message) => {
      if (/^securitypolicyviolation:|Content-Security-Policy|Permissions-Policy|Strict-Transport-Security/.test(message.text())) {
        problems.push(`${page.url()}: ${message.text()}`);
      }
    });
  context.pages().forEach(watch);
  context.on('page', watch);
  return problems;
}

/** The browser of a suite: `page` and `context` are those of the running test. */
export interface BrowserSession {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Returns the policy problems seen so far (see watchPolicies) and forgets them: for a test that causes one on purpose. */
  takePolicyProblems(): string[];
}

/**
 * Registers a suite's hooks: one Chromium for the file, a fresh context (1600x1000, en-US unless
 * told otherwise) and page for each test, and no page error nor policy violation (watchPolicies)
 * in any window of the context (the console's, a payer's popup) allowed.
 */
export function browserSession(options: BrowserContextOptions = {}): BrowserSession {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[] = [];
  let policyProblems: string[] = [];
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, locale: 'en-US', ...options });
    errors = [];
    context.on('page', (opened) => opened.on('pageerror', (error) => errors.push(`${opened.url()}: ${error.message}`)));
    policyProblems = await watchPolicies(context);
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
    expect(errors).toEqual([]);
    expect(policyProblems).toEqual([]);
  });
  return {
    get page() {
      return page;
    },
    get context() {
      return context;
    },
    takePolicyProblems() {
      return policyProblems.splice(0);
    },
  };
}

/**
 * The device detail's alarm settings in a real browser against `coldchain serve` with demo data:
 * alice sets the humidity limits of Cold room B logger (a probe without a rule in the demo), sees a
 * wrong order refused as she types, saves, and finds the limits in force in the basic info. The
 * rule is deleted afterwards, so the other files see the demo as seeded. Screenshots of the tab in
 * en-US and ru-RU, desktop and phone width, go to var/screenshots/ (and $ALARM_SHOTS when set).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, logInPastNotice, readLocale, SCREENSHOTS, shot, watchPolicies } from './browser';

const baseURL = inject('baseURL');
const ROOM_B = 'Cold room B logger';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let policyProblems: string[];
/** The token alice's console sends, taken from its own calls, to delete the rule afterwards. */
let authorization: string | undefined;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function open(language: string, width: number, height: number): Promise<void> {
  context = await browser.newContext({ viewport: { width, height }, locale: language });
  policyProblems = await watchPolicies(context);
  page = await context.newPage();
  errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => {
    authorization = request.headers()['authorization'] ?? authorization;
  });
  await logInPastNotice(page, baseURL, 'alice', language);
}

afterEach(async () => {
  await context?.close();
  expect(errors).toEqual([]);
  expect(policyProblems).toEqual([]);
});

async function openTab(tab: 'push' | 'info'): Promise<void> {
  await page.goto(`${baseURL}/device/list`);
  await page.locator(`[data-testid="device-row"][data-device-name="${ROOM_B}"] [data-testid="device-link"]`).click();
  await page.getByTestId('device-detail-page').waitFor();
  await page.getByTestId(`device-tab-${tab}`).click();
}

/** A screenshot of the tab, also copied where the caller asked ($ALARM_SHOTS). */
async function tabShot(name: string): Promise<void> {
  await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => undefined);
  await shot(page, name);
  const extra = process.env.ALARM_SHOTS;
  if (extra) {
    mkdirSync(extra, { recursive: true });
    copyFileSync(join(SCREENSHOTS, `${name}.png`), join(extra, `${name}.png`));
  }
}

describe('alarm settings', () => {
  it('alice sets the humidity limits of a device and sees them in force in its basic info', async () => {
    const en = readLocale('devices/locales', 'en-US');
    await open('en-US', 1440, 900);
    await openTab('push');
    const card = page.getByTestId('alarm-rule-h');
    await card.waitFor();
    await expect(card.getByTestId('alarm-rule-h-new').textContent()).resolves.toBe(en.alarmSettings.noRule);

    await card.getByLabel(en.alarmSettings.field.lowerLimit).fill('30');
    await card.getByLabel(en.alarmSettings.field.upperLimit).fill('20');
    await card.getByText(en.alarmRule.upperAboveLower).waitFor(); // as she types, before any save
    await card.getByLabel(en.alarmSettings.field.upperLimit).fill('85.5');
    await card.getByTestId('rule-h-add-recipient').click();
    await card.getByTestId('rule-h-recipient-0').getByLabel(en.alarmSettings.recipient.name).fill('Night shift');
    await card.getByTestId('rule-h-recipient-0').getByLabel(en.alarmSettings.recipient.email).fill('night@example.com');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/device/DeviceAlarmRule/insert'));
    await card.getByTestId('rule-h-save').click();
    expect((await saved).status()).toBe(200);
    await page.getByTestId('alarm-rule-h-new').waitFor({ state: 'detached' });
    await tabShot('alarm-settings-en-US-desktop');

    await page.getByTestId('device-tab-info').click();
    await expect(page.getByTestId('info-limits-h').textContent()).resolves.toBe(
      en.info.limitsValue.replace('{{probe}}', en.probe.h).replace('{{lower}}', '30.0 %RH').replace('{{upper}}', '85.5 %RH'),
    );
    await expect(page.getByTestId('info-limits-t').textContent()).resolves.toContain('8.0 °C'); // the demo's rule
  });

  it('looks right in Russian and at phone width', async () => {
    for (const [language, width, height, name] of [
      ['ru-RU', 1440, 900, 'desktop'],
      ['en-US', 1440, 900, 'desktop'],
      ['ru-RU', 375, 812, 'phone'],
      ['en-US', 375, 812, 'phone'],
    ] as const) {
      await open(language, width, height);
      await openTab('push');
      await page.getByTestId('alarm-rule-h').waitFor();
      await tabShot(`alarm-settings-${language}-${name}`);
      await page.getByTestId('rule-t-recipients').scrollIntoViewIfNeeded();
      await tabShot(`alarm-settings-${language}-${name}-recipients`);
      await page.getByTestId('push-settings').scrollIntoViewIfNeeded();
      await tabShot(`alarm-settings-${language}-${name}-push`);
      await context.close();
      expect(errors).toEqual([]);
    }
    await open('en-US', 1440, 900); // afterEach closes this one
  });

  it('puts the demo back: the rule it added is deleted', async () => {
    await open('en-US', 1440, 900);
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/device/DeviceAlarmRule/page'));
    await openTab('push');
    const rules = (await (await answered).json()).data.data as { id: number; probe: string }[];
    const added = rules.find((r) => r.probe === 'h');
    expect(added).toBeDefined();
    const removed = await page.request.delete(`${baseURL}/api/device/DeviceAlarmRule/delete?id=${added!.id}`, {
      headers: { authorization: authorization ?? '' },
    });
    expect(removed.status()).toBe(200);
  });
});

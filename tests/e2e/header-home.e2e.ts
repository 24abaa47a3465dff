/**
 * How the header and the home page sit on a desktop and on a 390 px phone, in English and Russian
 * (issue 16): the expiry reminder leaves the home page readable and breaks no word, and the
 * header's picture and name share one line. Screenshots go to var/screenshots/ (look-*.png).
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { brokenWords, browserSession, editAccountInfo, logInPastNotice, shot } from './browser';

const baseURL = inject('baseURL');
const PHOTO = '/api/base/BaseAccount/headPhoto/look-e2e.png';
// An 8 x 8 PNG, orange: a picture, as far as the browser can tell.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGN4k8OAFWEXHbQSANW3VgG1gRn4AAAAAElFTkSuQmCC', 'base64');

const session = browserSession();
let page: Page;
beforeEach(() => {
  page = session.page;
});

const SIZES = [
  ['en-US', 1440],
  ['ru-RU', 1440],
  ['en-US', 390],
  ['ru-RU', 390],
] as const;

async function open(language: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
  await logInPastNotice(page, baseURL, 'alice', language);
  await page.waitForURL(/\/home$/);
  await page.getByTestId('home-page').waitFor();
}

describe('the expiry reminder', () => {
  it.each(SIZES)('in %s at %i px breaks no word and leaves the home page readable', async (language, width) => {
    await open(language, width);
    const reminder = page.locator('.jc-expiry-reminder');
    await reminder.waitFor();
    await reminder.hover(); // hovering holds it on screen
    await shot(page, `look-reminder-${language}-${width}`);
    expect(await brokenWords(page, '.jc-expiry-reminder')).toEqual([]);
    // On the screen, and a strip of it: the page stays readable above it
    const box = (await reminder.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.height).toBeLessThanOrEqual(viewport.height / 4);
    // its button opens the expired-service dialog and puts the reminder away
    await reminder.getByTestId('expiry-reminder-open').click();
    await page.getByTestId('expired-dialog').waitFor();
    await reminder.waitFor({ state: 'detached' });
  });
});

describe('the header', () => {
  it.each(SIZES)('in %s at %i px shows the picture and the name on one line', async (language, width) => {
    await editAccountInfo(page, (data) => {
      data.baseAccount.accountPhoto = PHOTO;
    });
    await page.route(`**${PHOTO}`, (route) => route.fulfill({ body: PNG, contentType: 'image/png' }));
    await open(language, width);
    // the map's lazy base layer (the countries' outlines, a JSON file of its own) is drawn
    await page.locator('.leaflet-jc-base-pane path').first().waitFor({ state: 'attached' });
    const user = page.getByTestId('user-menu');
    const photo = user.getByTestId('avatar-photo');
    await photo.waitFor();
    await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => undefined);
    await shot(page, `look-header-${language}-${width}`);
    const picture = (await photo.boundingBox())!;
    const button = (await user.boundingBox())!;
    // The picture sits in the button, centred on the header's line
    expect(Math.abs(picture.y + picture.height / 2 - (button.y + button.height / 2))).toBeLessThanOrEqual(2);
    if (width >= 1350) {
      const name = (await user.locator('.jc-user-name').boundingBox())!;
      expect(name.x).toBeGreaterThanOrEqual(picture.x + picture.width);
      expect(Math.abs(name.y + name.height / 2 - (picture.y + picture.height / 2))).toBeLessThanOrEqual(2);
    }
  });
});

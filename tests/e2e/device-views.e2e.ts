/**
 * The device views in a real browser against `coldchain serve` with demo data: the device list's
 * map and board modes, the home page's tiles customised and kept, the device map, a cold room's
 * energy tab and a truck's track; in English, in Russian and at phone width (375 px).
 * Screenshots go to var/screenshots/ (views-*.png).
 */
import { describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const home = { en: readLocale('home/locales', 'en-US'), ru: readLocale('home/locales', 'ru-RU') };
const devices = { ru: readLocale('devices/locales', 'ru-RU') };

async function quietShot(name: string): Promise<void> {
  const { page } = session;
  await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => undefined);
  await shot(page, name);
}

describe('the device views', () => {
  it('shows the list as a map whose markers open their device, and as a board of cards', async () => {
    const { page } = session;
    await logInPastNotice(page, baseURL, 'alice', 'en-US');
    await page.goto(`${baseURL}/device/list`);
    await page.getByTestId('device-table').waitFor();
    await page.getByTestId('device-mode-map').click();
    await page.waitForURL(/mode=map/);
    const markers = page.getByTestId('device-list-map').getByTestId('map-marker');
    await expect.poll(() => markers.count()).toBe(4); // the four cold-chain loggers all stand somewhere
    await expect(page.getByTestId('device-map-summary').textContent()).resolves.toContain('4');
    await quietShot('views-list-map-en');
    const truck = page.locator('[data-testid="map-marker"][aria-label="Truck 12 tracker"]');
    await truck.click({ force: true });
    await page.getByTestId('device-detail-page').waitFor();
    await expect(page.getByTestId('device-name').textContent()).resolves.toContain('Truck 12 tracker');

    await page.goBack();
    await page.getByTestId('device-list-map').waitFor();
    await page.getByTestId('device-mode-board').click();
    await page.waitForURL(/mode=board/);
    const cards = page.getByTestId('board-card');
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(4);
    // the demo's excursions leave the fridge loggers alarming: their cards are edged in red
    const alarming = page.locator('[data-testid="board-card"][data-state="alarm"]');
    await expect.poll(() => alarming.count()).toBeGreaterThan(0);
    await expect(alarming.first().getAttribute('class')).resolves.toContain('jc-board-alarm');
    const truckCard = page.locator('[data-testid="board-card"][data-device-name="Truck 12 tracker"]');
    await expect(truckCard.textContent()).resolves.toMatch(/\d+(\.\d)?\s?°C/);
    await expect(page.getByTestId('device-mode-board').getAttribute('aria-pressed')).resolves.toBe('true');
    await quietShot('views-board-en');
    // the mode is in the address: the storage tab opens as a board too
    await page.getByTestId('device-scene-2').click();
    await page.waitForURL(/\/device\/list\/storage\?mode=board/);
    await expect.poll(() => cards.count()).toBe(1);
  });

  it('keeps the home tiles the user chose, in their order, and never fewer than five', async () => {
    const { page } = session;
    await logInPastNotice(page, baseURL, 'alice', 'en-US');
    await page.getByTestId('home-counts').waitFor();
    await expect.poll(() => page.getByTestId('home-map').getByTestId('map-marker').count()).toBe(6);
    await page.getByTestId('home-tiles-customise').click();
    await page.getByTestId('home-tiles-choices').waitFor();
    // A tile is ticked or unticked through its label, as a user does (the box sits under Blueprint's indicator).
    const keep = async (tile: string) => {
      const box = page.getByTestId(`home-tile-keep-${tile}`);
      const was = await box.isChecked();
      await page.locator(`[data-testid="home-tile-choice"][data-tile="${tile}"] label`).click();
      await expect.poll(() => box.isChecked()).toBe(!was);
    };
    for (const tile of ['offline', 'disabled', 'notEnabled', 'scrapped']) await keep(tile);
    await expect(page.getByTestId('home-tiles-too-few').textContent()).resolves.toBe(home.en.tiles.tooFew_other.replace('{{count}}', '5'));
    await expect(page.getByTestId('home-tiles-save').isDisabled()).resolves.toBe(true);
    await keep('expiring30');
    for (let i = 0; i < 8; i += 1) await page.getByTestId('home-tile-up-expiring30').click();
    await quietShot('views-home-tiles-dialog-en');
    await page.getByTestId('home-tiles-save').click();
    await page.getByTestId('home-tiles-choices').waitFor({ state: 'detached' });
    const order = () =>
      page.getByTestId('home-counts').locator('[data-testid^="home-count-"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')));
    const chosen = ['home-count-expiring30', 'home-count-total', 'home-count-online', 'home-count-alarm', 'home-count-expired'];
    await expect.poll(order).toEqual(chosen);
    await page.reload();
    await expect.poll(order).toEqual(chosen); // kept on the server
    await quietShot('views-home-en');
  });

  it('draws the cold room\'s energy per hour and per day, and the truck\'s track; the freezer has no energy tab', async () => {
    const { page } = session;
    await logInPastNotice(page, baseURL, 'alice', 'en-US');
    await page.goto(`${baseURL}/device/list/storage`);
    await page.locator('[data-testid="device-row"][data-device-name="Dock cold room"] [data-testid="device-link"]').click();
    await page.getByTestId('device-tab-energy').click();
    await page.getByTestId('device-energy').locator('canvas').first().waitFor();
    await expect(page.getByTestId('energy-total').textContent()).resolves.toMatch(/^Total \d+\.\d\d kWh$/);
    await page.getByTestId('range-7d').click();
    await page.getByTestId('energy-day').click();
    await expect.poll(() => page.getByTestId('energy-total').textContent()).toMatch(/^Total [1-9]\d+\.\d\d kWh$/);
    await quietShot('views-energy-en');

    await page.goto(`${baseURL}/device/list?deviceName=Truck`);
    await page.locator('[data-testid="device-row"] [data-testid="device-link"]').first().click();
    await expect(page.getByTestId('device-tab-energy').count()).resolves.toBe(0);
    await page.getByTestId('device-tab-map').click();
    await page.getByTestId('device-track-map').locator('path.leaflet-interactive').first().waitFor();
    await expect(page.getByTestId('device-last-position').textContent()).resolves.toContain('Last position');
    await expect(page.getByTestId('track-summary').textContent()).resolves.toMatch(/\d+ positions/);
    await quietShot('views-track-en');

    await page.goto(`${baseURL}/device/list/freezer`);
    await page.locator('[data-testid="device-row"] [data-testid="device-link"]').first().click();
    await page.getByTestId('device-tab-map').waitFor();
    await expect(page.getByTestId('device-tab-energy').count()).resolves.toBe(0);
  });
});

describe('the device views in Russian at phone width', () => {
  const phone = browserSession({ viewport: { width: 375, height: 812 }, locale: 'ru-RU' });

  it('reads in Russian and fits a phone', async () => {
    const { page } = phone;
    await logInPastNotice(page, baseURL, 'alice', 'ru-RU');
    await page.getByTestId('home-counts').waitFor();
    await expect(page.getByTestId('home-tiles-customise').textContent()).resolves.toBe(home.ru.tiles.open);
    await page.getByTestId('home-map').scrollIntoViewIfNeeded();
    await shot(page, 'views-home-ru-375');
    await page.getByTestId('home-tiles-customise').click();
    await page.getByTestId('home-tiles-choices').waitFor();
    await shot(page, 'views-home-tiles-dialog-ru-375');
    await page.keyboard.press('Escape');
    await page.goto(`${baseURL}/device/list?mode=board`);
    await expect.poll(() => page.getByTestId('board-card').count()).toBe(4);
    await shot(page, 'views-board-ru-375');
    await page.getByTestId('device-mode-map').click();
    await page.getByTestId('device-list-map').getByTestId('map-marker').first().waitFor();
    await expect(page.getByTestId('device-map-summary').textContent()).resolves.toContain('из 4');
    await shot(page, 'views-list-map-ru-375');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.goto(`${baseURL}/device/list/storage`);
    await page.locator('[data-testid="device-row"][data-device-name="Dock cold room"] [data-testid="device-link"]').click();
    await page.getByTestId('device-tab-energy').click();
    await page.getByTestId('device-energy').locator('canvas').first().waitFor();
    await expect(page.getByTestId('energy-total').textContent()).resolves.toContain('кВт·ч');
    await expect(page.getByTestId('energy-day').textContent()).resolves.toBe(devices.ru.energy.per.day);
    await shot(page, 'views-energy-ru-375');
  });
});

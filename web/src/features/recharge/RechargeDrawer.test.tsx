import { cleanup, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, renderApp, setUpI18n } from '@/test/harness';
import { setEditionConfig } from '@/lib/config';
import { RECHARGE_DRAWER_WIDTH, RechargeDrawer } from './RechargeDrawer';
import { RechargeFlow } from './RechargeFlow';
import { BASIC, deposit, DOMESTIC, FREE, INTERNATIONAL, LEVELS, PROFESSIONAL, rechargeServer } from './test/levelFixtures';

function open(deviceIds: number[] = [1]) {
  const onClose = vi.fn();
  const onBuyAlerts = vi.fn();
  const onAgreement = vi.fn();
  renderApp(
    <RechargeDrawer isOpen deviceIds={deviceIds} onClose={onClose} onBuyAlerts={onBuyAlerts} onAgreement={onAgreement} />,
  );
  return { onClose, onBuyAlerts, onAgreement };
}

const card = (name: string) => screen.getAllByTestId('level-card').find((element) => element.dataset.level === name)!;

beforeAll(setUpI18n);
afterEach(() => {
  setEditionConfig(DOMESTIC);
  vi.restoreAllMocks();
});

describe('RechargeDrawer', () => {
  it('is 1280 wide', () => {
    expect(RECHARGE_DRAWER_WIDTH).toBe(1280);
  });

  it('shows the device’s name, type, GUID, level, expiry and its SMS and voice counts, red at 50 or below', async () => {
    rechargeServer([deposit({ smsCount: 51, voiceCount: 50 })]);
    open();
    expect(await screen.findByTestId('recharge-device')).toBeInTheDocument();
    expect(screen.getByTestId('header-name')).toHaveTextContent('Cold room A logger');
    expect(screen.getByTestId('header-type')).toHaveTextContent('RCW-360 Wi-Fi Logger');
    expect(screen.getByTestId('header-guid')).toHaveTextContent('RCW360A0000001');
    expect(screen.getByTestId('header-level')).toHaveTextContent('Basic');
    expect(screen.getByTestId('header-expiry')).toHaveTextContent('2027-06-12');
    expect(screen.getByTestId('header-sms')).toHaveTextContent('SMS left51');
    expect(screen.getByTestId('sms-count')).toHaveAttribute('data-intent', 'success');
    expect(screen.getByTestId('header-voice')).toHaveTextContent('Voice calls left50');
    expect(screen.getByTestId('voice-count')).toHaveAttribute('data-intent', 'danger');
  });

  it('reads an expiry in 2099 as lifelong, and hides the voice count internationally', async () => {
    setEditionConfig(INTERNATIONAL);
    rechargeServer([deposit({ serviceExpiredDate: '2099-12-31' })]);
    open();
    expect(await screen.findByTestId('expiry-lifelong')).toHaveTextContent('Lifelong');
    expect(screen.getByTestId('header-sms')).toBeInTheDocument();
    expect(screen.queryByTestId('header-voice')).toBeNull();
  });

  it('prices the levels in whole yuan domestically, the list price struck through, with the discount and bonus badges', async () => {
    rechargeServer();
    open();
    await screen.findAllByTestId('level-card');
    const pro = card('Professional');
    expect(within(pro).getByTestId('level-price')).toHaveTextContent('¥159 / year');
    expect(within(pro).getByTestId('level-original')).toHaveTextContent('¥199');
    expect(within(pro).getByTestId('level-original').tagName).toBe('S');
    // The server writes the domestic '8折'; an English reader reads it as a share taken off.
    expect(within(pro).getByTestId('level-discount')).toHaveTextContent(/^20% off$/);
    expect(within(pro).getByTestId('level-bonus')).toHaveTextContent('+2 months free');
    expect(within(card('Basic')).getByTestId('level-price')).toHaveTextContent('¥99 / year');
    expect(within(card('Basic')).queryByTestId('level-original')).toBeNull();
    expect(within(card('Basic')).queryByTestId('level-discount')).toBeNull();
    expect(within(card('Free')).getByTestId('level-price')).toHaveTextContent('Free service');
  });

  it('prices the levels in dollars and cents internationally, with the share taken off', async () => {
    setEditionConfig(INTERNATIONAL);
    rechargeServer([deposit({ countryCode: '1' })]);
    open();
    await screen.findAllByTestId('level-card');
    const pro = card('Professional');
    expect(within(pro).getByTestId('level-price')).toHaveTextContent('$159.20 / year');
    expect(within(pro).getByTestId('level-original')).toHaveTextContent('$199.00');
    expect(within(pro).getByTestId('level-discount')).toHaveTextContent(/^20% off$/);
  });

  it('writes the discount badge as the reader’s language says it, in either edition', async () => {
    const seen: Record<string, string[]> = {};
    for (const edition of [DOMESTIC, INTERNATIONAL]) {
      setEditionConfig(edition);
      for (const language of ['zh-CN', 'zh-TW', 'ru-RU', 'de-DE', 'en-US']) {
        await i18next.changeLanguage(language);
        rechargeServer();
        open();
        const pro = (await screen.findAllByTestId('level-card')).find((node) => node.dataset.level === 'Professional')!;
        (seen[language] ??= []).push(within(pro).getByTestId('level-discount').textContent!);
        cleanup();
      }
    }
    await i18next.changeLanguage('en-US');
    expect(seen).toEqual({
      'zh-CN': ['8折', '8折'], 'zh-TW': ['8折', '8折'], 'ru-RU': ['−20 %', '−20 %'], 'de-DE': ['−20 %', '−20 %'],
      'en-US': ['20% off', '20% off'],
    });
  });

  it('labels each button by its kind, tags the current level and ticks the items each level includes', async () => {
    rechargeServer();
    open();
    await screen.findAllByTestId('level-card');
    const kinds = screen.getAllByTestId('level-button').map((button) => [button.dataset.kind, button.textContent]);
    expect(kinds).toEqual([
      ['onOrder', 'Free of charge'],
      ['renew', 'Renew'],
      ['buy', 'Buy now'],
    ]);
    expect(within(card('Basic')).getByTestId('level-current')).toHaveTextContent('Current');
    expect(within(card('Professional')).queryByTestId('level-current')).toBeNull();
    const items = within(card('Basic')).getAllByTestId('level-item');
    expect(items.map((item) => item.dataset.included)).toEqual(['true', 'true', 'false', 'false']);
    // The parenthesised part of the name is the item's detail.
    expect(items[0]).toHaveTextContent('Data query and export');
    expect(items[0]).toHaveTextContent('up to 3 years of history');
    expect(items[0]).not.toHaveTextContent('(');
  });

  it('does nothing when the free level is clicked', async () => {
    const api = rechargeServer();
    const { onAgreement } = open();
    await screen.findAllByTestId('level-card');
    const free = within(card('Free')).getByTestId('level-button');
    expect(free).toBeDisabled();
    await userEvent.setup().click(free);
    expect(screen.queryByTestId('paying-drawer')).toBeNull();
    expect(onAgreement).not.toHaveBeenCalled();
    expect(api.callsTo('GET /payment/PayServiceLevelYear/selectListByDomain')).toHaveLength(0);
  });

  it('opens the paying drawer with the year options of a paid level', async () => {
    const api = rechargeServer();
    open();
    await screen.findAllByTestId('level-card');
    await userEvent.setup().click(within(card('Professional')).getByTestId('level-button'));
    expect(await screen.findByTestId('paying-drawer')).toBeInTheDocument();
    expect(await screen.findAllByTestId('year-option')).toHaveLength(3);
    const params = api.callsTo('GET /payment/PayServiceLevelYear/selectListByDomain')[0]!.params;
    expect(Object.fromEntries(params)).toEqual({ deviceId: '1', levelId: '3', packageId: '1' });
  });

  it('offers automatic renewal, off, when paying for one device, and not for a batch', async () => {
    rechargeServer([deposit(), deposit({ deviceId: 2, deviceName: 'Cold room B logger' })]);
    open();
    await screen.findAllByTestId('level-card');
    await userEvent.setup().click(within(card('Professional')).getByTestId('level-button'));
    expect(await screen.findByTestId('auto-renew-switch')).not.toBeChecked();
    cleanup();

    open([1, 2]);
    await screen.findAllByTestId('level-card');
    await userEvent.setup().click(within(card('Professional')).getByTestId('level-button'));
    expect(await screen.findAllByTestId('year-option')).toHaveLength(3);
    expect(screen.queryByTestId('auto-renew-option')).toBeNull();
  });

  it('sends a device renewed automatically to the un-agreement drawer instead', async () => {
    rechargeServer([deposit({ deviceId: 5, deviceName: 'Pharmacy freezer', agreementStatus: 1 })]);
    const { onAgreement } = open([5]);
    await screen.findAllByTestId('level-card');
    await userEvent.setup().click(within(card('Professional')).getByTestId('level-button'));
    expect(onAgreement).toHaveBeenCalledWith(5);
    expect(screen.queryByTestId('paying-drawer')).toBeNull();
  });

  it('offers nothing to buy for a device the caller may only read, and says why', async () => {
    rechargeServer([deposit({ access: 1, agreementStatus: 1 })]);
    const { onBuyAlerts, onAgreement } = open();
    expect(await screen.findByTestId('recharge-read-only')).toHaveTextContent(
      'Read-only: you are a member of the organization that owns this device',
    );
    expect(within(screen.getByTestId('recharge-device')).getByTestId('read-only')).toBeInTheDocument();
    const buttons = await screen.findAllByTestId('level-button');
    expect(buttons.every((button) => (button as HTMLButtonElement).disabled)).toBe(true);
    await userEvent.setup().click(within(card('Professional')).getByTestId('level-button'));
    expect(screen.queryByTestId('paying-drawer')).toBeNull();
    expect(onAgreement).not.toHaveBeenCalled();
    expect(screen.queryByTestId('buy-alerts')).toBeNull();
    expect(onBuyAlerts).not.toHaveBeenCalled();
  });

  it('offers nothing to buy for a batch holding a device the caller may only read', async () => {
    rechargeServer([deposit(), deposit({ deviceId: 8, deviceName: 'Warehouse 1 door logger', access: 1 })]);
    open([1, 8]);
    expect(await screen.findByTestId('recharge-read-only')).toBeInTheDocument();
    const rows = await screen.findAllByTestId('batch-row');
    expect(rows.map((r) => within(r).queryByTestId('read-only') !== null)).toEqual([false, true]);
    expect((await screen.findAllByTestId('level-button')).every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    expect(screen.queryByTestId('buy-alerts')).toBeNull();
  });

  it('shows the activity’s validity when the first level carries it', async () => {
    rechargeServer(undefined, { 'GET /payment/PayServicePackages/selectLevelList': () => envelope([PROFESSIONAL, FREE, BASIC]) });
    open();
    expect(await screen.findByTestId('activity-validity')).toHaveTextContent('Offer valid 2026-11-14 13:11 – 2026-12-14 13:11');
  });

  it('shows no validity when the first level has no activity', async () => {
    rechargeServer();
    open();
    await screen.findAllByTestId('level-card');
    expect(LEVELS[0]!.activityId).toBeNull();
    expect(screen.queryByTestId('activity-validity')).toBeNull();
  });

  it('lists a batch with each device’s service, and offers SMS and voice for all of them', async () => {
    rechargeServer([deposit(), deposit({ deviceId: 2, deviceName: 'Cold room B logger', deviceGuid: 'RCW360A0000002', smsCount: 8 })]);
    const { onBuyAlerts } = open([1, 2]);
    const table = await screen.findByTestId('batch-table');
    expect(screen.getByText('Batch recharge · 2 devices')).toBeInTheDocument();
    const rows = within(table).getAllByTestId('batch-row');
    expect(rows[1]).toHaveTextContent('Cold room B logger');
    expect(rows[1]).toHaveTextContent('RCW360A0000002');
    expect(rows[1]).toHaveTextContent('Basic');
    expect(within(table).queryByText('Country code')).toBeNull();
    expect(within(table).getByText('Voice calls left')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByTestId('buy-alerts'));
    expect(onBuyAlerts).toHaveBeenCalledWith([1, 2]);
  });

  it('tags no level as current in a batch whose devices are on different levels', async () => {
    rechargeServer([deposit(), deposit({ deviceId: 2, levelId: 3, levelName: 'Professional' })]);
    open([1, 2]);
    await screen.findAllByTestId('level-card');
    expect(screen.queryByTestId('level-current')).toBeNull();
  });

  it('shows the country code column of a batch only internationally', async () => {
    setEditionConfig(INTERNATIONAL);
    rechargeServer([deposit({ countryCode: '1' }), deposit({ deviceId: 2, countryCode: '44' })]);
    open([1, 2]);
    const table = await screen.findByTestId('batch-table');
    expect(within(table).getByText('Country code')).toBeInTheDocument();
    expect(within(table).getAllByTestId('batch-row')[1]).toHaveTextContent('+44');
  });

  it('asks for no levels for a device whose node type has none', async () => {
    const api = rechargeServer([deposit({ nodeType: 2 })]);
    open();
    expect(await screen.findByTestId('recharge-no-levels')).toBeInTheDocument();
    expect(api.callsTo('GET /payment/PayServicePackages/selectLevelList')).toHaveLength(0);
    expect(api.callsTo('GET /payment/PayServiceItem/selectAllServiceItemByDevice')).toHaveLength(0);
  });

  it('hides the SMS link when the levels cannot be loaded', async () => {
    rechargeServer(undefined, {
      'GET /payment/PayServicePackages/selectLevelList': () => envelope(null, 500, 500, 'boom'),
    });
    open();
    expect(await screen.findByText('The service levels could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByTestId('buy-alerts')).toBeNull();
  });
});

describe('RechargeFlow', () => {
  it('opens the SMS and voice drawer for the devices of the recharge drawer', async () => {
    rechargeServer([deposit()], {
      'GET /payment/PaySmsPackages/selectSmsPackage': () => envelope({ smsList: [], voiceList: [] }),
    });
    renderApp(<RechargeFlow isOpen deviceIds={[1]} onClose={() => {}} />);
    await screen.findAllByTestId('level-card');
    await userEvent.setup().click(screen.getByTestId('buy-alerts'));
    expect(await screen.findByText('Buy SMS and Voice Package')).toBeInTheDocument();
  });
});

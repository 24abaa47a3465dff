import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { editionConfig, setEditionConfig } from '@/lib/config';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import { KEYS, read, write } from '@/lib/storage';
import { browser } from './browser';
import { switchLanguage } from './header/LanguageSwitcher';
import { settingsStore } from './settings/settings';
import { tabStore } from './tabs/tabStore';
import { accountInfo, envelope, fakeServer, givePagesToEveryRoute, renderLayout, setUpI18n } from './testing';

// Every route has a page here (see givePagesToEveryRoute); tests of honesty take some away.
const pages = vi.hoisted(() => ({}) as Record<string, unknown>);
vi.mock('@/app/pages', () => ({ PAGES: pages }));
vi.mock('@/features/dialogs/SessionDialogs', () => ({ SessionDialogs: () => <div data-testid="session-dialogs" /> }));

beforeAll(setUpI18n);
beforeEach(() => givePagesToEveryRoute(pages));
afterEach(async () => {
  session.clear();
  tabStore.clear();
  settingsStore.reload();
  vi.restoreAllMocks();
  if (i18next.language !== 'en-US') await changeLanguage('en-US');
});

describe('header', () => {
  it('shows the VIP expiry count and Renew to members, leading to the VIP service', async () => {
    const { router } = renderLayout({ info: accountInfo({ premiumState: { state: 1, expiredCount: 200 } }) });
    const badge = screen.getByTestId('vip-badge');
    expect(badge).toHaveTextContent('VIP');
    expect(badge).toHaveTextContent('200 days left');
    await userEvent.setup().click(within(badge).getByRole('button', { name: 'Renew' }));
    expect(router.state.location.pathname).toBe('/vip/service');
  });

  it('shows Standard and the upgrade to everyone else', async () => {
    const { router } = renderLayout({ info: accountInfo({ premiumState: { state: 0, expiredCount: 0 } }) });
    const badge = screen.getByTestId('vip-badge');
    expect(badge).toHaveTextContent('Standard');
    await userEvent.setup().click(within(badge).getByRole('button', { name: 'Upgrade' }));
    expect(router.state.location.pathname).toBe('/vip/service');
  });

  it.each([
    [2, 1600, true],
    [9, 1600, false],
    [2, 390, true],
    [9, 390, false],
  ])('account type %i at %i px: a VIP level shown %s (back-office accounts have none)', async (accountType, width, shown) => {
    const base = accountInfo().baseAccount;
    renderLayout({ info: accountInfo({ baseAccount: { ...base, accountType }, premiumState: { state: 0, expiredCount: 0 } }), width });
    if (width < 576) {
      // phones gather it under "more"
      await userEvent.setup().click(screen.getByTestId('header-more'));
      await screen.findByText('Display settings');
    }
    expect(screen.queryAllByTestId('vip-badge')).toHaveLength(shown ? 1 : 0);
  });

  it('says so when the browser does not support full screen', async () => {
    vi.spyOn(browser, 'fullscreenSupported').mockReturnValue(false);
    const toggle = vi.spyOn(browser, 'toggleFullscreen');
    const warning = vi.spyOn(notify, 'warning').mockImplementation(() => {});
    renderLayout();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Full screen' }));
    expect(warning).toHaveBeenCalledWith('Your browser does not support full screen');
    expect(toggle).not.toHaveBeenCalled();
  });

  it('enters full screen where the browser supports it', async () => {
    vi.spyOn(browser, 'fullscreenSupported').mockReturnValue(true);
    const toggle = vi.spyOn(browser, 'toggleFullscreen').mockResolvedValue();
    renderLayout();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Full screen' }));
    expect(toggle).toHaveBeenCalledTimes(1);
  });

  it('links to the download centre', async () => {
    const { router } = renderLayout();
    await userEvent.setup().click(screen.getByTestId('download-link'));
    expect(router.state.location.pathname).toBe('/consumer/download');
  });

  it('badges the download link with the exports ready to download', async () => {
    fakeServer({ 'GET /device/DeviceDataExport/readyCount': () => envelope({ count: 2 }) });
    renderLayout();
    expect(await screen.findByTestId('download-count')).toHaveTextContent('2');
    expect(screen.getByTestId('download-link')).toHaveAttribute('aria-label', 'Downloads: 2 files ready');
  });

  it('switches the language from a menu of the seven languages', async () => {
    const { calls } = fakeServer({
      'POST /base/BaseAccount/modifyPreferences': () => envelope(null),
      'GET /base/BaseAccount/accountInfo': () => envelope(accountInfo({ baseAccount: { ...accountInfo().baseAccount, language: 'de-DE' } })),
      'GET /base/BaseAccount/getScenePermissionList': () => envelope(accountInfo().permissionRoutes),
    });
    renderLayout();
    const user = userEvent.setup();
    await user.click(screen.getByTestId('language-switcher'));
    const options = await screen.findAllByRole('menuitem');
    const codes = options.map((o) => o.getAttribute('data-lang')).filter(Boolean);
    expect(codes).toEqual(['en-US', 'zh-CN', 'es-ES', 'ru-RU', 'pt-PT', 'de-DE', 'zh-TW']);
    await user.click(options.find((o) => o.getAttribute('data-lang') === 'de-DE')!);
    await waitFor(() => expect(screen.getByTestId('language-switcher')).toHaveTextContent('Deutsch'));
    expect(read(KEYS.language, null)).toBe('de-DE');
    expect(screen.getByRole('button', { name: 'Vollbild' })).toBeInTheDocument();
    // Signed in, the account keeps the choice, before the account is read again.
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('GET /base/BaseAccount/accountInfo'));
    const saved = calls.findIndex((c) => c.path === '/base/BaseAccount/modifyPreferences');
    expect(calls[saved]?.body).toEqual({ language: 'de-DE' });
    expect(saved).toBeLessThan(calls.findIndex((c) => c.path === '/base/BaseAccount/accountInfo'));
  });

  it('switches only this browser when nobody is signed in', async () => {
    session.clear();
    const { calls } = fakeServer({});
    await switchLanguage('ru-RU', new QueryClient());
    expect(read(KEYS.language, null)).toBe('ru-RU');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('has help and customer service in the console, not on the global map', () => {
    renderLayout();
    expect(screen.getByTestId('help-link')).toHaveAttribute('href', '/help/center');
    expect(screen.getByTestId('customer-service')).toBeInTheDocument();
  });

  it('shows the language prominently on the global map and hides VIP, help and customer service', () => {
    renderLayout({ variant: 'globalMap', path: '/marketVisualization/home' });
    expect(screen.getByTestId('language-switcher')).toHaveTextContent('English');
    expect(screen.queryByTestId('vip-badge')).toBeNull();
    expect(screen.queryByTestId('help-link')).toBeNull();
    expect(screen.queryByTestId('customer-service')).toBeNull();
  });

  it('renders the session dialogs once', () => {
    renderLayout();
    expect(screen.getAllByTestId('session-dialogs')).toHaveLength(1);
  });
});

describe('honest menus', () => {
  it('offers no item, link or button whose page is not built, and drops a group left empty', () => {
    for (const name of ['consumerInfo', 'consumerWallet', 'consumerDownload', 'helpCenter', 'vipService']) delete pages[name];
    renderLayout({ info: accountInfo({ premiumState: { state: 1, expiredCount: 200 } }), scenePermissions: ['home', 'device.list', 'consumer.info', 'consumer.wallet', 'consumer.download'] });
    const sidebar = screen.getByTestId('sidebar');
    expect(within(sidebar).getByTestId('menu-deviceList')).toBeInTheDocument();
    for (const name of ['consumerInfo', 'consumerWallet', 'consumerDownload']) {
      expect(within(sidebar).queryByTestId(`menu-${name}`)).toBeNull();
    }
    expect(within(sidebar).queryByRole('button', { name: 'User centre' })).toBeNull();
    expect(screen.queryByTestId('download-link')).toBeNull();
    expect(screen.queryByTestId('help-link')).toBeNull();
    expect(screen.getByTestId('vip-badge')).toHaveTextContent('200 days left');
    expect(within(screen.getByTestId('vip-badge')).queryByRole('button')).toBeNull();
  });
});

describe('menu', () => {
  it('lists the items the scene permits, highlighting the current page', () => {
    renderLayout({ path: '/device/list' });
    const sidebar = screen.getByTestId('sidebar');
    expect(within(sidebar).getByTestId('menu-deviceList')).toHaveAttribute('aria-current', 'page');
    expect(within(sidebar).getByTestId('menu-home')).not.toHaveAttribute('aria-current');
    expect(within(sidebar).getByTestId('menu-consumerWallet')).toBeInTheDocument();
    expect(within(sidebar).queryByTestId('menu-waybillList')).toBeNull();
  });

  it('navigates on click', async () => {
    const { router } = renderLayout();
    await userEvent.setup().click(within(screen.getByTestId('sidebar')).getByTestId('menu-consumerInfo'));
    expect(router.state.location.pathname).toBe('/consumer/info');
  });

  it('opens external routes in a new window and stays on the page', async () => {
    const original = editionConfig();
    setEditionConfig({ ...original, externalLinks: { plc: 'https://plc.example.com/' } });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    try {
      const { router } = renderLayout();
      await userEvent.setup().click(within(screen.getByTestId('sidebar')).getByTestId('menu-plc'));
      expect(router.state.location.pathname).toBe('/home');
      expect(open).toHaveBeenCalledWith('https://plc.example.com/', '_blank', 'noopener');
    } finally {
      setEditionConfig(original);
    }
  });

  it('leaves out an external route when no outside site is configured for it', () => {
    renderLayout();
    expect(within(screen.getByTestId('sidebar')).queryByTestId('menu-plc')).toBeNull();
  });

  it('collapses to icons with tooltips, and remembers it', async () => {
    renderLayout();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Collapse menu' }));
    expect(read(KEYS.sidebar, null)).toBe(0);
    const home = within(screen.getByTestId('sidebar')).getByTestId('menu-home');
    expect(home).toHaveAccessibleName('Home');
    expect(home).not.toHaveTextContent('Home');
    await user.click(screen.getByRole('button', { name: 'Expand menu' }));
    expect(read(KEYS.sidebar, null)).toBe(1);
  });

  it('starts collapsed on tablets', () => {
    renderLayout({ width: 1024 });
    expect(screen.getByRole('button', { name: 'Expand menu' })).toBeInTheDocument();
    expect(read(KEYS.sidebar, null)).toBeNull();
  });

  it('becomes a drawer on phones', async () => {
    renderLayout({ width: 390 });
    expect(screen.queryByTestId('sidebar')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Open menu' }));
    expect(await screen.findByTestId('sidebar')).toBeInTheDocument();
  });
});

describe('tab bar', () => {
  it('opens a tab per visited page and goes back to it on click', async () => {
    const { router } = renderLayout();
    await act(() => router.navigate('/device/list'));
    const bar = screen.getByTestId('tab-bar');
    expect(within(bar).getByTestId('tab-home')).toHaveTextContent('Home');
    expect(within(bar).getByTestId('tab-deviceList')).toHaveAttribute('aria-selected', 'true');
    await userEvent.setup().click(within(bar).getByTestId('tab-home'));
    expect(router.state.location.pathname).toBe('/home');
  });

  it('activates the neighbour when the active tab closes', async () => {
    const { router } = renderLayout();
    await act(() => router.navigate('/device/list'));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close Cold-chain monitoring' }));
    expect(router.state.location.pathname).toBe('/home');
    expect(screen.queryByTestId('tab-deviceList')).toBeNull();
  });

  it('will not close the last tab and says why', async () => {
    const info = vi.spyOn(notify, 'info').mockImplementation(() => {});
    renderLayout();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close Home' }));
    expect(info).toHaveBeenCalledWith('This is the last tab and cannot be closed');
    expect(screen.getByTestId('tab-home')).toBeInTheDocument();
  });

  it('closes tabs from the context menu, with a message when there are none to the right', async () => {
    const info = vi.spyOn(notify, 'info').mockImplementation(() => {});
    const { router } = renderLayout();
    await act(() => router.navigate('/device/list'));
    await act(() => router.navigate('/consumer/info'));
    const user = userEvent.setup();
    fireEvent.contextMenu(screen.getByTestId('tab-consumerInfo'));
    await user.click(await screen.findByTestId('tab-menu-close-right'));
    expect(info).toHaveBeenCalledWith('There are no tabs on the right');

    fireEvent.contextMenu(screen.getByTestId('tab-deviceList'));
    await user.click(await screen.findByTestId('tab-menu-close-left'));
    expect(screen.queryByTestId('tab-home')).toBeNull();

    fireEvent.contextMenu(screen.getByTestId('tab-deviceList'));
    await user.click(await screen.findByTestId('tab-menu-close-all'));
    expect(tabStore.get().tabs.map((t) => t.name)).toEqual(['home']);
    expect(router.state.location.pathname).toBe('/home');
  });

  it('is hidden when the multi-tab setting is off', () => {
    write(KEYS.multiTab, false);
    settingsStore.reload();
    renderLayout();
    expect(screen.queryByTestId('tab-bar')).toBeNull();
  });
});

describe('footer', () => {
  it('shows the copyright, the filing information and the version link', async () => {
    write(KEYS.customData, {
      id: 1, topDomain: 'demo.localhost', title: 'Demo Cloud', companyName: 'Demo Refrigeration Ltd.',
      defaultCamp: 1, enableRegister: 0, useElitechLogo: 0, forceHttps: 0, recordNumber: 'ICP 00000000-1',
      recordConnection: 'https://beian.miit.gov.cn/', policeFiling: 'Police 123', policeConnection: null,
      recordCompany: 'Demo Filing Co.',
    });
    const { router } = renderLayout();
    const footer = screen.getByTestId('footer');
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()} Demo Refrigeration Ltd.`);
    expect(within(footer).getByRole('link', { name: 'ICP 00000000-1' })).toHaveAttribute('href', 'https://beian.miit.gov.cn/');
    expect(within(footer).queryByRole('link', { name: 'Police 123' })).toBeNull();
    expect(footer).toHaveTextContent('Police 123');
    expect(footer).toHaveTextContent('Demo Filing Co.');
    await userEvent.setup().click(within(footer).getByTestId('version-link'));
    expect(router.state.location.pathname).toBe('/version/manage');
    expect(screen.queryByText('Version 1.2.3')).not.toBeNull();
  });
});

describe('display settings', () => {
  it('applies and stores colour weakness and the theme colour at once', async () => {
    renderLayout();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Display settings' }));
    await user.click(await screen.findByText('Colour weakness mode'));
    expect(document.documentElement).toHaveClass('jc-colour-weak');
    expect(read(KEYS.colorWeak, null)).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'Orange' }));
    expect(read(KEYS.theme, null)).toBe('#ec6c00');
    expect(document.documentElement.style.getPropertyValue('--jc-theme')).toBe('#ec6c00');
    await user.click(screen.getByRole('button', { name: 'Restore defaults' }));
    expect(document.documentElement).not.toHaveClass('jc-colour-weak');
    expect(read(KEYS.theme, null)).toBeNull();
    expect(document.documentElement.style.getPropertyValue('--jc-theme')).toBe('#547df2');
  });

  it('hides the header on scroll only when auto-hide is on', async () => {
    write(KEYS.autoHideHeader, true);
    settingsStore.reload();
    const { container } = renderLayout();
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 600 });
    act(() => void window.dispatchEvent(new Event('scroll')));
    expect(container.querySelector('.jc-layout')).toHaveClass('is-header-hidden');
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
    act(() => void window.dispatchEvent(new Event('scroll')));
    expect(container.querySelector('.jc-layout')).not.toHaveClass('is-header-hidden');
  });
});

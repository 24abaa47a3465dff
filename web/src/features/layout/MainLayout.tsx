import { Classes, Drawer, Position } from '@blueprintjs/core';
import { useEffect, useMemo, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { findRoute } from '@/app/guard';
import { offeredRoutes } from '@/app/offered';
import type { RouteDef } from '@/app/routes';
import { cachedCustomPage } from '@/lib/api/customPage';
import type { Breakpoint } from '@/lib/device';
import { useSession } from '@/lib/session';
import { useSlots } from '@/lib/slots';
import { useAutoHideHeader } from './frame/autoHideHeader';
import { Footer } from './frame/Footer';
import { useBreakpoint } from './frame/useBreakpoint';
import { useStoredLook } from './frame/useStoredLook';
import { Brand } from './header/Brand';
import { Header, type HeaderVariant } from './header/Header';
import { SceneSelector } from './header/SceneSelector';
import { buildMenu, defaultPath, menuEntries } from './menu/buildMenu';
import { SideMenu } from './menu/SideMenu';
import { settingsStore, useLayoutSettings } from './settings/settings';
import { SettingsDrawer } from './settings/SettingsDrawer';
import { TabBar } from './tabs/TabBar';
import { openTab } from './tabs/tabRules';
import { tabStore } from './tabs/tabStore';

export interface MainLayoutProps {
  /** `globalMap` (the market visualization) shows the language prominently and hides VIP, help and service. */
  variant?: HeaderVariant;
}

/** Which menu item to light: the current page's, else the one last lit (a detail page keeps its list lit). */
function useActiveMenuItem(menuNames: ReadonlySet<string>, routeName: string | null): string | null {
  const [last, setLast] = useState<string | null>(null);
  const current = routeName && menuNames.has(routeName) ? routeName : null;
  useEffect(() => {
    if (current) setLast(current);
  }, [current]);
  return current ?? (last && menuNames.has(last) ? last : null);
}

/** The sidebar's state: collapsed as stored on desktops, collapsed at first on tablets, a drawer on phones. */
function useMenuState(breakpoint: Breakpoint, storedCollapsed: boolean) {
  const [tabletCollapsed, setTabletCollapsed] = useState(true);
  const [drawerOpen, setDrawerOpen] = useState(false);
  useEffect(() => {
    if (breakpoint === 'tablet') setTabletCollapsed(true);
    if (breakpoint !== 'mobile') setDrawerOpen(false);
  }, [breakpoint]);
  const toggle = () => {
    if (breakpoint === 'mobile') setDrawerOpen((open) => !open);
    else if (breakpoint === 'tablet') setTabletCollapsed((was) => !was);
    else settingsStore.update({ sidebarCollapsed: !storedCollapsed });
  };
  const collapsed = breakpoint === 'tablet' ? tabletCollapsed : storedCollapsed;
  return { collapsed, drawerOpen, closeDrawer: () => setDrawerOpen(false), toggle };
}

/** Every visited console page opens (or re-activates) its tab; the tabs belong to the signed-in account. */
function useTabTracking(accountId: number | undefined, route: RouteDef | null, path: string): void {
  useEffect(() => {
    if (accountId !== undefined) tabStore.claim(accountId);
    if (route) tabStore.set(openTab(tabStore.get(), { name: route.name, path }));
  }, [accountId, route, path]);
}

/** The console's frame: fixed header, dark sidebar menu built from the scene's permissions, tabs, content, footer. */
export function MainLayout({ variant = 'main' }: MainLayoutProps) {
  const { t } = useTranslation('layout');
  const { SessionDialogs } = useSlots();
  const location = useLocation();
  const breakpoint = useBreakpoint();
  const settings = useLayoutSettings();
  const { info, sceneId, scenePermissions } = useSession();
  const page = cachedCustomPage();
  const styleModel = page?.styleModel;

  const sections = useMemo(
    () => buildMenu(offeredRoutes(), scenePermissions, sceneId, { walletStatus: info?.userProfile.walletStatus, styleModel }),
    [scenePermissions, sceneId, info, styleModel],
  );
  const menuNames = useMemo(() => new Set(menuEntries(sections).map((entry) => entry.name)), [sections]);
  const route = findRoute(location.pathname);
  const activeItem = useActiveMenuItem(menuNames, route?.name ?? null);

  const { collapsed, drawerOpen, closeDrawer, toggle: toggleMenu } = useMenuState(breakpoint, settings.sidebarCollapsed);
  const [settingsOpen, setSettingsOpen] = useState(false);

  const headerHidden = useAutoHideHeader(settings.fixedHeader && settings.autoHideHeader);
  useStoredLook();

  const landing = defaultPath(styleModel);
  const home = useMemo(() => ({ name: findRoute(landing)?.name ?? 'home', path: landing }), [landing]);
  useTabTracking(info?.baseAccount.id, route, location.pathname + location.search);

  const mobile = breakpoint === 'mobile';
  const className = [
    'jc-layout',
    `jc-layout--${breakpoint}`,
    variant === 'globalMap' ? 'jc-layout--global-map' : '',
    collapsed && !mobile ? 'is-collapsed' : '',
    settings.fixedHeader ? 'has-fixed-header' : '',
    settings.fixedSidebar ? 'has-fixed-sidebar' : '',
    headerHidden ? 'is-header-hidden' : '',
  ].filter(Boolean).join(' ');
  const style = { '--jc-sidebar-width': mobile ? '0px' : collapsed ? 'var(--jc-sidebar-collapsed)' : 'var(--jc-sidebar)' } as CSSProperties;

  return (
    <div className={className} style={style}>
      <Header
        variant={variant}
        breakpoint={breakpoint}
        menuCollapsed={mobile ? !drawerOpen : collapsed}
        onToggleMenu={toggleMenu}
        onOpenSettings={() => setSettingsOpen(true)}
      />
      <div className="jc-body">
        {!mobile && (
          <aside className="jc-sidebar" data-testid="sidebar" aria-label={t('nav.label')}>
            <SideMenu key={`${sceneId}-${collapsed}`} sections={sections} activeName={activeItem} collapsed={collapsed} />
          </aside>
        )}
        <div className="jc-main">
          {settings.multiTab && <TabBar home={home} />}
          <main className="jc-content" id="jc-content">
            <Outlet />
          </main>
          <Footer />
        </div>
      </div>
      {mobile && (
        <Drawer
          isOpen={drawerOpen}
          onClose={closeDrawer}
          position={Position.LEFT}
          size="var(--jc-sidebar)"
          className="jc-menu-drawer"
          aria-label={t('nav.label')}
        >
          <div className={`jc-sidebar jc-sidebar--drawer ${Classes.DARK}`} data-testid="sidebar">
            <div className="jc-drawer-head">
              <Brand showTitle />
            </div>
            <div className="jc-drawer-scene">
              <SceneSelector />
            </div>
            <SideMenu sections={sections} activeName={activeItem} collapsed={false} onChosen={closeDrawer} />
          </div>
        </Drawer>
      )}
      <SettingsDrawer isOpen={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <SessionDialogs />
    </div>
  );
}

/** The market visualization's frame: the main layout in its global-map variant. */
export function GlobalMapLayout() {
  return <MainLayout variant="globalMap" />;
}

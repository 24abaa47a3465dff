import { Button, Tooltip } from '@blueprintjs/core';
import { MenuClosedIcon, MenuIcon, MenuOpenIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import type { Breakpoint } from '@/lib/device';
import { useSession } from '@/lib/session';
import { useSlots } from '@/lib/slots';
import { Brand } from './Brand';
import { FullScreenToggle } from './FullScreenToggle';
import { CustomerService, DownloadLink, headerOffers, HelpLink, SettingsButton } from './HeaderLinks';
import { LanguageSwitcher } from './LanguageSwitcher';
import { MoreMenu } from './MoreMenu';
import { SceneSelector } from './SceneSelector';
import { UserMenu } from './UserMenu';
import { VIP_SERVICE_PATH, VipBadge } from './VipBadge';

const DOWNLOAD_PERMISSION = 'consumer.download';

/** `main` is the console; `globalMap` shows the language prominently and no VIP, help or service items. */
export type HeaderVariant = 'main' | 'globalMap';

export interface HeaderProps {
  /** Console or global map. */
  variant: HeaderVariant;
  /** The window's breakpoint: phones get a compact header. */
  breakpoint: Breakpoint;
  /** The sidebar is collapsed (or, on phones, the menu drawer is closed). */
  menuCollapsed: boolean;
  /** Collapses or expands the sidebar (opens the drawer on phones). */
  onToggleMenu: () => void;
  /** Opens the display settings. */
  onOpenSettings: () => void;
}

/** The console's top bar: brand, menu toggle, scene, and the account's tools on the right. */
export function Header({ variant, breakpoint, menuCollapsed, onToggleMenu, onOpenSettings }: HeaderProps) {
  const { t } = useTranslation('layout');
  const { permissions } = useSession();
  const { MessageBell } = useSlots();
  const mobile = breakpoint === 'mobile';
  const desktop = breakpoint === 'desktop';
  const service = variant === 'main';
  const offers = headerOffers(VIP_SERVICE_PATH);
  const download = permissions.has(DOWNLOAD_PERMISSION) && offers.download;
  const toggleLabel = mobile ? t('nav.open') : t(menuCollapsed ? 'nav.expand' : 'nav.collapse');

  const toggle = (
    <Tooltip content={toggleLabel} placement="bottom" disabled={mobile}>
      <Button
        variant="minimal"
        icon={mobile ? <MenuIcon /> : menuCollapsed ? <MenuOpenIcon /> : <MenuClosedIcon />}
        aria-label={toggleLabel}
        aria-expanded={!menuCollapsed}
        data-testid="menu-toggle"
        onClick={onToggleMenu}
      />
    </Tooltip>
  );

  return (
    <header className="jc-header" data-testid="header">
      <div className="jc-header-brand">
        {mobile && toggle}
        <Brand showTitle={mobile || !menuCollapsed} />
      </div>
      <div className="jc-header-bar">
        <div className="jc-header-left">
          {!mobile && toggle}
          {!mobile && <SceneSelector compact={!desktop} />}
        </div>
        <div className="jc-header-right">
          {service && !mobile && <VipBadge compact={!desktop} withAction={offers.vip} />}
          {service && <MessageBell />}
          {!mobile && download && <DownloadLink showLabel={desktop} />}
          {!mobile && <FullScreenToggle />}
          {service && !mobile && offers.help && <HelpLink />}
          {service && !mobile && offers.customerService && <CustomerService />}
          <LanguageSwitcher showName={variant === 'globalMap' ? !mobile : desktop} prominent={variant === 'globalMap'} />
          {!mobile && <SettingsButton onOpen={onOpenSettings} />}
          {mobile && <MoreMenu withServiceItems={service} withDownload={download} offers={offers} onOpenSettings={onOpenSettings} />}
          <UserMenu showName={desktop} />
        </div>
      </div>
    </header>
  );
}

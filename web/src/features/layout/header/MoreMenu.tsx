import { Button, Menu, MenuDivider, MenuItem, PopoverNext } from '@blueprintjs/core';
import { CogIcon, CrownIcon, DownloadIcon, HeadsetIcon, HelpIcon, MoreIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '@/lib/session';
import { browser } from '../browser';
import { customerServiceUrl, DOWNLOAD_PATH, HELP_PATH, type HeaderOffers } from './HeaderLinks';
import { hasVipLevel, PREMIUM_MEMBER, VIP_SERVICE_PATH } from './VipBadge';

export interface MoreMenuProps {
  /** Include the VIP, help and customer-service entries (not on the global map). */
  withServiceItems: boolean;
  /** Include the download centre. */
  withDownload: boolean;
  /** Which of the links lead to a page (the rest are left out). */
  offers: HeaderOffers;
  /** Opens the display settings drawer. */
  onOpenSettings: () => void;
}

/** On phones the header's secondary actions gather under one "more" button. */
export function MoreMenu({ withServiceItems, withDownload, offers, onOpenSettings }: MoreMenuProps) {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const { info } = useSession();
  const member = info?.premiumState.state === PREMIUM_MEMBER;
  // The account whose VIP level the menu shows: a customer's, in the service items.
  const vip = withServiceItems && info && hasVipLevel(info) ? info : null;
  return (
    <PopoverNext
      placement="bottom-end"
      arrow={false}
      animation="minimal"
      shouldReturnFocusOnClose={false}
      content={
        <Menu>
          {vip && (
            <MenuItem
              icon={<CrownIcon />}
              data-testid="vip-badge"
              className={member ? 'jc-more-vip is-member' : 'jc-more-vip'}
              text={member ? `${t('vip.member')} · ${t('vip.daysLeft', { count: vip.premiumState.expiredCount })}` : t('vip.standard')}
              label={offers.vip ? t(member ? 'vip.renew' : 'vip.open') : undefined}
              onClick={offers.vip ? () => navigate(VIP_SERVICE_PATH) : undefined}
            />
          )}
          {vip && <MenuDivider />}
          {withDownload && <MenuItem icon={<DownloadIcon />} text={t('download')} onClick={() => navigate(DOWNLOAD_PATH)} />}
          {withServiceItems && (
            <>
              {offers.help && <MenuItem icon={<HelpIcon />} text={t('help')} href={HELP_PATH} target="_blank" rel="noopener" />}
              {offers.customerService && (
                <MenuItem icon={<HeadsetIcon />} text={t('service.label')} onClick={() => browser.openWindow(customerServiceUrl())} />
              )}
            </>
          )}
          <MenuItem icon={<CogIcon />} text={t('settings.open')} onClick={onOpenSettings} />
        </Menu>
      }
    >
      <Button variant="minimal" icon={<MoreIcon />} aria-label={t('nav.more')} data-testid="header-more" />
    </PopoverNext>
  );
}

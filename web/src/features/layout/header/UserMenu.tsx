import { Button, Menu, MenuDivider, MenuItem, PopoverNext } from '@blueprintjs/core';
import { CaretDownIcon, LogOutIcon, SwapHorizontalIcon, UserIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { cachedCustomPage } from '@/lib/api/customPage';
import { useSession } from '@/lib/session';
import { Avatar } from '@/components/Avatar';
import { ChangePlatformAlert } from './ChangePlatformAlert';
import { LogoutAlert } from './LogoutAlert';

const ACCOUNT_PAGE = '/consumer/info';
const ACCOUNT_PERMISSION = 'consumer.info';

export interface UserMenuProps {
  /** Show the user name next to the photo (wide screens). */
  showName: boolean;
}

/** The account's photo and name, opening My account, Change platform (customised platforms) and Log out. */
export function UserMenu({ showName }: UserMenuProps) {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const { info, permissions } = useSession();
  const [confirming, setConfirming] = useState<'logout' | 'platform' | null>(null);
  const account = info?.baseAccount;
  const name = account?.userName ?? '';
  const contact = account?.email || account?.phone || '';
  const customised = cachedCustomPage() !== null;

  return (
    <>
      <PopoverNext
        placement="bottom-end"
        arrow={false}
      animation="minimal"
      shouldReturnFocusOnClose={false}
        content={
          <Menu className="jc-user-menu" aria-label={t('user.menu')}>
            <li className="jc-user-card" role="none">
              <Avatar name={name} photo={account?.accountPhoto} size={40} />
              <div className="jc-user-card-text">
                <strong>{name}</strong>
                {contact && <span>{contact}</span>}
              </div>
            </li>
            <MenuDivider />
            {permissions.has(ACCOUNT_PERMISSION) && (
              <MenuItem icon={<UserIcon />} text={t('user.myAccount')} onClick={() => navigate(ACCOUNT_PAGE)} />
            )}
            {customised && (
              <MenuItem icon={<SwapHorizontalIcon />} text={t('user.changePlatform')} data-testid="change-platform"
                onClick={() => setConfirming('platform')} />
            )}
            <MenuItem icon={<LogOutIcon />} text={t('user.logout')} data-testid="logout" onClick={() => setConfirming('logout')} />
          </Menu>
        }
      >
        <Button variant="minimal" className="jc-user" data-testid="user-menu" aria-label={`${t('user.menu')}: ${name}`}
          endIcon={showName ? <CaretDownIcon /> : undefined}>
          <Avatar name={name} photo={account?.accountPhoto} />
          {showName && <span className="jc-user-name">{name}</span>}
        </Button>
      </PopoverNext>
      <LogoutAlert isOpen={confirming === 'logout'} onClose={() => setConfirming(null)} />
      <ChangePlatformAlert isOpen={confirming === 'platform'} onClose={() => setConfirming(null)} />
    </>
  );
}

import { Button, Menu, MenuItem, Popover } from '@blueprintjs/core';
import { AddIcon, ChevronLeftIcon, FlashIcon, HomeIcon, ListIcon, LogInIcon, LogOutIcon, MoreIcon, PrintIcon } from '@blueprintjs/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { getToken } from '@/lib/storage';
import { signOut } from './signOut';

const ROOT = '/mobile/calibration';
/** Spec 001 section 2: logout shows on the list and detail pages (logged in). */
const WITH_LOGOUT = /^\/mobile\/calibration\/(list|detail\/)/;

/**
 * The phone calibration pages' header (spec 001 section 2): back, search by order number, a more
 * menu with the create-order and quick-order entries, and download-print on an application's detail.
 */
export function MobileCalibrationHeader() {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const [number, setNumber] = useState('');
  const detail = /^\/mobile\/calibration\/detail\/([^/]+)/.exec(pathname)?.[1];
  const signedIn = getToken() !== null;
  const search = (event: FormEvent) => {
    event.preventDefault();
    const wanted = number.trim();
    navigate(wanted ? `${ROOT}/list?number=${encodeURIComponent(wanted)}` : `${ROOT}/list`);
  };
  const pdf = detail && (/^\d+$/.test(detail) ? `id=${detail}` : `number=${detail}`);
  return (
    <header className="jc-mobile-cal-header" data-testid="mobile-calibration-header">
      <Button variant="minimal" icon={<ChevronLeftIcon />} aria-label={t('mobileCalibration.back')} data-testid="mobile-calibration-back"
        onClick={() => (window.history.length > 1 ? navigate(-1) : navigate(ROOT))} />
      <form role="search" onSubmit={search} className="jc-mobile-cal-search">
        <input className="bp6-input bp6-small" value={number} onChange={(e) => setNumber(e.target.value)}
          placeholder={t('mobileCalibration.search')} aria-label={t('mobileCalibration.search')}
          data-testid="mobile-calibration-search" />
      </form>
      {pdf && (
        <Link to={`${ROOT}/pdf?${pdf}`} className="bp6-button bp6-minimal" aria-label={t('mobileCalibration.downloadPrint')}
          title={t('mobileCalibration.downloadPrint')} data-testid="mobile-calibration-print"><PrintIcon /></Link>
      )}
      <Popover placement="bottom-end" content={
        <Menu>
          <MenuItem icon={<HomeIcon />} text={t('mobileCalibration.home')} onClick={() => navigate(ROOT + '/home')} />
          <MenuItem icon={<AddIcon />} text={t('mobileCalibration.create')} onClick={() => navigate(`${ROOT}/device`)} />
          <MenuItem icon={<FlashIcon />} text={t('mobileCalibration.quick')} onClick={() => navigate(`${ROOT}/quickly`)} />
          <MenuItem icon={<ListIcon />} text={t('mobileCalibration.list')} onClick={() => navigate(`${ROOT}/list`)} />
          {signedIn && WITH_LOGOUT.test(pathname) ? (
            <MenuItem icon={<LogOutIcon />} text={t('mobileCalibration.logout')} onClick={async () => {
              await signOut(queryClient);
              navigate(`${ROOT}/login`);
            }} />
          ) : !signedIn && <MenuItem icon={<LogInIcon />} text={t('mobileCalibration.login')} onClick={() => navigate(`${ROOT}/login`)} />}
        </Menu>
      }>
        <Button variant="minimal" icon={<MoreIcon />} aria-label={t('mobileCalibration.more')} data-testid="mobile-calibration-more" />
      </Popover>
    </header>
  );
}

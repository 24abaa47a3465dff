import { AnchorButton, Button } from '@blueprintjs/core';
import { ClipboardIcon, HeadsetIcon, LogOutIcon, ListDetailViewIcon, FlashIcon } from '@blueprintjs/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, matchPath, Outlet, useLocation, useNavigate } from 'react-router';
import { loginPathFor } from '@/app/guard';
import { cachedCustomPage } from '@/lib/api/customPage';
import { useSession } from '@/lib/session';
import { getToken } from '@/lib/storage';
import { useStoredLook } from './frame/useStoredLook';
import { ProductMark } from './header/Brand';
import { customerServiceUrl } from './header/HeaderLinks';
import { signOut } from './signOut';

const CALIBRATION_HOME = '/calibration';
/** The certificate list of the back office (route calibrationResults). */
export const RESULT_LIST_PATH = '/resultList';
/** Pages a visitor reaches before or without a session: no logout there (spec 001 section 2). */
const WITHOUT_LOGOUT = ['/calibration', '/calibration/login', '/calibration/admin/login', '/calibration/form',
  '/calibration/form/example', '/calibration/quickly', '/calibration/preview'];
const ADMIN_ORDER_PAGES = '/admin/order/*';

/** What the calibration header offers on a path (spec 001 section 2's layout behaviour). */
export function calibrationHeaderLinks(pathname: string, signedIn: boolean) {
  const adminOrders = matchPath(ADMIN_ORDER_PAGES, pathname) !== null;
  return {
    /** The quick orders, from the lab's other order pages. */
    quickOrders: adminOrders && !matchPath('/admin/order/quickly', pathname),
    /** Back to the lab's list, from the quick orders. */
    orders: matchPath('/admin/order/quickly', pathname) !== null,
    /** The back office's certificate list: same origin, so the stored token goes with it (never in its URL). */
    certificates: adminOrders,
    logout: signedIn && !WITHOUT_LOGOUT.includes(pathname.replace(/\/+$/, '') || '/'),
  };
}

/** The calibration service's light frame: its name on top with the lab's links, contact and logout, the page below. */
export function CalibrationLayout() {
  const { t } = useTranslation(['layout', 'app']);
  useStoredLook();
  const page = cachedCustomPage();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { info } = useSession();
  const links = calibrationHeaderLinks(pathname, info !== null || getToken() !== null);

  return (
    <div className="jc-calibration-layout">
      <header className="jc-calibration-header">
        <Link to={CALIBRATION_HOME} className="jc-brand jc-brand--light" aria-label={t('calibration.home')}>
          {page?.indexLogo ? <img className="jc-brand-logo" src={page.indexLogo} alt="" /> : <ProductMark size={30} />}
          <span className="jc-brand-title">{t('app:calibrationService')}</span>
        </Link>
        <nav className="jc-calibration-links" aria-label={t('calibration.links')}>
          {links.quickOrders && (
            <Button variant="minimal" icon={<FlashIcon />} onClick={() => navigate('/admin/order/quickly')}
              data-testid="calibration-quick-orders" aria-label={t('calibration.quickOrders')}>
              <span className="jc-calibration-link-text">{t('calibration.quickOrders')}</span>
            </Button>
          )}
          {links.orders && (
            <Button variant="minimal" icon={<ListDetailViewIcon />} onClick={() => navigate('/admin/order/list')}
              data-testid="calibration-orders" aria-label={t('calibration.orders')}>
              <span className="jc-calibration-link-text">{t('calibration.orders')}</span>
            </Button>
          )}
          {links.certificates && (
            <AnchorButton variant="minimal" icon={<ClipboardIcon />} href={RESULT_LIST_PATH} target="_blank" rel="noopener"
              data-testid="calibration-certificates" aria-label={t('calibration.certificates')}>
              <span className="jc-calibration-link-text">{t('calibration.certificates')}</span>
            </AnchorButton>
          )}
          <AnchorButton variant="minimal" icon={<HeadsetIcon />} href={customerServiceUrl()} target="_blank" rel="noopener"
            data-testid="calibration-contact" aria-label={t('calibration.contact')}>
            <span className="jc-calibration-link-text">{t('calibration.contact')}</span>
          </AnchorButton>
          {links.logout && <Logout pathname={pathname} />}
        </nav>
      </header>
      <main className="jc-calibration-content">
        <Outlet />
      </main>
    </div>
  );
}

/** Ends the session (the token goes whatever the server answers) and opens the login of the page's area. */
function Logout({ pathname }: { pathname: string }) {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  const logout = async () => {
    setLeaving(true);
    const login = loginPathFor(pathname);
    await signOut(queryClient);
    setLeaving(false);
    navigate(login, { replace: true });
  };
  return (
    <Button variant="minimal" icon={<LogOutIcon />} loading={leaving} onClick={() => void logout()}
      data-testid="calibration-logout" aria-label={t('calibration.logout')}>
      <span className="jc-calibration-link-text">{t('calibration.logout')}</span>
    </Button>
  );
}

import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { cachedCustomPage } from '@/lib/api/customPage';
import { useStoredLook } from './frame/useStoredLook';
import { ProductMark } from './header/Brand';

const CALIBRATION_HOME = '/calibration';

/** The calibration service's light frame: its name on top, the page below. */
export function CalibrationLayout() {
  const { t } = useTranslation(['layout', 'app']);
  useStoredLook();
  const page = cachedCustomPage();
  return (
    <div className="jc-calibration-layout">
      <header className="jc-calibration-header">
        <Link to={CALIBRATION_HOME} className="jc-brand jc-brand--light" aria-label={t('calibration.home')}>
          {page?.indexLogo ? <img className="jc-brand-logo" src={page.indexLogo} alt="" /> : <ProductMark size={30} />}
          <span className="jc-brand-title">{t('app:calibrationService')}</span>
        </Link>
      </header>
      <main className="jc-calibration-content">
        <Outlet />
      </main>
    </div>
  );
}

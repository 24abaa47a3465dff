import { Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePrices } from '@/lib/api/calibration';
import { PriceTable } from './components/PriceTable';
import './calibration.css';

/** /calibration: what the service is, its prices, and the ways in. */
export default function HomePage() {
  const { t } = useTranslation('calibration');
  const prices = usePrices();
  return (
    <div className="jc-cal-page" data-testid="calibration-home">
      <h1>{t('home.title')}</h1>
      <p>{t('home.intro')}</p>
      <p className="jc-cal-muted">{t('home.steps')}</p>
      <div className="jc-cal-entries">
        <Link to="/calibration/form" className="bp6-button bp6-intent-primary bp6-large" data-testid="calibration-order-now">
          {t('home.orderNow')}
        </Link>
        <Link to="/calibration/quickly" className="bp6-button bp6-large">{t('home.quickOrder')}</Link>
        <Link to="/mobile/calibration/list" className="bp6-button bp6-large">{t('home.myOrders')}</Link>
        <Link to="/calibration/form/example" className="bp6-button bp6-minimal">{t('home.example')}</Link>
      </div>
      <h2>{t('home.prices')}</h2>
      {prices.isPending ? <Spinner size={30} /> : <PriceTable prices={prices.data ?? []} />}
    </div>
  );
}

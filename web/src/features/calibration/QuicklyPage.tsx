import { useTranslation } from 'react-i18next';
import { QuickOrderForm } from './components/QuickOrderForm';
import './calibration.css';

/** /calibration/quickly: a quick order. */
export default function QuicklyPage() {
  const { t } = useTranslation('calibration');
  return (
    <div className="jc-cal-page" data-testid="calibration-quickly">
      <h1>{t('quick.title')}</h1>
      <p>{t('quick.intro')}</p>
      <QuickOrderForm applyTo="/calibration/form" />
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApplicationForm } from './components/ApplicationForm';
import { EXAMPLE } from './form';
import './calibration.css';

/** /calibration/form: the application. */
export default function FormPage() {
  const { t } = useTranslation('calibration');
  return (
    <div className="jc-cal-page" data-testid="calibration-form-page">
      <h1>{t('form.title')}</h1>
      <p><Link to="/calibration/form/example">{t('home.example')}</Link></p>
      <ApplicationForm />
    </div>
  );
}

/** /calibration/form/example: a filled application to read. */
export function FormExamplePage() {
  const { t } = useTranslation('calibration');
  return (
    <div className="jc-cal-page" data-testid="calibration-example">
      <h1>{t('form.exampleTitle')}</h1>
      <p className="jc-cal-muted">{t('form.exampleNote')}</p>
      <ApplicationForm example={EXAMPLE} />
      <Link to="/calibration/form" className="bp6-button bp6-intent-primary">{t('home.orderNow')}</Link>
    </div>
  );
}

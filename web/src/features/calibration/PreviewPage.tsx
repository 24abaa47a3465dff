import { useTranslation } from 'react-i18next';
import { ApplicationPreview } from './components/ApplicationPreview';
import { useRefFromAddress } from './ref';
import './calibration.css';

/** /calibration/preview?id= | ?number=: the application just made, to pay now or later. */
export default function PreviewPage() {
  const { t } = useTranslation('calibration');
  return (
    <div className="jc-cal-page" data-testid="calibration-preview-page">
      <h1>{t('preview.title')}</h1>
      <ApplicationPreview appRef={useRefFromAddress()} mobile={false}
        detailTo={(address) => `/mobile/calibration/detail/${encodeURIComponent(address)}`} />
    </div>
  );
}

import { Callout, NonIdealState, Spinner } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isCancelled, STATUS, useApplication, type Ref } from '@/lib/api/calibration';
import { query } from '../ref';
import { ApplicationView } from './ApplicationView';
import { OrderPdfButton } from './OrderPdfButton';
import { PayPanel } from './PayPanel';

/** An application's summary with its pay step (unpaid), or what comes next. */
export function ApplicationPreview({ appRef, mobile, detailTo }: { appRef: Ref | null; mobile: boolean;
  detailTo: (address: string) => string }) {
  const { t } = useTranslation('calibration');
  const found = useApplication(appRef);
  if (found.isPending && appRef) return <Spinner size={30} />;
  if (!found.data) return <NonIdealState icon={<SearchIcon />} description={t('preview.notFound')} />;
  const application = found.data;
  return (
    <div data-testid="calibration-preview">
      <ApplicationView application={application} />
      <PayPanel application={application} mobile={mobile}
        laterTo={`/mobile/calibration/apply/latter?${query(application)}`} />
      {application.status !== STATUS.submitted && (
        <Callout intent={isCancelled(application.status) ? 'warning' : 'success'}>
          {t(isCancelled(application.status) ? 'preview.cancelled' : 'preview.paid')}
        </Callout>
      )}
      <div className="jc-cal-actions">
        {application.status !== STATUS.submitted && <OrderPdfButton application={application} />}
        <Link to={detailTo(application.applicationId ? String(application.applicationId) : application.applicationNumber)}
          className="bp6-button bp6-minimal" data-testid="calibration-open-detail">{t('preview.details')}</Link>
      </div>
    </div>
  );
}

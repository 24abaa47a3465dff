/**
 * A trip opened by its share link (/mobileQuick/query/detail?share=TOKEN): the receiver's view
 * with the trip report as PDF. The token travels as `share`, not `token`: a `token` in the address
 * is taken as a session by the route guard.
 */
import { Button, Callout, H2, Spinner } from '@blueprintjs/core';
import { DocumentIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { saveFile } from '@/lib/saveFile';
import { fetchSharePdf, problemOf, useSharedTrip, type Trip } from './api/quickQuery';
import { LookupFailed } from './components/Problem';
import { TripView } from './components/TripView';
import './quickQuery.css';

export const SHARE_PARAM = 'share';

function PdfButton({ token, trip }: { token: string; trip: Trip }) {
  const { t } = useTranslation('quickquery');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const download = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const file = await fetchSharePdf(token);
      saveFile(file.blob, file.fileName ?? `${trip.orderNum ?? 'trip'}.pdf`);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button intent="primary" icon={<DocumentIcon />} text={t('pdf')} loading={busy} onClick={() => void download()}
        data-testid="trip-pdf" />
      {failure !== null && (problemOf(failure) === 'failed'
        ? <Callout intent="danger" role="alert" data-testid="trip-pdf-failed">{t('pdfFailed')}</Callout>
        : <LookupFailed error={failure} />)}
    </>
  );
}

export default function SharedTripPage() {
  const { t } = useTranslation('quickquery');
  const [params] = useSearchParams();
  const token = (params.get(SHARE_PARAM) ?? '').trim() || null;
  const trip = useSharedTrip(token && token.length <= 100 ? token : null);
  return (
    <div className="jc-qq jc-qq-mobile" data-testid="quick-shared-page">
      <header className="jc-qq-head">
        <H2>{t('sharedTitle')}</H2>
      </header>
      {!token ? <p className="jc-qq-muted" data-testid="quick-no-token">{t('noToken')}</p>
        : trip.isPending ? <Spinner /> : trip.isError ? <LookupFailed error={trip.error} />
          : <TripView trip={trip.data} narrow actions={<PdfButton token={token} trip={trip.data} />} />}
    </div>
  );
}

/**
 * A trip of the public quick query (/pcQuick/waybill/detail/{number}, /mobileQuick/waybill/detail/
 * {number}): the waybill number (or GUID with `?by=guid`) is looked up again and `?trip=` picks
 * one of the trips found (0 the newest).
 */
import { H2, Spinner } from '@blueprintjs/core';
import { ChevronLeftIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { QUERY_LIMITS, useTrips, type Search } from './api/quickQuery';
import { LookupFailed, NothingFound } from './components/Problem';
import { TripView } from './components/TripView';
import { BASE, type Screen } from './QuickSearchPage';
import { searchParams } from './search';
import './quickQuery.css';

function TripDetailPage({ screen }: { screen: Screen }) {
  const { t } = useTranslation('quickquery');
  const { waybillPk = '' } = useParams();
  const [params] = useSearchParams();
  const kind = params.get('by') === 'guid' ? 'guid' : 'number';
  const value = waybillPk.trim();
  const search: Search | null = value && value.length <= QUERY_LIMITS[kind] ? { kind, value } : null;
  const index = Math.max(0, Number.parseInt(params.get('trip') ?? '0', 10) || 0);
  const trips = useTrips(search);
  const back = search ? `${BASE[screen]}?${new URLSearchParams(searchParams(search)).toString()}` : BASE[screen];
  const trip = trips.data?.[index];
  return (
    <div className={`jc-qq jc-qq-${screen}`} data-testid="quick-detail-page">
      <header className="jc-qq-head">
        <Link to={back} className="jc-qq-back" data-testid="quick-back"><ChevronLeftIcon /> {t('back')}</Link>
        <H2>{t('title')}</H2>
      </header>
      {!search ? <NothingFound /> : trips.isPending ? <Spinner /> : trips.isError ? <LookupFailed error={trips.error} />
        : trip ? <TripView trip={trip} narrow={screen === 'mobile'} /> : <NothingFound />}
    </div>
  );
}

export function DesktopDetail() {
  return <TripDetailPage screen="desktop" />;
}

export function MobileDetail() {
  return <TripDetailPage screen="mobile" />;
}

import { Classes, NonIdealState, Spinner } from '@blueprintjs/core';
import { ErrorIcon, MapMarkerIcon } from '@blueprintjs/icons';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDeviceMarkers, type DeviceFilters } from '@/lib/api/devices';
import { detailHref } from '@/lib/deviceListQuery';
import { devicesOnMap } from '@/components/map/markers';

const DeviceMap = lazy(() => import('@/components/map/DeviceMap'));

/** The map mode of the device list: every device of the filters that has a position; a click opens one. */
export function DeviceMapMode({ filters, total, canOpen }: {
  /** The list's filters, without its page. */
  filters: DeviceFilters;
  /** How many devices the filters find in all. */
  total: number;
  canOpen: boolean;
}) {
  const { t } = useTranslation('devices');
  const navigate = useNavigate();
  const found = useDeviceMarkers(filters);
  const markers = useMemo(() => devicesOnMap(found.data?.markers ?? []), [found.data]);
  if (found.data === undefined) {
    return found.isError
      ? <NonIdealState icon={<ErrorIcon />} title={t('list.loadFailed')} className="jc-devices-empty" />
      : <Spinner size={32} className="jc-devices-loading" />;
  }
  if (markers.length === 0) {
    return (
      <div data-testid="device-map-none">
        <NonIdealState icon={<MapMarkerIcon />} title={t('mode.noPositions')} description={t('mode.noPositionsHint')} className="jc-devices-empty" />
      </div>
    );
  }
  return (
    <div className="jc-devices-map">
      <p className={Classes.TEXT_MUTED} data-testid="device-map-summary">
        {t('mode.onMap', { count: found.data.total, total })}
        {found.data.truncated && ` ${t('mode.mapTruncated', { count: markers.length })}`}
      </p>
      <Suspense fallback={<Spinner size={32} className="jc-devices-loading" />}>
        <DeviceMap markers={markers} onSelect={canOpen ? (id) => navigate(detailHref(id)) : undefined} testId="device-list-map" />
      </Suspense>
    </div>
  );
}

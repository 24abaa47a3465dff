import { Classes, NonIdealState, Spinner } from '@blueprintjs/core';
import { MapMarkerIcon } from '@blueprintjs/icons';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Device } from '@/lib/api/devices';
import { detailHref } from '@/lib/deviceListQuery';
import { devicesOnMap } from '@/components/map/markers';

const DeviceMap = lazy(() => import('@/components/map/DeviceMap'));

/** The map mode of the device list: every device of the filters that has a position; a click opens one. */
export function DeviceMapMode({ devices, total, canOpen }: {
  /** The devices of the filters (the first MAP_PAGE_SIZE). */
  devices: readonly Device[];
  /** How many devices the filters find in all. */
  total: number;
  canOpen: boolean;
}) {
  const { t } = useTranslation('devices');
  const navigate = useNavigate();
  const markers = useMemo(() => devicesOnMap(devices), [devices]);
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
        {t('mode.onMap', { count: markers.length, total })}
      </p>
      <Suspense fallback={<Spinner size={32} className="jc-devices-loading" />}>
        <DeviceMap markers={markers} onSelect={canOpen ? (id) => navigate(detailHref(id)) : undefined} testId="device-list-map" />
      </Suspense>
    </div>
  );
}

import { Classes, NonIdealState, Spinner } from '@blueprintjs/core';
import { ErrorIcon, MapMarkerIcon } from '@blueprintjs/icons';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceDetail } from '@/lib/api/devices';
import { markerTone } from '@/lib/deviceValues';
import { useTrack } from '../api/whereabouts';
import { RangeButtons, useQuickRange } from './RangeButtons';

const DeviceMap = lazy(() => import('@/components/map/DeviceMap'));

/** The device's last position and, over the chosen range, the path its readings carried. */
export function MapPanel({ device }: { device: DeviceDetail }) {
  const { t, i18n } = useTranslation('devices');
  const { range, choose } = useQuickRange();
  const track = useTrack({ deviceId: device.deviceId, startTime: range.bounds.startTime, endTime: range.bounds.endTime });
  const points = track.data?.points;
  const path = useMemo(() => (points ?? []).map(({ lat, lon, acc }) => ({ lat, lon, acc })), [points]);
  const position = device.position;
  const markers = useMemo(
    () =>
      position
        ? [{ id: device.deviceId, lat: position.lat, lon: position.lon, label: device.deviceName, tone: markerTone(device) }]
        : [],
    [position, device],
  );

  if (!position && track.data && track.data.points.length === 0) {
    return (
      <div data-testid="device-map-empty">
        <NonIdealState icon={<MapMarkerIcon />} title={t('map.empty')} description={t('map.emptyHint')} className="jc-history-empty" />
      </div>
    );
  }
  const when = position ? new Date(position.ts).toLocaleString(i18n.language) : null;
  return (
    <div className="jc-history" data-testid="device-map-panel">
      <div className="jc-history-toolbar">
        <RangeButtons value={range.key} onChoose={choose} />
        <span className={`${Classes.TEXT_MUTED} jc-history-summary`} data-testid="track-summary">
          {track.data && t('map.summary', { count: track.data.total })}
        </span>
      </div>
      {position && (
        <p className={Classes.TEXT_MUTED} data-testid="device-last-position">
          {t('map.last', {
            lat: position.lat.toFixed(5),
            lon: position.lon.toFixed(5),
            time: when,
          })}
          {position.acc !== null && ` ${t('map.accuracy', { metres: Math.round(position.acc) })}`}
        </p>
      )}
      {track.isError ? (
        <NonIdealState icon={<ErrorIcon />} title={t('map.loadFailed')} className="jc-history-empty" />
      ) : (
        <Suspense fallback={<Spinner size={32} className="jc-history-empty" />}>
          <DeviceMap markers={markers} track={path} testId="device-track-map" />
        </Suspense>
      )}
    </div>
  );
}

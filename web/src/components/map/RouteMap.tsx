/**
 * A trip's routes: each device's path on the map in the colour its line has in the trip's chart,
 * its start and end marked, the map fitted to all of them, and a legend naming the devices; a note
 * instead when no device recorded a position. The map (Leaflet) loads only when there is a route.
 */
import { Spinner } from '@blueprintjs/core';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { seriesColour } from '@/lib/seriesColours';
import { formatInstant } from '@/lib/units';
import type { MapTrack, TrackPoint } from './DeviceMap';
import './deviceMap.css';

const DeviceMap = lazy(() => import('./DeviceMap'));

export interface RoutePoint extends TrackPoint {
  ts: string;
}

export interface DeviceRoute {
  deviceName: string;
  route: readonly RoutePoint[];
}

/** The words around the map, from the feature that shows it. */
export interface RouteMapLabels {
  /** Names the map for screen readers. */
  map: string;
  start: string;
  end: string;
  /** Shown instead of the map when no device has a route. */
  empty: string;
}

interface Drawn extends MapTrack {
  key: string;
}

/** `devices` in the trip's order: the index gives the colour, as it does to the chart's lines. */
export function RouteMap({ devices, labels }: { devices: readonly DeviceRoute[]; labels: RouteMapLabels }) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const tracks = useMemo<Drawn[]>(() => devices.flatMap((device, index) => {
    const first = device.route[0];
    const last = device.route[device.route.length - 1];
    if (!first || !last) return [];
    const at = (label: string, point: RoutePoint) => `${device.deviceName} · ${label} ${formatInstant(point.ts, language, false)}`;
    return [{
      key: `${index}-${device.deviceName}`, label: device.deviceName, colour: seriesColour(index), points: device.route,
      startLabel: at(labels.start, first), endLabel: at(labels.end, last),
    }];
  }), [devices, labels.start, labels.end, language]);

  if (tracks.length === 0) return <p className="jc-route-empty" data-testid="route-empty">{labels.empty}</p>;
  return (
    <div className="jc-route" data-testid="route-map">
      <div role="img" aria-label={labels.map}>
        <Suspense fallback={<Spinner size={32} className="jc-route-loading" />}>
          <DeviceMap tracks={tracks} testId="route-map-canvas" className="jc-route-map" />
        </Suspense>
      </div>
      <ul className="jc-route-legend" data-testid="route-legend">
        {tracks.map((track) => (
          <li key={track.key} data-testid="route-legend-device">
            <span className="jc-route-swatch" style={{ background: track.colour }} aria-hidden />
            {track.label}
          </li>
        ))}
        <li className="jc-route-key"><span className="jc-route-dot jc-route-dot-start" aria-hidden />{labels.start}</li>
        <li className="jc-route-key"><span className="jc-route-dot jc-route-dot-end" aria-hidden />{labels.end}</li>
      </ul>
    </div>
  );
}

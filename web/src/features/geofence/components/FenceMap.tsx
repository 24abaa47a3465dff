/**
 * The fence's areas on the project's Leaflet map (the tile server the installation configures, or
 * the countries' outlines without one). A click hands its point to `onPick`: the page makes it the
 * active circle's centre or the active polygon's next vertex. Every area can be typed instead.
 */
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import { baseLayer } from '@/components/map/DeviceMap';
import '@/components/map/deviceMap.css';
import type { Area } from '../api/fences';

const COLOUR = '#2d72d2';
const ACTIVE = '#cd4246';

export interface FenceMapProps {
  /** The areas as far as they are valid (null: not drawable yet), in form order. */
  areas: readonly (Area | null)[];
  active: number | null;
  onPick?: (lat: number, lon: number) => void;
  className?: string;
}

function layerOf(area: Area, colour: string): L.Layer | null {
  const style = { color: colour, weight: 2, fillOpacity: 0.15 };
  if (area.shape === 'circle' && area.lat != null && area.lon != null && area.radius) {
    return L.circle([area.lat, area.lon], { ...style, radius: area.radius });
  }
  const points = (area.points ?? []).map((p) => L.latLng(p.lat, p.lon));
  if (points.length >= 3) return L.polygon(points, style);
  if (points.length > 0) return L.polyline(points, { ...style, dashArray: '4 4' });
  return null;
}

export function FenceMap({ areas, active, onPick, className }: FenceMapProps) {
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const drawn = useRef<L.FeatureGroup | null>(null);
  const fitted = useRef(false);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    if (!element.current) return undefined;
    const created = L.map(element.current, { worldCopyJump: true, zoomSnap: 0.5, minZoom: 1 }).setView([20, 0], 2);
    let removed = false;
    baseLayer(created, () => !removed);
    drawn.current = L.featureGroup().addTo(created);
    created.on('click', (event: L.LeafletMouseEvent) => pick.current?.(event.latlng.lat, L.Util.wrapNum(event.latlng.lng, [-180, 180], true)));
    map.current = created;
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => created.invalidateSize());
    observer?.observe(element.current);
    return () => {
      observer?.disconnect();
      removed = true;
      created.remove();
      map.current = null;
    };
  }, []);

  useEffect(() => {
    const group = drawn.current;
    if (!map.current || !group) return;
    group.clearLayers();
    areas.forEach((area, index) => {
      const layer = area && layerOf(area, index === active ? ACTIVE : COLOUR);
      if (layer) group.addLayer(layer);
    });
    // The fence's areas in view once, when first drawn: later clicks do not move the map.
    if (!fitted.current && group.getLayers().length > 0) {
      const bounds = group.getBounds();
      if (bounds.isValid()) map.current.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
      fitted.current = true;
    }
  }, [areas, active]);

  return <div ref={element} className={`jc-device-map jc-fence-map ${className ?? ''}`} data-testid="fence-map" />;
}

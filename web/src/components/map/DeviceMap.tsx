/**
 * A map of devices (markers), of one device's path (a track) and of several named paths in their
 * own colours with their ends marked (a trip's routes), with Leaflet.
 *
 * Why Leaflet: raster tiles from any XYZ server the installation configures (MAP_TILE_URL), no
 * WebGL (MapLibre needs it, and headless or old browsers may lack it), small. Without a tile
 * server (development, tests, a site with no outside network) the base layer is the countries'
 * outlines of Natural Earth shipped in the world-atlas package, drawn as vectors: nothing is
 * fetched from outside.
 */
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import { editionConfig } from '@/lib/config';
import './deviceMap.css';

export type MarkerTone = 'alarm' | 'online' | 'offline';

export interface MapMarker {
  /** The device's id, handed to onSelect. */
  id: number;
  lat: number;
  lon: number;
  /** Shown on hover and read by screen readers. */
  label: string;
  tone: MarkerTone;
}

export interface TrackPoint {
  lat: number;
  lon: number;
  /** Accuracy radius in metres of the fix, when known. */
  acc: number | null;
}

export interface MapTrack {
  /** Whose path it is: shown on hover over the line. */
  label: string;
  colour: string;
  points: readonly TrackPoint[];
  /** Shown on hover over the first and the last point, which are marked. */
  startLabel: string;
  endLabel: string;
}

export interface DeviceMapProps {
  /** Devices to mark; clicking one calls onSelect with its id. */
  markers?: readonly MapMarker[];
  /** A path in time order; its last point is marked with its accuracy circle. */
  track?: readonly TrackPoint[];
  /** Paths drawn side by side; the map is fitted to all of them. */
  tracks?: readonly MapTrack[];
  onSelect?: (id: number) => void;
  /** For tests and the e2e suite. */
  testId?: string;
  className?: string;
}

// Up to this many markers are SVG elements (each one focusable and testable); a larger fleet is
// drawn on one canvas, which stays smooth with ten thousand dots where SVG nodes would not.
export const SVG_MARKERS_MAX = 500;

const TONE_COLOURS: Record<MarkerTone, string> = { alarm: '#cd4246', online: '#238551', offline: '#738091' };

let outlines: Promise<GeoJSON.GeoJsonObject> | null = null;

async function fetchAtlas(): Promise<TopoJSON.Topology> {
  // Only the file's address: the atlas is fetched and parsed as JSON when needed, not bundled into
  // a 750 kB script; asked for here, a test without it draws on a blank base.
  const { default: atlasUrl } = await import('world-atlas/countries-50m.json?url');
  const response = await fetch(atlasUrl);
  if (!response.ok) throw new Error(`countries' outlines: HTTP ${response.status}`);
  return (await response.json()) as TopoJSON.Topology;
}

/**
 * The countries' outlines, loaded once, only when a map without tiles is drawn; a map drawn after
 * a failed load tries again.
 */
function countryOutlines(): Promise<GeoJSON.GeoJsonObject> {
  outlines ??= Promise.all([fetchAtlas(), import('topojson-client')]).then(([topology, topojson]) => {
    const countries = topology.objects.countries as TopoJSON.GeometryCollection;
    return topojson.feature(topology, countries) as GeoJSON.GeoJsonObject;
  });
  outlines.catch(() => {
    outlines = null;
  });
  return outlines;
}

/** The base layer; `alive` says whether the map is still there once the outlines have loaded. */
// The outlines arrive after the markers: in a pane of their own under the markers' (as tiles are).
const BASE_PANE = 'jc-base';

export function baseLayer(map: L.Map, alive: () => boolean): void {
  map.createPane(BASE_PANE).style.zIndex = '200';
  const { url, attribution } = editionConfig().mapTiles;
  if (url) {
    L.tileLayer(url, { attribution, maxZoom: 19 }).addTo(map);
    return;
  }
  countryOutlines().then((geo) => {
    if (!alive()) return; // the page moved on while they loaded
    L.geoJSON(geo, {
      pane: BASE_PANE,
      interactive: false,
      style: { color: '#8f99a8', weight: 1, fillColor: '#f6f7f9', fillOpacity: 0.9 },
    }).addTo(map);
  }, () => undefined); // without them the markers still stand on a blank base
}

/** Sets attributes on a vector layer's element once it is drawn, for tests and screen readers. */
function tagged<T extends L.Path>(layer: T, attributes: Record<string, string>): T {
  layer.on('add', () => {
    const element = layer.getElement();
    if (element) for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  });
  return layer;
}

// Beside the point, on the side towards the map's middle: a point near an edge keeps its text in view.
const ENDS_TOOLTIP: L.TooltipOptions = { direction: 'auto', offset: [8, 0] };

/** One of several paths: its line, a hollow dot where it starts and a full one where it ends. */
function drawTrack(group: L.LayerGroup, track: MapTrack, index: number): L.LatLng[] {
  const path = track.points.map((p) => L.latLng(p.lat, p.lon));
  if (path.length === 0) return path;
  const data = { 'data-track': String(index) };
  if (path.length > 1) {
    tagged(L.polyline(path, { color: track.colour, weight: 4, opacity: 0.85 }), { ...data, 'data-testid': 'track-line' })
      .bindTooltip(track.label, { sticky: true }).addTo(group);
    tagged(L.circleMarker(path[0]!, { radius: 6, color: track.colour, weight: 3, fillColor: '#ffffff', fillOpacity: 1 }),
      { ...data, 'data-testid': 'track-start', 'aria-label': track.startLabel })
      .bindTooltip(track.startLabel, ENDS_TOOLTIP).addTo(group);
  }
  tagged(L.circleMarker(path[path.length - 1]!, { radius: 7, color: '#ffffff', weight: 2, fillColor: track.colour, fillOpacity: 1 }),
    { ...data, 'data-testid': 'track-end', 'aria-label': track.endLabel })
    .bindTooltip(track.endLabel, ENDS_TOOLTIP).addTo(group);
  return path;
}

// One empty list for props left out: a fresh [] at each render would redraw and refit the map.
const NONE: readonly never[] = [];

/** A Leaflet map in a div; the markers and tracks are redrawn when they change. */
export default function DeviceMap({
  markers = NONE, track = NONE, tracks = NONE, onSelect, testId = 'device-map', className,
}: DeviceMapProps) {
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const drawn = useRef<L.LayerGroup | null>(null);
  const select = useRef(onSelect);
  select.current = onSelect;

  useEffect(() => {
    if (!element.current) return undefined;
    const created = L.map(element.current, { worldCopyJump: true, zoomSnap: 0.5, minZoom: 1 }).setView([20, 0], 2);
    let removed = false;
    baseLayer(created, () => !removed);
    map.current = created;
    drawn.current = L.layerGroup().addTo(created);
    // A map drawn in a tab or dialog that was hidden measures itself again once shown.
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
    const current = map.current;
    const group = drawn.current;
    if (!current || !group) return;
    group.clearLayers();
    const bounds: L.LatLngExpression[] = [];
    if (track.length > 0) {
      const path = track.map((p) => L.latLng(p.lat, p.lon));
      L.polyline(path, { color: '#2d72d2', weight: 3, opacity: 0.8 }).addTo(group);
      const last = track[track.length - 1]!;
      if (last.acc) L.circle([last.lat, last.lon], { radius: last.acc, color: '#2d72d2', weight: 1, fillOpacity: 0.15 }).addTo(group);
      bounds.push(...path);
    }
    tracks.forEach((one, index) => bounds.push(...drawTrack(group, one, index)));
    const renderer = markers.length > SVG_MARKERS_MAX ? L.canvas({ padding: 0.5 }) : undefined;
    for (const marker of markers) {
      const dot = tagged(L.circleMarker([marker.lat, marker.lon], {
        renderer,
        radius: 8,
        color: '#ffffff',
        weight: 2,
        fillColor: TONE_COLOURS[marker.tone],
        fillOpacity: 1,
        className: `jc-map-marker jc-map-marker-${marker.tone}`,
      }), { 'data-testid': 'map-marker', 'data-device-id': String(marker.id), 'aria-label': marker.label, role: 'button' });
      dot.bindTooltip(marker.label, { direction: 'top', offset: [0, -8] });
      dot.on('click', () => select.current?.(marker.id));
      dot.addTo(group);
      bounds.push([marker.lat, marker.lon]);
    }
    if (bounds.length === 1) current.setView(bounds[0]!, 13);
    else if (bounds.length > 1) current.fitBounds(L.latLngBounds(bounds), { padding: [32, 32], maxZoom: 15 });
  }, [markers, track, tracks]);

  return <div ref={element} className={`jc-device-map ${className ?? ''}`} data-testid={testId} />;
}

import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { seriesColour } from '@/lib/seriesColours';
import { setUpI18n } from '@/test/harness';
import { RouteMap, type DeviceRoute } from './RouteMap';

beforeAll(setUpI18n);
afterEach(() => vi.restoreAllMocks());

const LABELS = { map: 'Route map', start: 'Start', end: 'End', empty: 'No positions' };
const at = (minute: number, lat: number, lon: number) =>
  ({ ts: `2026-11-01T08:${String(minute).padStart(2, '0')}:00Z`, lat, lon, acc: null });

describe('the route map', () => {
  it('draws one coloured line per device with a route, its ends marked, and names them in the legend', async () => {
    // no countries' outlines in jsdom: the routes stand on a blank base
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('offline'));
    const devices: DeviceRoute[] = [
      { deviceName: 'Truck logger', route: [at(0, 31.2, 121.4), at(10, 31.3, 121.5), at(20, 31.4, 121.6)] },
      { deviceName: 'Box logger', route: [] },
      { deviceName: 'Trailer logger', route: [at(0, 31.25, 121.45), at(30, 31.5, 121.9)] },
    ];
    const { container } = render(<RouteMap devices={devices} labels={LABELS} />);
    const legend = await screen.findByTestId('route-legend');
    expect(within(legend).getAllByTestId('route-legend-device').map((item) => item.textContent))
      .toEqual(['Truck logger', 'Trailer logger']);
    expect(screen.getByRole('img', { name: 'Route map' })).toBeInTheDocument();
    await waitFor(() => expect(container.querySelectorAll('[data-testid="track-line"]')).toHaveLength(2));
    const lines = [...container.querySelectorAll('[data-testid="track-line"]')];
    // the device's index in the trip gives its colour, as in the chart: the third device keeps the third
    expect(lines.map((line) => line.getAttribute('stroke'))).toEqual([seriesColour(0), seriesColour(2)]);
    expect(container.querySelectorAll('[data-testid="track-start"]')).toHaveLength(2);
    const ends = [...container.querySelectorAll('[data-testid="track-end"]')];
    expect(ends).toHaveLength(2);
    expect(ends[0]?.getAttribute('aria-label')).toMatch(/^Truck logger · End /);
    expect(screen.queryByTestId('route-empty')).toBeNull();
  });

  it('says no position was recorded, and draws no map, when no device has a route', () => {
    render(<RouteMap devices={[{ deviceName: 'Box logger', route: [] }]} labels={LABELS} />);
    expect(screen.getByTestId('route-empty')).toHaveTextContent('No positions');
    expect(screen.queryByTestId('route-map')).toBeNull();
  });
});

import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelope, fakeServer, renderApp, renderRoute, setUpI18n } from '@/test/harness';
import type { Trip } from './api/quickQuery';
import { DesktopSearch, MobileSearch } from './QuickSearchPage';
import SharedTripPage from './SharedTripPage';
import { DesktopDetail } from './TripDetailPage';
import VerifyPage from './VerifyPage';
import { searchFormSchema, searchOf } from './search';

beforeAll(setUpI18n);
afterEach(() => vi.restoreAllMocks());

function trip(change: Partial<Trip> = {}): Trip {
  return {
    orderNum: 'WB-42', goodsName: 'Vaccines', state: 1, upperLimit: 8, lowerLimit: 2,
    startedAt: '2026-05-01T08:00:00+00:00', finishedAt: null, corrected: false, spanStart: null, spanEnd: null,
    alarmCount: 1, deltaH: 83144, verificationCode: 'ABCD-1234',
    devices: [{
      deviceName: 'Box logger', count: 3, minimum: 3, maximum: 9.5, mean: 5.5, mkt: 6.1, outOfRangeSeconds: 3900,
      excursions: [{ above: true, start: '2026-05-01T09:00:00+00:00', end: '2026-05-01T10:05:00+00:00', seconds: 3900,
        extreme: 9.5 }],
      points: [],
      route: [],
    }],
    ...change,
  };
}

const THROTTLED = () => envelope(null, 429, 429, 'Too Many Requests');

describe('the public quick query', () => {
  it('searches by waybill number and lists the trips found with their state', async () => {
    const server = fakeServer({ 'GET /device/QuickSearch/waybill': () => envelope({ waybills: [trip()] }) });
    renderApp(<DesktopSearch />, '/pcQuick/waybill');
    const user = userEvent.setup();
    await user.type(screen.getByTestId('quick-value'), '  WB-42 ');
    await user.click(screen.getByTestId('quick-go'));
    const row = await screen.findByTestId('quick-trip');
    expect(row).toHaveTextContent('WB-42');
    expect(row).toHaveTextContent('In transit');
    expect(row.getAttribute('href')).toBe('/pcQuick/waybill/detail/WB-42?trip=0');
    expect(screen.getByTestId('location')).toHaveTextContent('/pcQuick/waybill?id=WB-42');
    expect(server.callsTo('GET /device/QuickSearch/waybill')[0]?.params.get('number')).toBe('WB-42');
  });

  it('searches by device GUID when asked to', async () => {
    const server = fakeServer({ 'GET /device/QuickSearch/waybill': () => envelope({ waybills: [trip()] }) });
    renderApp(<MobileSearch />, '/mobileQuick/waybill?id=ABC123&by=guid');
    expect(await screen.findByTestId('quick-trip')).toHaveAttribute('href', '/mobileQuick/waybill/detail/ABC123?by=guid&trip=0');
    const call = server.callsTo('GET /device/QuickSearch/waybill')[0];
    expect(call?.params.get('guid')).toBe('ABC123');
    expect(call?.params.has('number')).toBe(false);
  });

  it('shows one neutral message when nothing is found', async () => {
    fakeServer({ 'GET /device/QuickSearch/waybill': () => envelope({ waybills: [] }) });
    renderApp(<DesktopSearch />, '/pcQuick/waybill?id=MADE-UP-1');
    expect(await screen.findByTestId('quick-not-found')).toHaveTextContent(/No trip to show for this entry/);
    expect(screen.queryByTestId('quick-trip')).toBeNull();
  });

  it('asks the reader to wait when the server has had too many lookups', async () => {
    const server = fakeServer({ 'GET /device/QuickSearch/waybill': THROTTLED });
    renderApp(<DesktopSearch />, '/pcQuick/waybill?id=WB-42');
    expect(await screen.findByTestId('quick-throttled')).toHaveTextContent(/Too many lookups.*wait/);
    // no retry hammering a limit
    expect(server.callsTo('GET /device/QuickSearch/waybill')).toHaveLength(1);
  });

  it('refuses an empty or over-long search before asking the server', async () => {
    const schema = searchFormSchema(i18n.t.bind(i18n) as never);
    expect(schema.safeParse({ kind: 'number', value: '   ' }).success).toBe(false);
    expect(schema.safeParse({ kind: 'guid', value: 'x'.repeat(33) }).success).toBe(false);
    expect(schema.safeParse({ kind: 'number', value: 'x'.repeat(33) }).success).toBe(true);
    expect(searchOf(new URLSearchParams('id=%20'))).toBeNull();
    const server = fakeServer({});
    renderApp(<DesktopSearch />, '/pcQuick/waybill');
    await userEvent.setup().click(screen.getByTestId('quick-go'));
    expect(await screen.findByText('Enter a waybill number or a device GUID')).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });

  it('shows a trip in detail: limits, figures, excursions', async () => {
    fakeServer({ 'GET /device/QuickSearch/waybill': () => envelope({ waybills: [trip({ orderNum: 'old' }), trip()] }) });
    renderRoute(<DesktopDetail />, '/pcQuick/waybill/detail/:waybillPk', '/pcQuick/waybill/detail/WB-42?trip=1');
    expect(await screen.findByTestId('trip-number')).toHaveTextContent('WB-42');
    expect(screen.getByTestId('trip-limits')).toHaveTextContent('2.0 °C to 8.0 °C');
    expect(screen.getByTestId('trip-mkt')).toHaveTextContent('6.1 °C');
    expect(screen.getByTestId('trip-excursions')).toHaveTextContent('Above the limit, up to 9.5 °C');
    expect(screen.getByTestId('trip-excursions')).toHaveTextContent('1 h 5 min');
  });

  it('shows where the devices went on a map, or says no position was recorded', async () => {
    const route = [{ ts: '2026-05-01T08:00:00+00:00', lat: 52.52, lon: 13.4, acc: 10 },
      { ts: '2026-05-01T10:00:00+00:00', lat: 52.4, lon: 13.05, acc: null }];
    const moving = trip();
    moving.devices = [{ ...moving.devices[0]!, route }];
    // an answer from before routes has none: read as an empty route
    const { route: _none, ...old } = moving.devices[0]!;
    fakeServer({ 'GET /device/QuickSearch/share': (call) => envelope(call.params.get('token') === 'moving' ? moving
      : { ...moving, devices: [old] }) });
    renderApp(<SharedTripPage />, '/mobileQuick/query/detail?share=moving');
    expect(await screen.findByTestId('route-legend')).toHaveTextContent('Box logger');
    expect(await screen.findAllByTestId('track-line')).toHaveLength(1);
    expect(screen.getByTestId('trip-route')).toHaveTextContent('Route');
    cleanup();
    renderApp(<SharedTripPage />, '/mobileQuick/query/detail?share=still');
    expect(await screen.findByTestId('route-empty')).toHaveTextContent('No positions were recorded on this trip.');
    expect(screen.queryByTestId('route-map')).toBeNull();
  });

  it('opens a shared trip by its token and offers its PDF; a gone link says so', async () => {
    const server = fakeServer({ 'GET /device/QuickSearch/share': () => envelope(trip()) });
    renderApp(<SharedTripPage />, '/mobileQuick/query/detail?share=tok-1');
    expect(await screen.findByTestId('trip-pdf')).toBeInTheDocument();
    expect(server.callsTo('GET /device/QuickSearch/share')[0]?.params.get('token')).toBe('tok-1');
  });

  it('says a revoked or expired link is gone', async () => {
    fakeServer({ 'GET /device/QuickSearch/share': () => envelope(null, 2106, 404, 'expired') });
    renderApp(<SharedTripPage />, '/mobileQuick/query/detail?share=tok-2');
    expect(await screen.findByTestId('quick-gone')).toHaveTextContent(/expired or been revoked/);
  });

  it('says to wait when opening a link is throttled', async () => {
    fakeServer({ 'GET /device/QuickSearch/share': THROTTLED });
    renderApp(<SharedTripPage />, '/mobileQuick/query/detail?share=tok-3');
    await waitFor(() => expect(screen.getByTestId('quick-throttled')).toBeInTheDocument());
  });

  it('checks a report code: a valid one shows its trip, another says it matches nothing', async () => {
    const server = fakeServer({
      'GET /device/QuickSearch/verify': (call) => envelope(call.params.get('code') === 'ABCD-1234'
        ? { valid: true, trip: trip() } : { valid: false, trip: null }),
    });
    renderApp(<VerifyPage />, '/mobileQuick/query');
    const user = userEvent.setup();
    await user.type(screen.getByTestId('verify-code'), 'ABCD-1234');
    await user.click(screen.getByTestId('verify-go'));
    expect(await screen.findByTestId('verify-valid')).toBeInTheDocument();
    expect(screen.getByTestId('trip-number')).toHaveTextContent('WB-42');
    await user.clear(screen.getByTestId('verify-code'));
    await user.type(screen.getByTestId('verify-code'), 'FORGED');
    await user.click(screen.getByTestId('verify-go'));
    expect(await screen.findByTestId('verify-invalid')).toBeInTheDocument();
    expect(server.callsTo('GET /device/QuickSearch/verify')).toHaveLength(2);
  });
});

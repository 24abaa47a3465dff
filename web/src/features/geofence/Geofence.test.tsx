import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session';
import { accountInfo, envelope, fakeServer, renderApp, setUpI18n, signIn } from '@/test/harness';
import type { FenceDetail } from './api/fences';
import { checkFence, emptyArea, parsePoints, type FenceForm } from './fenceForm';
import GeofencePage from './GeofencePage';

// Leaflet's map is not drawn in jsdom: the tests fill areas by typing, as a keyboard user does.
vi.mock('./components/FenceMap', () => ({ FenceMap: () => <div data-testid="fence-map" /> }));

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const t = () => i18n.getFixedT('en-US', 'geofence');
const circle = (lat: string, lon: string, radius: string) => ({ ...emptyArea('circle'), lat, lon, radius });
const problems = (form: FenceForm) => {
  const checked = checkFence(t() as never, form);
  return 'problems' in checked ? checked.problems : null;
};

function fence(change: Partial<FenceDetail> = {}): FenceDetail {
  return {
    id: 5, name: 'Depot', areas: [{ shape: 'circle', lat: 52.5, lon: 13.4, radius: 800, points: [] }],
    createdAt: '2026-05-01T08:00:00+00:00', deviceCount: 0, organizationId: null, organizationName: null,
    changeable: true, deviceIds: [], ...change,
  };
}
const page = <T,>(rows: T[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });

describe('the fence form', () => {
  it('takes a name of 1 to 20 characters and 1 to 10 areas', () => {
    const good = { name: ' Depot ', areas: [circle('52.5', '13.4', '800')] };
    expect(checkFence(t() as never, good)).toEqual({
      input: { name: 'Depot', areas: [{ shape: 'circle', lat: 52.5, lon: 13.4, radius: 800, points: [] }] },
    });
    expect(problems({ ...good, name: '  ' })).toEqual({ name: 'Enter a name' });
    expect(problems({ ...good, name: 'x'.repeat(21) })).toEqual({ name: 'At most 20 characters' });
    expect(problems({ ...good, areas: [] })).toEqual({ areas: 'A fence needs at least one area' });
    expect(problems({ ...good, areas: Array.from({ length: 11 }, () => circle('1', '1', '1')) })).toEqual({ areas: 'At most 10 areas' });
  });

  it('checks each circle and polygon as the server does', () => {
    const form = (area: ReturnType<typeof emptyArea>) => ({ name: 'Depot', areas: [area] });
    expect(problems(form(circle('91', '0', '10')))).toEqual({ 'areas.0': 'A latitude is between -90 and 90 degrees' });
    expect(problems(form(circle('0', '-181', '10')))).toEqual({ 'areas.0': 'A longitude is between -180 and 180 degrees' });
    expect(problems(form(circle('0', '0', '')))?.['areas.0']).toMatch(/radius/);
    expect(problems(form(circle('0', '0', '50001')))?.['areas.0']).toMatch(/at most 50000 metres/);
    expect(problems(form(circle('0,5', '0', '1')))).toBeNull(); // a decimal comma is a point
    const polygon = (points: string) => form({ ...emptyArea('polygon'), points });
    expect(problems(polygon('1, 1\n1, 2'))?.['areas.0']).toMatch(/3 to 100 points/);
    expect(problems(polygon('1, 1\n1 2\nnorth'))?.['areas.0']).toMatch(/latitude and a longitude/);
    expect(problems(polygon('1, 1\n1, 2\n2; 2'))).toBeNull();
    expect(parsePoints(' 1.5, -2 \n\n3 4 ')).toEqual([{ lat: 1.5, lon: -2 }, { lat: 3, lon: 4 }]);
  });
});

describe('the geofence page', () => {
  const PERMITTED = ['home', 'waybill.geofence'];

  it('makes a circle fence from typed numbers and lists it', async () => {
    const server = fakeServer({
      'POST /device/DeviceFence/page': () => page([fence()]),
      'POST /device/DeviceFence/insert': () => envelope(fence()),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<GeofencePage />, '/waybill/geofence');
    expect(await screen.findByTestId('fence-row')).toHaveTextContent('1 circle');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('fence-add'));
    await user.click(await screen.findByTestId('fence-save'));
    expect(await screen.findByText('Enter a name')).toBeInTheDocument();
    expect(screen.getByTestId('area-error-0')).toHaveTextContent('latitude');
    await user.type(screen.getByTestId('fence-name'), 'Depot');
    await user.type(screen.getByTestId('area-lat-0'), '52.5');
    await user.type(screen.getByTestId('area-lon-0'), '13.4');
    await user.type(screen.getByTestId('area-radius-0'), '800');
    await user.click(screen.getByTestId('fence-save'));
    await waitFor(() => expect(server.callsTo('POST /device/DeviceFence/insert')).toHaveLength(1));
    expect(server.callsTo('POST /device/DeviceFence/insert')[0]?.body).toEqual({
      name: 'Depot', areas: [{ shape: 'circle', lat: 52.5, lon: 13.4, radius: 800, points: [] }],
    });
  });

  it('deletes a fence after confirmation', async () => {
    const server = fakeServer({
      'POST /device/DeviceFence/page': () => page([fence()]),
      'DELETE /device/DeviceFence/delete': () => envelope({ released: 0 }),
    });
    signIn(accountInfo({}, { permissionRoutes: PERMITTED }), PERMITTED);
    renderApp(<GeofencePage />, '/waybill/geofence');
    const user = userEvent.setup();
    await user.click(within(await screen.findByTestId('fence-row')).getByTestId('fence-delete'));
    expect(await screen.findByTestId('fence-delete-confirm')).toHaveTextContent('Delete the fence Depot');
    expect(server.callsTo('DELETE /device/DeviceFence/delete')).toHaveLength(0);
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(server.callsTo('DELETE /device/DeviceFence/delete')[0]?.params.get('id')).toBe('5'));
  });
});

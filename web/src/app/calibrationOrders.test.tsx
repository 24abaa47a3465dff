import { screen, waitFor } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountInfo, envelope, fakeServer, renderRoute, setUpI18n, signIn } from '@/test/harness';
import { LAB_PERMISSION } from '@/lib/api/calibrationLab';
import { session } from '@/lib/session';
import { calibrationOrderPages } from './calibrationOrders';

const EMPTY = { start: 1, pageSize: 20, totalCount: 0, data: [] };

async function open(path: string) {
  const { default: Page } = await calibrationOrderPages.calibrationOrders!() as { default: ComponentType };
  renderRoute(<Suspense fallback={null}><Page /></Suspense>, '/:role/order/list', path);
}

beforeAll(setUpI18n);
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

describe('/{role}/order/list', () => {
  it("is the lab's list for the lab, whatever the path says", async () => {
    const api = fakeServer({
      'POST /calibration/Application/page/allApplicationOrder': () => envelope(EMPTY),
      'GET /calibration/PriceConf/get/price': () => envelope([]),
    });
    signIn(undefined, [LAB_PERMISSION]);
    await open('/user/order/list');
    expect(await screen.findByTestId('lab-orders')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('POST /calibration/Application/page/allApplicationOrder')).toHaveLength(1));
  });

  it("is the customer's own applications for any other account, even at /admin", async () => {
    const customer = accountInfo({}, { permissionRoutes: ['home', 'calibration.order'] });
    const api = fakeServer({
      'GET /base/BaseAccount/accountInfo': () => envelope(customer),
      'POST /calibration/Application/page/ApplicationOrder': () => envelope(EMPTY),
    });
    signIn(customer, ['home', 'calibration.order']);
    await open('/admin/order/list');
    expect(await screen.findByTestId('calibration-list')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('POST /calibration/Application/page/ApplicationOrder')).toHaveLength(1));
    expect(api.callsTo('POST /calibration/Application/page/allApplicationOrder')).toHaveLength(0);
  });
});

/** alice's orders as her console places and pays them, for the back-office suites. */
import { expect } from 'vitest';
import { asUser } from './browser';

export type Placed = { orderId: number; orderCode: string; payQrCode: string; totalFee: number; currency: string };

/** alice orders a year of her cold room A's current level, paying by WeChat Pay (through the API, as her paying drawer does). */
export function placeOrder(baseURL: string, language: string): Promise<Placed> {
  return asUser(baseURL, 'alice', language, async (headers) => {
    const call = async <T>(method: string, path: string, body?: unknown, query?: Record<string, string | number>): Promise<T> => {
      const search = query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}` : '';
      const reply = await fetch(`${baseURL}/api${path}${search}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
      const json = (await reply.json()) as { code: number; data: T };
      expect(json.code, `${path}: ${JSON.stringify(json)}`).toBe(0);
      return json.data;
    };
    const devices = await call<{ data: { deviceId: number }[] }>('POST', '/device/Device/page',
      { start: 1, pageSize: 10, deviceGuid: 'RCW360A0000001' });
    const deviceId = devices.data[0]!.deviceId;
    const levels = await call<{ current: boolean; levelId: number; packageId: number }[]>('GET',
      '/payment/PayServicePackages/selectLevelList', undefined, { deviceId });
    const level = levels.find((l) => l.current)!;
    const years = (await call<{ levelYearList: { id: number; serviceFee: number; price: number }[] }>('GET',
      '/payment/PayServiceLevelYear/selectListByDomain', undefined,
      { deviceId, levelId: level.levelId, packageId: level.packageId })).levelYearList;
    return call<Placed>('POST', '/payment/PayOrder/createServiceOrder', {
      deviceId, levelId: level.levelId, levelYearId: years[0]!.id, servicePackageId: level.packageId, payType: 1,
      serviceFee: years[0]!.serviceFee, totalFee: years[0]!.price,
    });
  });
}

/** alice's phone opens the order's QR code: the development gateway's pay link, on the test server. */
export async function pay(baseURL: string, placed: Pick<Placed, 'payQrCode'>): Promise<void> {
  const link = new URL(placed.payQrCode);
  const paid = await fetch(`${baseURL}${link.pathname}${link.search}`);
  expect(paid.ok, await paid.text()).toBe(true);
}

import { describe, expect, it } from 'vitest';
import { calibrationHeaderLinks } from './CalibrationLayout';

describe('the calibration header', () => {
  it('offers the quick orders and the certificate list on the lab\'s order pages', () => {
    expect(calibrationHeaderLinks('/admin/order/list', true)).toEqual(
      { quickOrders: true, orders: false, certificates: true, logout: true });
    expect(calibrationHeaderLinks('/admin/order/detail/7', true).quickOrders).toBe(true);
    expect(calibrationHeaderLinks('/admin/order/quickly', true)).toEqual(
      { quickOrders: false, orders: true, certificates: true, logout: true });
    expect(calibrationHeaderLinks('/customer/order/list', true)).toEqual(
      { quickOrders: false, orders: false, certificates: false, logout: true });
  });

  it('hides logout on the login, form, quickly, example and preview pages, and without a session', () => {
    for (const path of ['/calibration/login', '/calibration/admin/login', '/calibration/form', '/calibration/quickly',
      '/calibration/form/example', '/calibration/preview', '/calibration/preview/']) {
      expect(calibrationHeaderLinks(path, true).logout, path).toBe(false);
    }
    expect(calibrationHeaderLinks('/admin/order/list', false).logout).toBe(false);
  });
});

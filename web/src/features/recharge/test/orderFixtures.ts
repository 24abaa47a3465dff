import type { MyOrder } from '../api/myOrders';

/** An unpaid domestic order of two devices, as My orders lists it. */
export function order(overrides: Partial<MyOrder> = {}): MyOrder {
  return {
    orderId: 21,
    orderCode: '20261125100000000021',
    orderFee: 19800,
    payFee: null,
    payStatus: 1,
    applyFlag: 0,
    invoiceStatus: 0,
    gmtCreate: '2026-11-25T10:00:00+08:00',
    payTime: null,
    payType: 1,
    orderDescription: 'Basic',
    deviceCount: 2,
    currency: 'CNY',
    devices: [
      { deviceId: 1, deviceName: 'Cold room A logger' },
      { deviceId: 2, deviceName: 'Cold room B logger' },
    ],
    expireTime: '2026-11-25T12:00:00+08:00',
    closeReason: null,
    couponCode: null,
    couponFee: 0,
    refundFee: 0,
    ...overrides,
  };
}

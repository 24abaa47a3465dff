/** Orders, dossiers and refunds as the order desk's calls answer them (the demo's alice, one device). */
import { envelope } from '@/test/harness';
import type { DeskOrder, OrderDossier, Refund, RefundQuote, TakeBack } from '../api/orders';

export const page = <T,>(rows: T[]) => envelope({ start: 1, pageSize: 10, totalCount: rows.length, data: rows });

export function order(change: Partial<DeskOrder> = {}): DeskOrder {
  return {
    orderId: 7, orderCode: '20261127101500123456', orderFee: 9900, payFee: null, payStatus: 1, invoiceStatus: 0,
    applyFlag: 0, gmtCreate: '2026-11-27T10:15:00+08:00', payTime: null, closeTime: null, refundTime: null, payType: 1,
    orderDescription: 'Standard', deviceCount: 1, currency: 'CNY', closeReason: null, couponCode: null, couponFee: 0,
    refundFee: 0, devices: [{ deviceId: 11, deviceName: 'Cold room A' }], expireTime: null, countryCode: null,
    payer: { accountId: 3, userName: 'alice', phone: '13800000001', email: null }, paymentReference: 'wx123',
    settlementReference: null, handleable: true, refundable: false,
    lines: [{ deviceId: 11, deviceName: 'Cold room A', fee: 9900, levelName: 'Standard', timeLength: 12,
      presentationMonth: 0, smsCount: 0, voiceCount: 0 }],
    ...change,
  };
}

/** What order() changes once paid: refundable, nothing refunded yet. */
export const PAID = { payStatus: 2, payFee: 9900, payTime: '2026-11-27T10:16:00+08:00', handleable: false, refundable: true };

export function dossier(change: Partial<OrderDossier> = {}): OrderDossier {
  const base = order();
  return {
    ...base,
    lines: [{ ...base.lines[0]!, guid: 'RCW360A0000001', beforeLevelName: 'Standard',
      beforeExpireTime: '2027-01-01T00:00:00+08:00', afterExpireTime: null, recomputed: false }],
    history: [], notifications: [], refunds: [],
    ...change,
  };
}

export function takeBack(change: Partial<TakeBack> = {}): TakeBack {
  return {
    deviceId: 11, deviceName: 'Cold room A', levelBefore: 'Standard', levelAfter: 'Standard',
    expireTimeBefore: '2028-01-15T12:00:00+08:00', expireTimeAfter: '2027-07-15T12:00:00+08:00', monthsTaken: 6,
    smsTaken: 0, voiceTaken: 0, smsUsed: 0, voiceUsed: 0, restored: false,
    ...change,
  };
}

export function quote(change: Partial<RefundQuote> = {}): RefundQuote {
  return { orderId: 7, amount: 9900, refundable: 9900, currency: 'CNY', needsApproval: false,
    takeBacks: [takeBack({ monthsTaken: 12, expireTimeAfter: '2027-01-15T12:00:00+08:00' })], ...change };
}

export function refund(change: Partial<Refund> = {}): Refund {
  return {
    refundId: 31, orderId: 7, orderCode: '20261127101500123456', refundCode: '20261127101500123456R1', amount: 4950,
    currency: 'CNY', reason: 'The customer asked', status: 3, requestedBy: 'bob', requestedAt: '2026-11-28T09:00:00+08:00',
    decidedBy: null, decidedAt: null, decisionNote: null, providerReference: 'dev-20261127101500123456R1', error: null,
    finishedAt: '2026-11-28T09:00:01+08:00', takeBacks: [takeBack()], payStatus: 5, refundedFee: 4950,
    ...change,
  };
}

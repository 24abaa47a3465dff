/** Recharge statistics as the server answers them (CNY, days of Asia/Shanghai). */
import { envelope } from '@/test/harness';
import type { Figures, PeriodFigures, Statistics } from '../api/statistics';
import { addDays } from '../range';

const NONE: Figures = { paid: 0, orders: 0, refunded: 0, refunds: 0, net: 0 };

/** The day `day` of Shanghai and its figures. */
export function period(day: string, figures: Partial<Figures> = {}): PeriodFigures {
  return { start: `${day}T00:00:00+08:00`, end: `${addDays(day, 1)}T00:00:00+08:00`, ...NONE, ...figures };
}

/** Two days: nothing on the 27th, alice's WeChat order paid on the 28th and half of another refunded. */
export function statistics(change: Partial<Statistics> = {}): Statistics {
  const paid = { paid: 123456, orders: 2, refunded: 4950, refunds: 1, net: 118506 };
  return {
    currency: 'CNY',
    total: paid,
    periods: [period('2026-11-27'), period('2026-11-28', paid)],
    payTypes: [{ payType: 1, payTypeName: 'WeChat Pay', ...paid }],
    // every order placed on the console itself: no breakdown by platform is shown
    platforms: [{ camp: 0, platformName: 'Main console', ...paid }],
    levels: [{ levelId: 2, levelName: 'Standard', ...NONE, paid: 99000, orders: 1 },
      { levelId: 5, levelName: null, ...NONE, paid: 24456, orders: 1 }],
    devices: { new: 3, renewed: 2, expired: 1 },
    ...change,
  };
}

export const answer = (change: Partial<Statistics> = {}) => envelope(statistics(change));

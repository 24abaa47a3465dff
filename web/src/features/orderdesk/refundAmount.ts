import { parseCents } from '@/lib/money';

/** Why a typed refund amount cannot be refunded: not an amount, more than two decimals, nothing, more than is left. */
export type AmountProblem = 'format' | 'decimals' | 'positive' | 'tooLarge';

/** The cents of an amount typed in the order's currency units, or why it will not do with `refundable` cents left. */
export function checkAmount(text: string, refundable: number): { cents: number } | { problem: AmountProblem } {
  const cents = parseCents(text);
  if (cents === null) return { problem: /^\d*[.,]\d{3,}$/.test(text.trim()) ? 'decimals' : 'format' };
  if (cents < 1) return { problem: 'positive' };
  if (cents > refundable) return { problem: 'tooLarge' };
  return { cents };
}

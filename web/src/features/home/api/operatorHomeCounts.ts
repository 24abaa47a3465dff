/**
 * GET /device/Device/operatorHomeCounts: the back office's view across every customer, for the
 * operator home. Refused (403) to anyone without the data board permission.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http/index';

export const OPERATOR_HOME_PERMISSION = 'dataBoard';

export const operatorHomeCountsSchema = z.object({
  /** Accounts that are not system ones. */
  customers: z.number(),
  devices: z.number(),
  online: z.number(),
  alarm: z.number(),
  /** Created today, in the browser's time zone (the X-Time-Zone header). */
  ordersToday: z.number(),
  /** Paid today and not refunded. */
  paidOrdersToday: z.number(),
  /** Money of today's paid orders, in cents, one row per currency. */
  revenueToday: z.array(z.object({ currency: z.string(), payFee: z.number() })),
});
export type OperatorHomeCounts = z.infer<typeof operatorHomeCountsSchema>;

export async function fetchOperatorHomeCounts(): Promise<OperatorHomeCounts> {
  return operatorHomeCountsSchema.parse(await api.get('/device/Device/operatorHomeCounts', { silent: true }));
}

export const operatorHomeKeys = { all: ['backOffice', 'operatorHomeCounts'] as const };

export function useOperatorHomeCounts() {
  return useQuery({ queryKey: operatorHomeKeys.all, queryFn: fetchOperatorHomeCounts });
}

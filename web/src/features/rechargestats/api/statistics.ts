/**
 * Recharge statistics (/operation/rechargeStatistics, issue 19): POST /payment/PayOrder/rechargeStatistics
 * (revenue by period, pay type and level, refunds deducted; device counts) and exportRechargeStatistics
 * (the periods as an XLSX). Shapes: src/entrypoints/api/orders/statistics.py.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/http/index';

export const GRANULARITIES = ['day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** Days (YYYY-MM-DD, both included) of the zone the client sends as X-Time-Zone. */
export interface StatsRange {
  startDate: string;
  endDate: string;
  granularity: Granularity;
}

/** Cents of the answer's currency: paid by the orders paid then, paid back by the refunds made then. */
const figures = {
  paid: z.number(),
  orders: z.number(),
  refunded: z.number(),
  refunds: z.number(),
  /** paid less refunded */
  net: z.number(),
};
export const figuresSchema = z.object(figures);
export type Figures = z.infer<typeof figuresSchema>;

export const statisticsSchema = z.object({
  currency: z.string(),
  total: figuresSchema,
  /** start included, end excluded; instants written in the request's zone. */
  periods: z.array(z.object({ start: z.string(), end: z.string(), ...figures })),
  payTypes: z.array(z.object({ payType: z.number(), payTypeName: z.string(), ...figures })),
  /** By the camp of the platform the order was placed on (0 the console), named in the reader's language. */
  platforms: z.array(z.object({ camp: z.number(), platformName: z.string(), ...figures })),
  /** Service orders by the level bought; refunds are not split by level. */
  levels: z.array(z.object({ levelId: z.number(), levelName: z.string().nullable(), ...figures })),
  /** new (added), renewed (given service by an order paid), expired (service ran out) in the range. */
  devices: z.record(z.string(), z.number()),
});
export type Statistics = z.infer<typeof statisticsSchema>;
export type PeriodFigures = Statistics['periods'][number];

export const statsKeys = {
  all: ['rechargestats'] as const,
  range: (range: StatsRange, language: string) => ['rechargestats', range, language] as const,
};

/** Silent: the page shows a refusal (a range of over 400 periods) itself, in the server's words. */
export async function fetchStatistics(range: StatsRange) {
  return statisticsSchema.parse(await api.post('/payment/PayOrder/rechargeStatistics', range, { silent: true }));
}

export async function exportStatistics(range: StatsRange) {
  return api.download('/payment/PayOrder/exportRechargeStatistics', { method: 'POST', body: range });
}

/** Pay types, platforms and levels are named in the reader's language: a new language reads them again. */
export function useStatistics(range: StatsRange, language: string, enabled: boolean) {
  return useQuery({
    queryKey: statsKeys.range(range, language),
    queryFn: () => fetchStatistics(range),
    placeholderData: keepPreviousData,
    enabled,
  });
}
